"""The worker loop stops every worker it started, whenever Ctrl-C or SIGTERM lands."""

from __future__ import annotations

import os
import signal
import time
from types import SimpleNamespace

import pytest

from pipeline import scheduler
from pipeline.scheduler import Job, Terminated


def _fake_handle(signum: int, stopped: list):
    class Handle:
        """A worker whose start is interrupted by ``signum`` (as when Ctrl-C lands while the
        forkserver forks it), then runs until stopped."""

        def __init__(self, job):
            self.job, self.code = job, None
            os.kill(os.getpid(), signum)
            time.sleep(0.05)           # the signal's handler runs here, inside the start

        def exitcode(self):
            return self.code

        def stop(self):
            stopped.append(self.job)
            self.code = -signal.SIGTERM

        def kill(self):
            stopped.append(self.job)
            self.code = -signal.SIGKILL

    return Handle


@pytest.mark.parametrize("signum, raised", [(signal.SIGINT, KeyboardInterrupt),
                                            (signal.SIGTERM, Terminated)])
def test_a_signal_while_a_worker_starts_stops_that_worker(monkeypatch, signum, raised):
    stopped: list = []
    fake = _fake_handle(signum, stopped)
    monkeypatch.setitem(scheduler.WORKER_STRATEGIES, "fork", fake)
    monkeypatch.setitem(scheduler.WORKER_STRATEGIES, "subprocess", fake)
    job = Job(section=None, hash="h", render=SimpleNamespace(result="/nonexistent/result.json"))
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    with pytest.raises(raised):
        scheduler.run_jobs([job], 1, lambda j: None, lambda *a: None)
    assert stopped == [job.render], "the worker started as the signal landed was left running"
    assert {s: signal.getsignal(s) for s in before} == before   # handlers given back


class _DoneHandle:
    """A worker that has finished (its result is read by the loop as missing: "failed")."""

    def __init__(self, job):
        self.job = job

    def exitcode(self):
        return 0

    def stop(self):
        pass

    def kill(self):
        pass


@pytest.mark.parametrize("signum, raised", [(signal.SIGINT, KeyboardInterrupt),
                                            (signal.SIGTERM, Terminated)])
def test_a_signal_as_the_last_worker_finishes_still_stops_the_run(monkeypatch, signum, raised):
    """Ctrl-C landing while the last worker's outcome is handled is not lost: the run stops
    there rather than going on (to stitch) as if nobody had asked."""
    monkeypatch.setitem(scheduler.WORKER_STRATEGIES, "fork", _DoneHandle)
    job = Job(section=None, hash="h", render=SimpleNamespace(result="/nonexistent/result.json"))
    seen: list = []

    def on_done(j, status, data):
        if j is not None:
            seen.append(status)
            os.kill(os.getpid(), signum)   # handled by the loop's deferring handler
            time.sleep(0.05)

    with pytest.raises(raised):
        scheduler.run_jobs([job], 1, lambda j: None, on_done)
    assert seen == ["failed"]
