"""The studio's renders: each a child process (:mod:`studio.job`) whose events it collects.

A :class:`Job` runs ``python -m studio.job`` in a session of its own, reads its JSON
lines into ``events`` (and each section's latest state into ``sections``), and is cancelled
with SIGTERM to its process group: the pipeline stops its workers, keeps finished sections
in the cache and leaves the outputs as they were. :class:`Jobs` holds them by id; a new
preview job of a kind replaces the running one of that kind (a new sentence's stills make
the old sentence's moot).

A preview is handed to a :class:`Spare`, a job process started in advance that has imported
the pipeline and manim already, so its first still is not behind two seconds of imports.
The next spare is started once the job has shown its first section (or ended), so that its
imports do not compete with that section for the cores.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from words import config

__all__ = ["Spare", "Job", "Jobs"]


def _command(warm: bool) -> list[str]:
    return [sys.executable, "-m", "studio.job", *(["--warm"] if warm else []), "-"]


def _stop_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass


class Spare:
    """A job process started in advance, getting ready (:func:`studio.job.warm`) and
    waiting on stdin for its order; its stderr goes to ``log`` until then.

    Parameters
    ----------
    logs
        The folder of the session's logs.
    """

    def __init__(self, logs: Path):
        logs.mkdir(parents=True, exist_ok=True)
        fd, log = tempfile.mkstemp(prefix="spare-", suffix=".log", dir=logs)
        self.log = Path(log)
        with os.fdopen(fd, "wb") as err:
            self.proc = subprocess.Popen(_command(warm=True), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=err, start_new_session=True)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> None:
        _stop_group(self.proc)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.log.unlink(missing_ok=True)


class Job:
    """One render in a child process.

    Parameters
    ----------
    number
        Its id in the session.
    spec
        What :func:`studio.job.run_spec` takes.
    log
        Where the child's stderr (rich's progress, warnings) goes.
    spare
        A process started in advance to run it in (None: a new one).
    on_shown
        Called once, when the job's first section is done (or the job ends).
    """

    def __init__(self, number: int, spec: dict, log: Path, spare: Spare | None = None,
                 on_shown: Callable[[], object] | None = None):
        self.number = number
        self.spec = spec
        self.events: list[dict] = []
        self.sections: dict[str, dict] = {}
        self.code: int | None = None
        self.error: str | None = None
        self.cancelled = False
        self.started = time.monotonic()
        self.lock = threading.Lock()
        self.on_shown = on_shown
        log.parent.mkdir(parents=True, exist_ok=True)
        self.log = log
        if spare is not None:
            os.replace(spare.log, log)   # its stderr, open in the process, now under the job's name
            self.proc = spare.proc
        else:
            with open(log, "wb") as err:
                self.proc = subprocess.Popen(_command(warm=False), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             stderr=err, start_new_session=True)
        # the server's settings as they are now (a spare has those of its start)
        env = config.current().environment()
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps({"spec": spec, "env": env}).encode())
            self.proc.stdin.close()
        except BrokenPipeError:
            pass   # it died already: its exit code says so
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            try:
                event = json.loads(raw)
            except ValueError:
                continue
            event["t"] = round(time.monotonic() - self.started, 3)
            with self.lock:
                self.events.append(event)
                if event.get("section"):
                    self.sections[event["section"]] = event
                if event["event"] == "error":
                    self.error = event["message"]
            if event["event"] == "done":
                self._shown()
        code = self.proc.wait()
        with self.lock:
            self.code = code
        self._shown()

    def _shown(self) -> None:
        tell, self.on_shown = self.on_shown, None
        if tell is not None:
            tell()

    @property
    def running(self) -> bool:
        return self.code is None

    def cancel(self) -> None:
        """Stop it as the command line stops on SIGTERM (its whole process group)."""
        if self.running:
            self.cancelled = True
            _stop_group(self.proc)

    def wait(self, timeout: float | None = None) -> int | None:
        self.reader.join(timeout)
        return self.code

    def state(self) -> dict:
        """What the page shows: the product, each section's last event, done or not (and
        the process id, which is its process group's)."""
        with self.lock:
            return {"id": self.number, "pid": self.proc.pid, "product": self.spec["product"], "running": self.running,
                    "code": self.code, "error": self.error, "cancelled": self.cancelled,
                    "sections": dict(self.sections), "seconds": round(time.monotonic() - self.started, 1),
                    "choice": self.spec.get("choice")}


class Jobs:
    """The session's jobs by id; logs under ``logs``; with ``spares``, a :class:`Spare`
    kept ready for previews."""

    def __init__(self, logs: Path, spares: bool = False):
        self.logs = Path(logs)
        self.by_id: dict[int, Job] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        # the spare's own: a job's reader thread makes the next spare while start() may be
        # waiting for that job to end
        self._spare_lock = threading.Lock()
        self.spares = spares
        self.spare: Spare | None = None
        self._closed = False
        self._make_spare()

    def _make_spare(self) -> None:
        with self._spare_lock:
            if self.spares and not self._closed and (self.spare is None or not self.spare.alive()):
                self.spare = Spare(self.logs)

    def _take_spare(self) -> Spare | None:
        with self._spare_lock:
            spare, self.spare = self.spare, None
        return spare if spare is not None and spare.alive() else None

    def start(self, spec: dict, replace: bool = False) -> Job:
        """Start a job; with ``replace`` (a preview), first cancel the running jobs of the
        same product, and run it in the spare process if there is one."""
        with self._lock:
            if replace:
                olds = [old for old in self.by_id.values() if old.spec["product"] == spec["product"] and old.running]
                for old in olds:   # every process group told at once, then each awaited
                    old.cancel()
                for old in olds:   # the output folder is one run's at a time
                    old.wait(30)
            number = next(self._ids)
            spare = self._take_spare() if replace else None
            job = Job(number, spec, self.logs / f"job-{number}.log", spare=spare,
                      on_shown=self._make_spare if replace else None)
            self.by_id[number] = job
            return job

    def get(self, number: int) -> Job | None:
        return self.by_id.get(number)

    def stop_all(self) -> None:
        """Cancel every job and stop the spare (no new one is made)."""
        with self._spare_lock:
            self._closed = True
            spare, self.spare = self.spare, None
        for job in self.by_id.values():
            job.cancel()
        if spare is not None:
            spare.stop()
        for job in self.by_id.values():
            job.wait(30)
