"""The studio's page in headless Chromium: a driver that reaches only the loopback server,
and the README's screenshot (``python -m tests.module.studio.page docs/studio.png [theme] [stills]``)."""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from tests.support.browser import offline_chromium, wait_for

from .support import running_studio

__all__ = ["loopback_chromium", "open_studio", "type_sentence", "screenshot"]


def loopback_chromium():
    """A headless Chromium that reaches 127.0.0.1 only: every other address goes to a proxy
    that does not exist; the CDP log records every request."""
    return offline_chromium(loopback=True)


def open_studio(driver, server) -> None:
    """Load the page and wait for its first script."""
    driver.get(server.url)
    wait_for(driver, "return document.querySelectorAll('.cue').length > 0", timeout=60)


def type_sentence(driver, sentence: str) -> None:
    """Replace the sentence as a lecturer types it."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    box = driver.find_element(By.ID, "sentence")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(Keys.DELETE)
    box.send_keys(sentence)


def screenshot(dest: Path, theme: str = "dark", stills: int = 6) -> Path:
    """The page for a sentence, with the first ``stills`` sections' stills, in ``theme``."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    with tempfile.TemporaryDirectory() as out, running_studio(Path(out), lang="en", stills=stills) as server, \
            loopback_chromium() as d:
        open_studio(d, server)
        type_sentence(d, "the cat sat on the mat because it was warm")
        wait_for(d, "return document.querySelector('.cue .text').innerText.includes('warm')", timeout=60)
        Select(d.find_element(By.ID, "theme")).select_by_value(theme)
        Select(d.find_element(By.ID, "follow")).select_by_value("it")
        wait_for(d, f"return document.querySelectorAll('.tile img').length >= {stills}", timeout=600, every=1)
        time.sleep(1)
        dest.parent.mkdir(parents=True, exist_ok=True)
        d.save_screenshot(str(dest))
    return dest


if __name__ == "__main__":
    args = sys.argv[1:]
    print(screenshot(Path(args[0]), args[1] if len(args) > 1 else "dark", int(args[2]) if len(args) > 2 else 6))
