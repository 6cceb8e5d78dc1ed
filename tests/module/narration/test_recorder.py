"""``render.py record``: the recorder page driven end to end in headless Chromium, its
microphone a fake one playing a tone (``--use-file-for-fake-audio-capture``); then a render
with the takes (``--recordings``) sounds that tone.

The server is checked as a browser meets it: it answers on 127.0.0.1 only, refuses another
``Host`` and any path without the session's token, and takes only known cue ids.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import av
import numpy as np
import pytest

from tests.support import ROOT
from tests.support.audio import decoded, pitch, write_tone
from tests.support.browser import CHROMEDRIVER, CHROMIUM, wait_for

sys.path.insert(0, str(ROOT))

from narration import recordings  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("recorder")]

LANG, SECTION = "en", "17"
TONE = 523.0          # the fake microphone's pitch (Hz)
TAKE_SECONDS = 1.6    # how long each cue is recorded


@pytest.fixture(scope="module")
def recorder(tmp_path_factory):
    """``render.py record`` running on a fresh folder; yields (url, folder, process)."""
    base = tmp_path_factory.mktemp("recorder")
    folder = base / "takes"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for k in ("ATTN_LANG", "ATTN_VOICE", "ATTN_NARRATION", "ATTN_CAPTIONS_FILE", "ATTN_RECORDINGS"):
        env.pop(k, None)
    proc = subprocess.Popen([sys.executable, str(ROOT / "render.py"), "record", "--no-browser", "--lang", LANG,
                             "--sections", SECTION, str(folder)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    url = proc.stdout.readline().strip()
    assert url.startswith("http://127.0.0.1:"), proc.stderr.read() if proc.poll() is not None else url
    yield url, folder, proc
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)


def _chromium_with_fake_microphone(wav: Path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                 f"--use-file-for-fake-audio-capture={wav}", "--autoplay-policy=no-user-gesture-required",
                 "--window-size=1280,720"):
        opts.add_argument(flag)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)


def test_the_server_is_loopback_only_and_needs_the_token(recorder):
    url, _, _ = recorder
    root = url.rsplit("/", 2)[0] + "/"
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(root + "cues", timeout=10)
    assert e.value.code == 404
    req = urllib.request.Request(url + "cues", headers={"Host": "attacker.example"})
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req, timeout=10)
    assert e.value.code == 421
    put = urllib.request.Request(url + "take/99-nothing-1.wav", data=b"RIFF", method="PUT")
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(put, timeout=10)
    assert e.value.code == 400


def test_record_every_cue_in_chromium_then_render_with_the_takes(recorder, tmp_path):
    url, folder, proc = recorder
    mic = tmp_path / "mic.wav"
    write_tone(mic, TONE, 30.0)
    driver = _chromium_with_fake_microphone(mic)
    try:
        driver.get(url)
        total = int(wait_for(driver, "return document.body.dataset.missing"))
        assert total == 4
        ids = []
        for k in range(total):
            cue = driver.find_element("id", "cue-id").text
            assert cue and driver.find_element("id", "cue-text").text
            ids.append(cue)
            button = driver.find_element("id", "record")
            button.click()
            time.sleep(TAKE_SECONDS)
            button.click()
            wait_for(driver, f"return document.body.dataset.saved === {cue!r}")
            assert int(driver.execute_script("return document.body.dataset.missing")) == total - k - 1
            if k == 0:  # play it back, then take it again: still one file for the cue
                driver.find_element("id", "play").click()
                wait_for(driver, "const p = document.getElementById('player'); return p.currentTime > 0.2")
                driver.execute_script("document.body.dataset.saved = ''")
                button.click()
                time.sleep(TAKE_SECONDS)
                button.click()
                wait_for(driver, f"return document.body.dataset.saved === {cue!r}")
            driver.find_element("id", "next").click()
        assert "all 4 cues recorded" in driver.find_element("id", "progress").text
    finally:
        driver.quit()
    assert ids == ["17-intro-1", "17-remove-1", "17-count-1", "17-position-1"]
    takes = sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))
    assert len(takes) == 4 and all(recordings.find(folder, i) for i in ids), takes
    for cue in ids:  # each take is audio PyAV decodes, the fake microphone's tone
        samples, rate = decoded(recordings.find(folder, cue))
        assert len(samples) / rate > 0.8 * TAKE_SECONDS
        assert abs(pitch(samples, rate) - TONE) < 15
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert "4 of 4 cues recorded" in err, err

    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, str(ROOT / "render.py"), "render", "--lang", LANG, "--sections", SECTION,
                        "--quality", "tiny", "--jobs", "1", "--recordings", str(folder), "--out", str(out)],
                       env=env, capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stdout + p.stderr
    samples, rate = decoded(out / "explainer.mp4")
    voiced = samples[np.abs(samples) > 0.05]
    assert len(voiced) > rate and abs(pitch(samples, rate) - TONE) < 15
    with av.open(str(out / "explainer.mp4")) as c:
        assert c.streams.audio[0].codec_context.name == "aac"
