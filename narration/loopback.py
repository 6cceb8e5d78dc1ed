"""A page's server on this machine only: the loopback address, the ``Host`` checked, a
session token in every path.

The recorder and the studio are both local pages a lecturer opens in the browser. Each
answers only on ``127.0.0.1``, only to requests whose ``Host`` is the address it listens on
(a page elsewhere cannot reach it through DNS rebinding), and only under ``/<token>/``, a
secret that is in the page's address and nowhere else.
"""

from __future__ import annotations

import http.server
import secrets
import threading
from urllib.parse import unquote, urlsplit

__all__ = ["LoopbackServer", "content_length"]


def content_length(headers) -> int | None:
    """A request's ``Content-Length`` (0 when absent); None when it is not a whole number
    of bytes (the body is then never read)."""
    value = headers.get("Content-Length")
    if value is None:
        return 0
    value = value.strip()
    return int(value) if value.isdigit() and len(value) < 19 else None


class LoopbackServer:
    """A threading HTTP server on ``127.0.0.1:port`` (0: any free port) with a session token.

    A subclass sets up its own state, then calls ``super().__init__(port)``, and gives
    :meth:`_handler` (its request handler class); the handler asks :meth:`admit` first.
    """

    def __init__(self, port: int = 0):
        self.token = secrets.token_urlsafe(16)
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), self._handler())
        self.thread: threading.Thread | None = None

    def _handler(self) -> type[http.server.BaseHTTPRequestHandler]:
        raise NotImplementedError

    @property
    def url(self) -> str:
        """The page's address (with the session token)."""
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/{self.token}/"

    def admit(self, host: str, path: str, headers=None) -> list[str] | int:
        """The parts of ``path`` under the token, or the status to answer instead: 421 for a
        ``Host`` other than this server's address, 403 for a request another page sent (an
        ``Origin`` other than this server's, or the browser's ``Sec-Fetch-Site`` saying
        another site or another port of this one), 404 without the token. ``headers``: the
        request's (a mapping); None skips the sender's checks."""
        here = f"127.0.0.1:{self.httpd.server_address[1]}"
        if host != here:
            return 421
        if headers is not None:
            origin = headers.get("Origin")
            if origin is not None and origin != f"http://{here}":
                return 403
            if headers.get("Sec-Fetch-Site") in ("cross-site", "same-site"):
                return 403
        parts = [unquote(p) for p in urlsplit(path).path.split("/") if p != ""]
        if not parts or not secrets.compare_digest(parts[0], self.token):
            return 404
        return parts[1:]

    def start(self):
        """Serve in a background thread."""
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        return self

    def serve_forever(self) -> None:
        self.httpd.serve_forever()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
