"""Running render jobs over a few worker processes on this machine.

Each section gets a process of its own (:data:`WORKER_STRATEGIES`); :func:`run_jobs` keeps at
most ``workers`` of them busy and reports each outcome as it arrives.
"""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .files import DiskFull, atomic_write, read_json
from .registry import ROOT
from .worker import DISK_FULL_EXIT, RenderJob, render_worker

_mp_context = None

#: What the forkserver imports once, before it forks a process per section: manim, and the
#: scenes' shared kit (which reads no setting and no file when imported, so a section's
#: settings, applied in its own process, still reach it). Each section process then skips
#: about 0.4 s of imports. The forkserver lives as long as the process that started it: one
#: run for the command line and the studio's jobs; a Dask worker, which outlives runs, does
#: not preload the kit (:mod:`batch.tasks`).
FORKSERVER_PRELOAD = ("manim", "scenes.base")


@dataclass
class Job:
    """A section waiting for, or holding, a worker process."""

    section: Any               # scenes.registry.Section
    hash: str
    render: RenderJob
    started: float = 0.0
    handle: _Handle | None = None


def worker_context():
    """The processes' start method: a forkserver that has imported manim and the scenes' kit
    (:data:`FORKSERVER_PRELOAD`; started once per run, shared by the render workers and the
    voice's up-front pool)."""
    global _mp_context
    if _mp_context is None:
        import multiprocessing as mp

        # A worker stopped mid-render (Ctrl-C, a full disk) leaves the semaphores of its
        # encoder threads to the resource tracker, which removes them and says so on the
        # terminal in two lines of warning; the one line that says why the run ended is enough.
        # The tracker is started with this process's warning options.
        quiet = "ignore:resource_tracker:UserWarning"
        if quiet not in sys.warnoptions:
            sys.warnoptions.append(quiet)

        _mp_context = mp.get_context("forkserver")
        _mp_context.set_forkserver_preload(list(FORKSERVER_PRELOAD))
    return _mp_context


class _Handle:
    """A running worker process: poll it, ask it to stop, kill it."""

    def exitcode(self) -> int | None:
        raise NotImplementedError

    def _terminate(self) -> None:
        raise NotImplementedError

    def _kill_and_reap(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._terminate()

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self._kill_and_reap()


class _ForkHandle(_Handle):
    def __init__(self, job: RenderJob):
        self.p = worker_context().Process(target=render_worker, args=(job,), name=f"render-{job.stem}",
                                    daemon=True)
        self.p.start()

    def exitcode(self) -> int | None:
        return self.p.exitcode

    def _terminate(self) -> None:
        self.p.terminate()

    def _kill_and_reap(self) -> None:
        self.p.kill()
        self.p.join(1)


class _SubprocessHandle(_Handle):
    def __init__(self, job: RenderJob):
        job_file = Path(job.result).with_suffix(".job.json")
        atomic_write(job_file, job.to_json())
        code = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); from pipeline.worker import "
                "render_worker_cli; render_worker_cli(sys.argv[1])")
        self.p = subprocess.Popen([sys.executable, "-c", code, str(job_file)],
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)

    def exitcode(self) -> int | None:
        return self.p.poll()

    def _terminate(self) -> None:
        self.p.terminate()

    def _kill_and_reap(self) -> None:
        self.p.kill()
        self.p.wait(1)


#: How sections get their process (``ATTN_RENDER_WORKER``, :data:`words.config.RENDER_WORKER`;
#: an unknown name is ``fork``). ``fork`` (default): a forkserver that has imported manim
#: forks a fresh process per section: isolated like a ``manim`` subprocess (no state leaks
#: between scenes, a crash takes one section), without paying manim's import again per
#: section. ``subprocess``: a new python per section, kept for the comparison in
#: bench/bench_render.py. Measured here (8 sections, 480p15, --jobs 1): fork 53.8 s,
#: subprocess 62.3 s; plain `manim -ql` one by one 75.1 s (59.0 s with --disable_caching:
#: manim's per-animation hashing is pure overhead behind our cache).
WORKER_STRATEGIES: dict[str, type[_Handle]] = {"fork": _ForkHandle, "subprocess": _SubprocessHandle}


class Terminated(Exception):
    """SIGTERM arrived: stop like Ctrl-C."""


def on_sigterm(signum, frame):  # noqa: ARG001
    raise Terminated()


def run_jobs(jobs: list[Job], workers: int, on_start: Callable[[Job], None],
             on_done: Callable[[Job | None, str, Any], None], strategy: str = "fork") -> None:
    """Run ``jobs`` over at most ``workers`` processes; ``on_done(job, status, data)`` after
    each (``status`` "rendered" with the meta, or "failed" with a one-line reason), and
    ``on_done(None, "tick", None)`` now and then. A worker that found its disk full stops
    the run with :class:`~pipeline.files.DiskFull`. On any exception (Ctrl-C, a full disk)
    running workers are terminated, then killed."""
    make = WORKER_STRATEGIES.get(strategy, _ForkHandle)
    pending = list(jobs)
    running: list[Job] = []
    last_tick = time.monotonic()
    with _signals_between_steps() as stop:
        _run(make, pending, running, workers, on_start, on_done, stop, last_tick)
        if stop:   # landed after the loop's last look (as the last worker finished)
            raise stop[0]


@contextlib.contextmanager
def _signals_between_steps():
    """Ctrl-C and SIGTERM stop the loop of :func:`run_jobs` between two of its steps, not
    inside one: a signal that lands while a worker is being started (forked, not yet in
    ``running``) would otherwise leave it unstopped, rendering into the scratch directory
    the run removes on its way out. Yields the list the handler appends to (main thread
    only; elsewhere signals keep their handlers)."""
    stop: list[BaseException] = []
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def later(signum, frame):  # noqa: ARG001
        stop.append(KeyboardInterrupt() if signum == signal.SIGINT else Terminated())

    old = {sig: signal.signal(sig, later) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def _run(make, pending, running, workers, on_start, on_done, stop, last_tick) -> None:
    try:
        while pending or running:
            if stop:
                raise stop[0]
            while pending and len(running) < workers:
                job = pending.pop(0)
                job.started = time.monotonic()
                job.handle = make(job.render)
                running.append(job)
                on_start(job)
            time.sleep(0.05)
            if stop:
                raise stop[0]
            for job in [j for j in running if j.handle.exitcode() is not None]:
                running.remove(job)
                code = job.handle.exitcode()
                result = read_json(Path(job.render.result))
                if result is None and code == DISK_FULL_EXIT:
                    raise DiskFull(Path(job.render.store).parents[2])
                if result is not None and result.get("disk_full"):   # the run stops: others would too
                    full = result["disk_full"]
                    raise DiskFull(full["folder"], full.get("needed") or None, at_least=True)
                if result is None:
                    why = f"signal {-code}" if code < 0 else f"exit code {code}"
                    on_done(job, "failed", f"worker died ({why}) before finishing; see the log")
                elif result.get("ok"):
                    on_done(job, "rendered", result["meta"])
                else:
                    on_done(job, "failed", result.get("error") or "failed")
            if time.monotonic() - last_tick > 0.5:
                last_tick = time.monotonic()
                on_done(None, "tick", None)
    finally:
        for job in running:
            job.handle.stop()
        deadline = time.monotonic() + 3
        while running and time.monotonic() < deadline:
            running = [j for j in running if j.handle.exitcode() is None]
            time.sleep(0.05)
        for job in running:
            job.handle.kill()
