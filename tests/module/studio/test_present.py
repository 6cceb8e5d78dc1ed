"""The studio's Present button: the stepped deck of the page's sentence, opened in a window."""

from __future__ import annotations

import pytest

from slides.formats import files
from tests.support.browser import wait_for

from .page import loopback_chromium, open_studio, type_sentence
from .support import running_studio

pytestmark = pytest.mark.slow

SENTENCE = "the dog saw it"


def test_present_opens_the_stepped_deck_of_the_sentence(tmp_path):
    from selenium.webdriver.common.by import By

    with running_studio(tmp_path, lang="en") as server, loopback_chromium() as d:
        open_studio(d, server)
        type_sentence(d, SENTENCE)
        wait_for(d, f"return document.body.dataset.shown === {SENTENCE!r}", timeout=30)
        d.execute_script("const q = document.getElementById('quality');"
                         "q.append(new Option('tiny', 'tiny')); q.value = 'tiny';")
        d.find_element(By.ID, "only").send_keys("3")
        studio = d.current_window_handle
        d.find_element(By.ID, "present").click()
        wait_for(d, "return document.getElementById('progress').dataset.done", timeout=300, every=0.5)
        assert d.execute_script("return document.getElementById('progress').dataset.done") == "0"
        # the outputs listed are every format's file (slides.formats' table, through api/state)
        links = d.execute_script("return [...document.querySelectorAll('#outputs a')].map((a) => a.href)")
        assert [u.split("/files/", 1)[1] for u in links] == files()
        (deck,) = [h for h in d.window_handles if h != studio]
        d.switch_to.window(deck)
        wait_for(d, "return location.pathname.endsWith('/files/slides/index.html') && !!window.Reveal"
                    " && Reveal.isReady()", timeout=30)
        assert SENTENCE in d.execute_script("return document.querySelector('.sentence').textContent")
        # section 3, a stop per beat: a video per beat and a fragment per beat after the first
        beats = d.execute_script("return document.querySelector('section.stepped').dataset.beats")
        assert int(beats) >= 2
        assert d.execute_script("return document.querySelectorAll('section.stepped video.beat').length") == int(beats)
        assert (tmp_path / "slides" / "index.html").is_file()
