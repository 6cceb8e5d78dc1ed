"""A studio server for the tests, and a small HTTP client for its API (the real server, the
real sockets: http.server has no test client, and the API is what the page calls)."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

__all__ = ["running_studio", "call", "raw", "group_alive"]


@contextmanager
def running_studio(out: Path, lang: str = "en", stills: int | None = 0, jobs: int = 1, spares: bool = False):
    """A :class:`studio.server.StudioServer` writing into ``out``, serving in a thread
    (stills of the first ``stills`` sections: none unless asked; no spare job process
    unless asked)."""
    from studio.server import StudioServer

    server = StudioServer(out, lang=lang, jobs=jobs, stills=stills, spares=spares).start()
    try:
        yield server
    finally:
        server.stop()


def raw(url: str, data: bytes | None = None, headers: dict | None = None) -> tuple[int, bytes, str]:
    """Status, body and content type of one request."""
    req = urllib.request.Request(url, data=data, headers=headers or {}, method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, r.read(), r.headers.get("Content-Type", "")
    except urllib.error.HTTPError as e:
        return e.code, e.read(), e.headers.get("Content-Type", "")


def call(server, route: str, body: dict | None = None) -> tuple[int, dict]:
    """Status and JSON answer of ``route`` (POST with ``body``, else GET)."""
    code, data, _ = raw(server.url + route, None if body is None else json.dumps(body).encode())
    return code, json.loads(data)


def group_alive(pgid: int) -> bool:
    """Whether a process of group ``pgid`` is left that is not a zombie (read from /proc)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        state, _ppid, group = text[text.rindex(")") + 2:].split()[:3]
        if int(group) == pgid and state != "Z":
            return True
    return False


def wait_job(server, number: int, until, timeout: float = 300, every: float = 0.2) -> dict:
    """Job ``number``'s state once ``until(state)`` holds, read every ``every`` seconds (the
    test fails after ``timeout``)."""
    end = time.monotonic() + timeout
    while True:
        code, job = call(server, f"api/jobs/{number}")
        assert code == 200
        if until(job):
            return job
        assert time.monotonic() < end, job
        time.sleep(every)
