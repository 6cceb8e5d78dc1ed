"""Headless Firefox (Debian ``firefox-esr``) driven over its built-in WebDriver BiDi, offline.

No geckodriver: Debian does not package it and PyPI's ``geckodriver-wrapper`` ships only
the Windows binary. Firefox itself speaks WebDriver BiDi (``--remote-debugging-port``) on a
websocket; ``websocket-client`` (selenium's own dependency) carries the few commands a test
needs. The driver offers the slice of selenium's API the deck tests use (``execute_script``
with a function body, ``get_screenshot_as_png``) plus ``press`` for a key.

The network is cut by the fresh profile: every request not served from the disk goes to a
proxy that does not exist, and Firefox's own background calls are switched off.
"""

from __future__ import annotations

import base64
import itertools
import json
import re
import shutil
import subprocess
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

__all__ = ["FIREFOX", "BidiFirefox", "offline_firefox"]

FIREFOX = "/usr/bin/firefox-esr"
VIEWPORT = (1280, 720)
#: The fresh profile's preferences: no network but loopback, nothing called home, clips may
#: start without a user gesture (a presenter's deck plays on entering a slide).
PREFS = {
    "network.proxy.type": 1, "network.proxy.http": "127.0.0.1", "network.proxy.http_port": 9,
    "network.proxy.ssl": "127.0.0.1", "network.proxy.ssl_port": 9, "network.proxy.allow_hijacking_localhost": False,
    "network.dns.disablePrefetch": True, "network.prefetch-next": False, "network.connectivity-service.enabled": False,
    "app.update.enabled": False, "browser.shell.checkDefaultBrowser": False, "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.enabled": False, "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False, "extensions.update.enabled": False,
    "media.autoplay.default": 0, "media.autoplay.blocking_policy": 0,
    "remote.active-protocols": 1,   # WebDriver BiDi only
}


class BidiFirefox:
    """One WebDriver BiDi session on a running Firefox, on its first tab."""

    def __init__(self, url: str, timeout: float = 30.0):
        import websocket

        self._ws = websocket.create_connection(f"{url}/session", timeout=timeout, suppress_origin=True)
        self._ids = itertools.count(1)
        #: Every event received (after a ``session.subscribe``), in order: ``{"method", "params"}``.
        self.events: list[dict] = []
        self.send("session.new", capabilities={})
        self.context = self.send("browsingContext.getTree")["contexts"][0]["context"]
        self.send("browsingContext.setViewport", context=self.context,
                  viewport={"width": VIEWPORT[0], "height": VIEWPORT[1]})

    def send(self, method: str, **params) -> dict:
        """Send one command and return its result (events in between are kept in :attr:`events`)."""
        n = next(self._ids)
        self._ws.send(json.dumps({"id": n, "method": method, "params": params}))
        while True:
            msg = json.loads(self._ws.recv())
            if msg.get("type") == "event":
                self.events.append({"method": msg.get("method"), "params": msg.get("params", {})})
                continue
            if msg.get("id") == n:
                if msg.get("type") == "error" or "error" in msg:
                    raise RuntimeError(f"{method}: {msg.get('error')}: {msg.get('message')}")
                return msg["result"]

    def get(self, url: str) -> None:
        self.send("browsingContext.navigate", context=self.context, url=url, wait="complete")

    def execute_script(self, body: str):
        """Run ``body`` as a function body (as selenium does) and return its value."""
        r = self.send("script.evaluate", expression=f"(() => {{ {body} }})()", awaitPromise=True,
                      target={"context": self.context}, resultOwnership="none")
        if r.get("type") == "exception":
            raise RuntimeError(f"script failed: {r['exceptionDetails'].get('text')}: {body}")
        return _value(r["result"])

    def get_screenshot_as_png(self) -> bytes:
        return base64.b64decode(self.send("browsingContext.captureScreenshot", context=self.context)["data"])

    def press(self, key: str) -> None:
        """A key pressed and released (a WebDriver key code such as selenium's ``Keys``)."""
        self.send("input.performActions", context=self.context, actions=[
            {"type": "key", "id": "keyboard", "actions": [{"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]}])

    def close(self) -> None:
        try:
            self.send("session.end")
        except Exception:
            pass
        self._ws.close()


def _value(remote: dict):
    """A BiDi remote value as Python (primitives and arrays: what the tests return)."""
    kind = remote["type"]
    if kind in ("undefined", "null"):
        return None
    if kind == "array":
        return [_value(v) for v in remote["value"]]
    if kind == "number" and isinstance(remote["value"], str):
        return float(remote["value"])   # NaN, Infinity, -0
    return remote.get("value")


@contextmanager
def offline_firefox(timeout: float = 60.0):
    """A fresh, offline headless Firefox with a BiDi session on it (closed on exit)."""
    profile = Path(tempfile.mkdtemp(prefix="firefox-profile-"))
    (profile / "user.js").write_text("".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in PREFS.items()))
    proc = subprocess.Popen([FIREFOX, "--headless", "--no-remote", "--profile", str(profile),
                             "--remote-debugging-port", "0", "about:blank"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env={"HOME": str(profile), "PATH": "/usr/bin:/bin", "MOZ_HEADLESS": "1"})
    driver = None
    try:
        end = time.monotonic() + timeout
        url = None
        assert proc.stderr is not None
        while url is None:
            line = proc.stderr.readline()
            if not line and (proc.poll() is not None or time.monotonic() > end):
                raise RuntimeError(f"Firefox did not start its WebDriver BiDi server (exit {proc.poll()})")
            m = re.search(r"WebDriver BiDi listening on (ws://\S+)", line)
            url = m.group(1) if m else None
        driver = BidiFirefox(url, timeout=timeout)
        yield driver
    finally:
        if driver is not None:
            driver.close()
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(profile, ignore_errors=True)
