"""A local page served until Ctrl-C: the recorder's and the studio's command share this."""

from __future__ import annotations

import sys
from collections.abc import Callable

from pipeline.options import BadInput

__all__ = ["serve_page"]


def serve_page(make_server: Callable, port: int, banner: str, open_browser: bool) -> None:
    """Start ``make_server()`` (a :class:`narration.loopback.LoopbackServer`), print its
    address alone on stdout (scripts and the tests read it) and ``banner`` on stderr, open it
    in the browser if asked, and serve until Ctrl-C; the server is stopped in any case. A port
    that cannot be bound is bad input (one line, exit 2)."""
    try:
        server = make_server()
    except OSError as e:
        raise BadInput(f"--port {port}: {e.strerror or e}") from None
    print(server.url, flush=True)
    print(banner, file=sys.stderr, flush=True)
    if open_browser:
        import webbrowser  # only here: every command imports this module

        webbrowser.open(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
