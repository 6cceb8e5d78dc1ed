"""The recorder: a page on a loopback-only server where a lecturer records every cue.

``render.py record DIR`` lists the run's cues (as ``render.py script`` does), starts a
:class:`RecorderServer` on ``127.0.0.1`` and opens its page: one cue at a time with its id
and text, record from the microphone (the browser's ``MediaRecorder``), play back, re-take,
next; each take is saved as ``DIR/<id>.<ext>`` (webm from Chromium and Firefox, m4a from
Safari), and the page shows which cues are still missing. ``render.py render --recordings
DIR`` then uses the takes.

The server answers only on the loopback interface, only to requests whose ``Host`` is the
loopback address it listens on (a page elsewhere cannot reach it through DNS rebinding),
and the API only with the session's token, which is in the page's address.

Routes: ``GET /<token>/`` the page, ``GET /<token>/cues`` the cues with what is recorded,
``PUT /<token>/take/<id>.<ext>`` save a take, ``GET /<token>/take/<id>`` the take.
"""

from __future__ import annotations

import errno
import http.server
import importlib.resources
import json
import os
import tempfile
from pathlib import Path

from . import recordings
from .loopback import LoopbackServer, content_length

__all__ = ["RecorderServer", "MAX_TAKE_BYTES", "PAGE"]

#: The largest take accepted (bytes): ten minutes of 48 kHz 16-bit mono WAV, far above a cue.
MAX_TAKE_BYTES = 60 * 1024 * 1024
#: Seconds a connection may stay silent before its thread gives up on it.
REQUEST_TIMEOUT = 30
#: What a refused request is told, by status (LoopbackServer.admit).
REFUSED = {421: b"wrong host", 403: b"not from this page", 404: b"not found"}
#: The page, a package resource (HTML + JavaScript, no network).
PAGE = "recorder.html"
_TYPES = {"wav": "audio/wav", "flac": "audio/flac", "ogg": "audio/ogg", "mp3": "audio/mpeg",
          "m4a": "audio/mp4", "webm": "audio/webm"}


class RecorderServer(LoopbackServer):
    """The recorder's HTTP server for ``cues`` (dicts with ``id``, ``text``, ``section``,
    ``beat``), saving takes into ``folder``.

    Parameters
    ----------
    folder
        Where takes are saved (``<id>.<ext>``); created if missing.
    cues
        The run's cues in order (``render.py script --json``'s objects).
    lang
        The captions' language (the page's ``lang``).
    port
        The port on 127.0.0.1 (0: any free port).
    """

    def __init__(self, folder: Path, cues: list[dict], lang: str, port: int = 0):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.cues = cues
        self.ids = {c["id"] for c in cues}
        self.lang = lang
        super().__init__(port)

    # ------------------------------------------------------------------ state

    def state(self) -> list[dict]:
        """The cues, each with ``recorded`` (the take's file name, or None)."""
        out = []
        for c in self.cues:
            take = recordings.find(self.folder, c["id"])
            out.append({**c, "recorded": take.name if take else None})
        return out

    def save(self, cue: str, ext: str, data: bytes) -> Path:
        """Save a take of ``cue``: written under a temporary name and renamed, and any take
        of it in another format removed (one take per cue)."""
        dest = self.folder / f"{cue}.{ext}"
        fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=f".{cue}-", suffix=f".{ext}")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, dest)
        finally:   # a take the disk had no room for leaves nothing behind
            Path(tmp).unlink(missing_ok=True)
        for other in recordings.EXTENSIONS:
            if other != ext:
                (self.folder / f"{cue}.{other}").unlink(missing_ok=True)
        return dest

    # ------------------------------------------------------------------ HTTP

    def _handler(self):
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet: the command prints its own progress
                pass

            timeout = REQUEST_TIMEOUT   # a client that stops sending does not keep a thread

            def _route(self) -> list[str] | None:
                parts = server.admit(self.headers.get("Host", ""), self.path, self.headers)
                if isinstance(parts, int):
                    self._send(parts, REFUSED.get(parts, b"not found"), "text/plain")
                    return None
                return parts

            def _send(self, code: int, body: bytes, ctype: str) -> None:
                self.send_response(code)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def _json(self, data, code: int = 200) -> None:
                self._send(code, json.dumps(data, ensure_ascii=False).encode("utf-8"),
                           "application/json; charset=utf-8")

            def do_GET(self):  # noqa: N802 - http.server's name
                route = self._route()
                if route is None:
                    return
                if route == []:
                    page = importlib.resources.files("narration").joinpath(PAGE).read_bytes()
                    page = page.replace(b"{{lang}}", server.lang.encode())
                    self._send(200, page, "text/html; charset=utf-8")
                elif route == ["cues"]:
                    self._json({"folder": str(server.folder), "cues": server.state()})
                elif len(route) == 2 and route[0] == "take" and route[1] in server.ids:
                    take = recordings.find(server.folder, route[1])
                    if take is None:
                        self._send(404, b"no take", "text/plain")
                    else:
                        self._send(200, take.read_bytes(), _TYPES[take.suffix[1:]])
                else:
                    self._send(404, b"not found", "text/plain")

            def do_PUT(self):  # noqa: N802
                route = self._route()
                if route is None:
                    return
                if len(route) != 2 or route[0] != "take" or "." not in route[1]:
                    self._send(404, b"not found", "text/plain")
                    return
                cue, ext = route[1].rsplit(".", 1)
                if cue not in server.ids or ext not in recordings.EXTENSIONS:
                    self._json({"error": f"unknown cue or format: {route[1]}"}, 400)
                    return
                length = content_length(self.headers)
                if length is None or not 0 < length <= MAX_TAKE_BYTES:   # before a byte is read
                    self.close_connection = True
                    self._json({"error": f"a take must have 1 to {MAX_TAKE_BYTES} bytes"}, 413)
                    return
                data = self.rfile.read(length)
                if len(data) < length:
                    self._json({"error": "the take ended early"}, 400)
                    return
                try:
                    saved = server.save(cue, ext, data)
                except OSError as e:
                    if e.errno not in (errno.ENOSPC, errno.EDQUOT):
                        raise
                    self._json({"error": f"no space left in {server.folder} for this take "
                                         f"({len(data)} bytes); free some space there"}, 507)
                    return
                self._json({"saved": saved.name, "bytes": len(data)})

        return Handler
