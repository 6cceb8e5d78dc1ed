"""The studio's page end to end in headless Chromium (selenium), against its real server."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from urllib.parse import urlsplit

import pytest

from tests.support import ROOT
from tests.support.browser import wait_for

from .page import loopback_chromium, open_studio, type_sentence
from .support import running_studio

pytestmark = pytest.mark.slow

SENTENCE = "the cat sat on the mat because it was warm"
FIRST_CUE = "return document.querySelector('.cue .text')?.innerText"
SHOWN = "return document.body.dataset.shown === " + repr(SENTENCE)


def test_type_see_the_script_fix_a_word_and_nothing_leaves_the_machine(tmp_path):
    with running_studio(tmp_path, lang="en") as server, loopback_chromium() as d:
        open_studio(d, server)
        type_sentence(d, SENTENCE)
        wait_for(d, SHOWN, timeout=30)
        assert d.execute_script(FIRST_CUE + ".includes('because')")
        type_sentence(d, "cat")
        error = wait_for(d, "const e = document.getElementById('error'); return !e.hidden && e.textContent",
                         timeout=30)
        cli = subprocess.run([sys.executable, "render.py", "figures", "--sentence", "cat"], cwd=ROOT,
                             capture_output=True, text=True)
        assert cli.returncode == 2 and cli.stderr.strip() == f"render.py: error: {error}"
        type_sentence(d, SENTENCE)
        wait_for(d, "return document.getElementById('error').hidden", timeout=30)
        wait_for(d, SHOWN, timeout=30)
        # a cue of section 3 rewritten in place, then left: saved as a captions file
        cue = d.execute_script("""
            const row = [...document.querySelectorAll('.cue')].find((c) => c.dataset.id.startsWith('03-'));
            const text = row.querySelector('.text');
            text.focus();
            text.innerText = 'The lecturer says it in their own words.';
            text.dispatchEvent(new Event('input'));
            return row.dataset.id;""")
        pace = wait_for(d, f"const p = document.querySelector('.cue[data-id=\"{cue}\"] .pace'); "
                           "return p?.textContent.includes('chars/s') && p.textContent",
                        timeout=20)
        assert "≤ 15" in pace
        d.execute_script("document.activeElement.blur()")
        saved = tmp_path / "captions.toml"
        wait_for(d, f"return document.querySelector('.cue[data-id=\"{cue}\"] .text')?.innerText"
                    ".includes('own words')", timeout=20)
        wait_for(d, f"return document.querySelector('.cue[data-id=\"{cue}\"] .pace')?.textContent.endsWith(' s')",
                 timeout=20)  # the page showed the script again, with the saved words
        with open(saved, "rb") as f:
            beat = cue[3:].rsplit("-", 1)[0]
            assert tomllib.load(f)["en"]["s03"][beat] == "The lecturer says it in their own words."
        script = subprocess.run([sys.executable, "render.py", "script", "--json", "--lang", "en", "--sections", "3",
                                 "--sentence", SENTENCE, "--captions-file", str(saved)],
                                cwd=ROOT, capture_output=True, text=True, check=True)
        assert "The lecturer says it in their own words." in [c["text"] for c in json.loads(script.stdout)]
        # every request went to the loopback server, under the session's token
        from tests.support.browser import page_requests

        origin = server.url.rsplit("/", 2)[0]
        asked = page_requests(d, server.url)
        assert asked and all(u.startswith(origin + "/" + server.token + "/") or u.startswith(("blob:", "data:"))
                             for u in asked), asked
        assert server.requests and all(urlsplit(p).path.startswith(f"/{server.token}/") for p in server.requests)


def test_render_two_sections_from_the_page_then_cancel_and_keep_the_outputs(tmp_path):
    """From the page alone: two sections rendered into the explainer (the lowest quality the
    pipeline has, put into the page's list by the test), then a cancelled render."""
    import hashlib

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    def digests() -> dict:
        files = [tmp_path / "explainer.mp4", *sorted((tmp_path / "clips").glob("*.mp4"))]
        return {f.name: hashlib.sha256(f.read_bytes()).hexdigest() for f in files}

    with running_studio(tmp_path, lang="en") as server, loopback_chromium() as d:
        open_studio(d, server)
        type_sentence(d, "the cat sat on the mat")
        wait_for(d, "return document.body.dataset.shown === 'the cat sat on the mat'", timeout=30)
        d.execute_script("const q = document.getElementById('quality');"
                         "q.append(new Option('tiny', 'tiny')); q.value = 'tiny';")
        d.find_element(By.ID, "only").send_keys("1,3")
        d.find_element(By.ID, "render-explainer").click()
        wait_for(d, "return document.getElementById('progress').dataset.done", timeout=300, every=0.5)
        assert d.execute_script("return document.getElementById('progress').dataset.done") == "0"
        bars = d.execute_script("return [...document.querySelectorAll('#progress .prow')]"
                                ".map((r) => [r.dataset.stem, r.querySelector('.st').textContent])")
        assert bars == [["01-three-projections", "rendered"], ["03-which-key", "rendered"]]
        links = d.execute_script("return [...document.querySelectorAll('#outputs a')].map((a) => a.href)")
        assert any(u.endswith("files/explainer.mp4") for u in links)
        assert {p.name for p in (tmp_path / "clips").glob("*.mp4")} == {"01-three-projections.mp4", "03-which-key.mp4"}
        before = digests()
        # the other theme, cancelled while its first section renders
        Select(d.find_element(By.ID, "theme")).select_by_value("light")
        d.execute_script("document.getElementById('progress').dataset.done = ''")
        d.find_element(By.ID, "render-explainer").click()
        wait_for(d, "return [...document.querySelectorAll('#progress .st')].some((s) => s.textContent === '…')",
                 timeout=120)
        d.find_element(By.ID, "cancel").click()
        assert wait_for(d, "return document.getElementById('progress').dataset.done", timeout=120) == "cancelled"
        assert digests() == before
        said = "return document.querySelector('#outputs li').textContent"
        assert d.execute_script(said) == "cancelled: the previous outputs are as they were"
        # the page's own status lines follow its language
        Select(d.find_element(By.ID, "lang")).select_by_value("ja")
        assert d.execute_script("return message('kept')") == "中止しました：これまでの書き出しはそのままです"
