"""The studio's renders: each a child process (:mod:`studio.job`) whose events it collects.

A :class:`Job` runs ``python -m studio.job SPEC`` in a session of its own, reads its JSON
lines into ``events`` (and each section's latest state into ``sections``), and is cancelled
with SIGTERM to its process group: the pipeline stops its workers, keeps finished sections
in the cache and leaves the outputs as they were. :class:`Jobs` holds them by id; a new
preview job of a kind replaces the running one of that kind (a new sentence's stills make
the old sentence's moot).
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
from pathlib import Path

__all__ = ["Job", "Jobs"]


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
    """

    def __init__(self, number: int, spec: dict, log: Path):
        self.number = number
        self.spec = spec
        self.events: list[dict] = []
        self.sections: dict[str, dict] = {}
        self.code: int | None = None
        self.error: str | None = None
        self.cancelled = False
        self.started = time.monotonic()
        self.lock = threading.Lock()
        fd, spec_file = tempfile.mkstemp(prefix="attn-studio-job-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(spec, f)
        self.spec_file = Path(spec_file)
        log.parent.mkdir(parents=True, exist_ok=True)
        self.log = log
        with open(log, "wb") as err:
            self.proc = subprocess.Popen([sys.executable, "-m", "studio.job", spec_file], stdout=subprocess.PIPE,
                                         stderr=err, start_new_session=True)
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
        code = self.proc.wait()
        with self.lock:
            self.code = code
        self.spec_file.unlink(missing_ok=True)

    @property
    def running(self) -> bool:
        return self.code is None

    def cancel(self) -> None:
        """Stop it as the command line stops on SIGTERM (its whole process group)."""
        if self.running:
            self.cancelled = True
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    def wait(self, timeout: float | None = None) -> int | None:
        self.reader.join(timeout)
        return self.code

    def state(self) -> dict:
        """What the page shows: the product, each section's last event, done or not."""
        with self.lock:
            return {"id": self.number, "product": self.spec["product"], "running": self.running,
                    "code": self.code, "error": self.error, "cancelled": self.cancelled,
                    "sections": dict(self.sections), "seconds": round(time.monotonic() - self.started, 1),
                    "choice": self.spec.get("choice")}


class Jobs:
    """The session's jobs by id; logs under ``logs``."""

    def __init__(self, logs: Path):
        self.logs = Path(logs)
        self.by_id: dict[int, Job] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def start(self, spec: dict, replace: bool = False) -> Job:
        """Start a job; with ``replace``, first cancel the running jobs of the same product."""
        with self._lock:
            if replace:
                for old in self.by_id.values():
                    if old.spec["product"] == spec["product"] and old.running:
                        old.cancel()
                        old.wait(30)
            number = next(self._ids)
            job = Job(number, spec, self.logs / f"job-{number}.log")
            self.by_id[number] = job
            return job

    def get(self, number: int) -> Job | None:
        return self.by_id.get(number)

    def stop_all(self) -> None:
        for job in self.by_id.values():
            job.cancel()
        for job in self.by_id.values():
            job.wait(30)
