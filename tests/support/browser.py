"""Headless Chromium (Debian ``chromium`` + ``chromium-driver``) driven by selenium, offline.

Used by ``tests/module/slides/test_slides.py`` to play the reveal deck, and from the command line to take
the README's screenshot of a rendered deck::

    python -m tests.support.browser out/slides/index.html docs/slides.png [slide number] [seconds played]

The network is cut twice: Chromium's CDP network emulation is set offline, and every
request not served from the disk would go to a proxy that does not exist. The CDP log
records every request the page makes, so a test can show that none left the machine.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
VIEWPORT = (1280, 720)
#: As root in a container Chromium needs --no-sandbox; the rest keeps it from calling home.
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>")
LOCAL_SCHEMES = ("file:", "data:", "blob:")


@contextmanager
def offline_chromium(*, loopback: bool = False):
    """A selenium driver for a fresh, offline headless Chromium (closed on exit).

    With ``loopback``, the page may reach 127.0.0.1 (a local server, past the proxy that
    does not exist) and nothing else; without it the network is switched off as well.
    """
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    flags = [f for f in FLAGS if not (loopback and f.startswith("--proxy-bypass-list"))]
    if loopback:
        flags.append("--proxy-bypass-list=127.0.0.1")
    for flag in (*flags, f"--user-data-dir={profile}", f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}"):
        opts.add_argument(flag)
    opts.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    try:
        driver.execute_cdp_cmd("Network.enable", {})
        if not loopback:
            driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
                "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": VIEWPORT[0], "height": VIEWPORT[1], "deviceScaleFactor": 1, "mobile": False})
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def page_requests(driver, page_url: str) -> list[str]:
    """Every URL the page at ``page_url`` asked for so far (from the CDP network log)."""
    urls = []
    for entry in driver.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg["method"] == "Network.requestWillBeSent":
            p = msg["params"]
            if p.get("documentURL", "").split("#")[0] == page_url:
                urls.append(p["request"]["url"])
    return urls


def wait_for(driver, script: str, timeout: float = 20.0, every: float = 0.05):
    """Poll ``script`` (returning a value) until it is truthy; return it, or raise TimeoutError."""
    end = time.monotonic() + timeout
    while True:
        value = driver.execute_script(script)
        if value:
            return value
        if time.monotonic() > end:
            raise TimeoutError(f"still false after {timeout}s: {script}")
        time.sleep(every)


def open_deck(driver, page: Path) -> str:
    """Load the deck from ``file://`` and wait until reveal.js is ready; returns the URL."""
    url = page.resolve().as_uri()
    driver.get(url)
    wait_for(driver, "return !!(window.Reveal && Reveal.isReady())")
    return url


def screenshot(page: Path, dest: Path, slide: int = 1, settle: float = 2.0) -> Path:
    """Open ``page``, go to ``slide`` with the keyboard, let its clip play ``settle`` s, save a PNG."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    with offline_chromium() as d:
        open_deck(d, page)
        body = d.find_element(By.TAG_NAME, "body")
        for _ in range(slide):
            body.send_keys(Keys.ARROW_RIGHT)
        wait_for(d, f"return Reveal.getIndices().h === {slide}")
        time.sleep(settle)
        dest.parent.mkdir(parents=True, exist_ok=True)
        d.save_screenshot(str(dest))
    return dest


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) not in (2, 3, 4):
        sys.exit("usage: python -m tests.support.browser DECK.html OUT.png [slide] [seconds]")
    print(screenshot(Path(args[0]), Path(args[1]), int(args[2]) if len(args) > 2 else 1,
                     float(args[3]) if len(args) > 3 else 2.0))
