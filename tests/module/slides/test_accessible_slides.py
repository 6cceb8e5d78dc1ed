"""The slide outputs' accessibility, read back by the clients a lecturer and a screen reader
use: the HTML deck's caption tracks and keys in headless Chromium, the PowerPoint movies'
alt text through python-pptx and LibreOffice, the handout's language, title and text through
pypdf and poppler.

The three fixture sections (tests/fixtures) render at the hidden ``tiny`` quality in Japanese
with ``--captions srt`` (soft captions only, so the caption language's track is on by
default), as the deck of one clip per section (``--step sections``), whose keys these tests
press; the stepped deck (the default) writes the same tracks and labels per beat, read back
here only through its HTML in ``test_stepped_deck.py``'s stepping. Expected texts come from the fixture caption tables, not from the code under test.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import zipfile

import pytest

from tests.support import FIXTURES, ROOT, TESTS

ARTIFACTS = TESTS / "_artifacts" / "accessible-slides"
sys.path.insert(0, str(ROOT))

PKG = "fxa11y"
KEYS = ["s01", "s02", "s03"]
TITLES = {"ja": ["アルファ", "ベータ", "ガンマ"], "en": ["Alpha", "Beta", "Gamma"]}

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("accessible-slides")]


def table(lang: str) -> dict:
    with open(FIXTURES / "assets" / "captions" / f"{lang}.toml", "rb") as f:
        return tomllib.load(f)


def alt_texts(lang: str) -> list[str]:
    """What each movie's alt text must say: the title and the summary, as the tables have them."""
    join = {"ja": "。", "en": ". "}[lang]
    return [f"{title}{join}{table(lang)['summaries'][key]}" for title, key in zip(TITLES[lang], KEYS)]


@pytest.fixture(scope="module")
def deck(tmp_path_factory):
    base = tmp_path_factory.mktemp("a11y")
    shutil.copytree(FIXTURES, base / PKG, ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "ATTN_REGISTRY": f"{PKG}.registry",
           "PYTHONPATH": os.pathsep.join([str(base), str(ROOT)])}
    for k in ("ATTN_LANG", "ATTN_THEME", "ATTN_CAPTIONS", "ATTN_HEAD", "ATTN_FIXTURE_FAIL"):
        env.pop(k, None)
    p = subprocess.run([sys.executable, str(ROOT / "render.py"), "slides", "--quality", "tiny", "--lang", "ja",
                        "--captions", "srt", "--jobs", "2", "--step", "sections", "--out", str(base / "out")],
                       env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    return base / "out" / "slides"


# ----------------------------------------------------------------------------- Chromium

VIDEO = "Reveal.getCurrentSlide().querySelector('video')"


def tracks(d) -> list[list]:
    return d.execute_script(f"return [...{VIDEO}.textTracks].map(t => [t.kind, t.language, t.mode])")


def active_cue_text(d, lang: str) -> str:
    """Seek the (paused) clip into its first cue in ``lang`` and read the track's active cue."""
    from tests.support.browser import wait_for

    wait_for(d, f"""const t = [...{VIDEO}.textTracks].find(t => t.language === '{lang}');
        return t.cues && t.cues.length > 0;""")   # a track switched on loads its cues first
    d.execute_script(f"""const v = {VIDEO};
        const t = [...v.textTracks].find(t => t.language === '{lang}');
        v.currentTime = (t.cues[0].startTime + t.cues[0].endTime) / 2;""")
    return wait_for(d, f"""const t = [...{VIDEO}.textTracks].find(t => t.language === '{lang}');
        return t.activeCues && t.activeCues.length ? t.activeCues[0].text : null;""")


def test_chromium_caption_tracks_switch_language_from_the_keyboard(deck):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from tests.support.browser import offline_chromium, open_deck, wait_for

    first_lines = {lang: [table(lang)[k]["lines"][0] for k in KEYS] for lang in ("ja", "en")}
    with offline_chromium() as d:
        open_deck(d, deck / "index.html")
        body = d.find_element(By.TAG_NAME, "body")
        for i in range(1, 4):
            body.send_keys(Keys.ARROW_RIGHT)
            wait_for(d, f"return Reveal.getIndices().h === {i}")
            wait_for(d, f"return {VIDEO}.readyState >= 2")
            # a captions track per language, the caption language first and on by default
            got = tracks(d)
            assert [t[:2] for t in got] == [["captions", "ja"], ["captions", "en"]]
            if i == 1:
                assert [t[2] for t in got] == ["showing", "disabled"]
            d.execute_script(f"{VIDEO}.pause()")
            assert active_cue_text(d, "ja") == first_lines["ja"][i - 1]
            body.send_keys("c")                      # the next language
            assert [t[2] for t in tracks(d)] == ["disabled", "showing"]
            assert active_cue_text(d, "en") == first_lines["en"][i - 1]
            if i == 2:
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                d.save_screenshot(str(ARTIFACTS / "english-captions.png"))
            body.send_keys("c")                      # off
            assert [t[2] for t in tracks(d)] == ["disabled", "disabled"]
            body.send_keys("c")                      # back to the caption language
            assert [t[2] for t in tracks(d)] == ["showing", "disabled"]


def test_chromium_pause_and_replay_from_the_keyboard(deck):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from tests.support.browser import offline_chromium, open_deck, wait_for

    with offline_chromium() as d:
        open_deck(d, deck / "index.html")
        body = d.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.ARROW_RIGHT)
        wait_for(d, "return Reveal.getIndices().h === 1")
        wait_for(d, f"const v = {VIDEO}; return v.ended || v.currentTime > 0.2", timeout=10)
        body.send_keys("r")                          # replay: from the start, playing
        assert d.execute_script(f"return {VIDEO}.currentTime") < 0.2
        wait_for(d, f"return !{VIDEO}.paused")
        body.send_keys("k")                          # pause
        wait_for(d, f"return {VIDEO}.paused")
        held = d.execute_script(f"return {VIDEO}.currentTime")
        d.execute_script("return new Promise(r => setTimeout(r, 300))")
        assert d.execute_script(f"return {VIDEO}.currentTime") == held
        body.send_keys("k")                          # play again
        wait_for(d, f"return !{VIDEO}.paused")
        # the keys are listed in reveal's help overlay
        body.send_keys("?")
        help_text = wait_for(d, "const o = document.querySelector('.r-overlay-help');"
                                "return o ? o.textContent : null")
        for word in ("クリップを一時停止／再生", "クリップを最初から再生", "字幕：次の言語、またはオフ"):
            assert word in help_text


def test_burned_captions_leave_the_tracks_off_until_asked(deck, tmp_path):
    """With the captions burned into the clips the tracks start off; C first shows the other language."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from pipeline.files import atomic_write, publish
    from slides.deck import Deck, SectionSlide
    from slides.html_deck import write_html
    from tests.support.browser import offline_chromium, open_deck, wait_for

    clip = next((deck / "media").glob("01-*.mp4"))
    store = deck.parent / ".cache" / "store" / "01-alpha"
    key = clip.name.split(".")[1]
    (vtt_ja,) = store.glob(f"{key}*.ja.vtt")
    (vtt_en,) = store.glob(f"{key}*.en.vtt")
    slide = SectionSlide(1, "01-alpha", "アルファ", clip, clip.with_suffix(".png"), "n", key, 1.0,
                         subtitles=(("ja", vtt_ja), ("en", vtt_en)))
    folder = tmp_path / "burned"
    atomic_write(folder / "index.html", write_html(Deck("t", "s", "ja", sections=(slide,), captions_burned=True),
                                                   folder, publish))
    with offline_chromium() as d:
        open_deck(d, folder / "index.html")
        body = d.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.ARROW_RIGHT)
        wait_for(d, "return Reveal.getIndices().h === 1")
        assert [t[2] for t in tracks(d)] == ["disabled", "disabled"]
        body.send_keys("c")
        assert [t[1:] for t in tracks(d)] == [["ja", "disabled"], ["en", "showing"]]


# ----------------------------------------------------------------------------- PowerPoint


def test_pptx_movies_carry_alt_text(deck):
    from pptx import Presentation
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    prs = Presentation(str(deck / "explainer.pptx"))
    got = []
    for slide in list(prs.slides)[1:]:
        (movie,) = [s for s in slide.shapes if s.shape_type == MSO_SHAPE_TYPE.MEDIA]
        got.append(movie._element.xpath("./p:nvPicPr/p:cNvPr/@descr")[0])
    assert got == alt_texts("ja")


def test_libreoffice_reads_the_alt_text_back(deck, tmp_path):
    """LibreOffice converts the deck to ODP: each movie's frame has the alt text as its svg:desc."""
    from lxml import etree

    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    assert soffice, "LibreOffice is not installed (bash scripts/bootstrap.sh --test)"
    subprocess.run([soffice, f"-env:UserInstallation={(tmp_path / 'lo-profile').as_uri()}", "--headless",
                    "--norestore", "--convert-to", "odp", "--outdir", str(tmp_path), str(deck / "explainer.pptx")],
                   check=True, capture_output=True, timeout=300, env={**os.environ, "HOME": str(tmp_path)})
    with zipfile.ZipFile(tmp_path / "explainer.odp") as z:
        content = etree.fromstring(z.read("content.xml"))
    ns = {"draw": "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0",
          "svg": "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"}
    frames = content.xpath("//draw:frame[draw:plugin]", namespaces=ns)
    assert [f.xpath("string(svg:desc)", namespaces=ns) for f in frames] == alt_texts("ja")


# ----------------------------------------------------------------------------- the handout


def test_handout_declares_language_and_title_and_its_text_is_selectable(deck):
    from pypdf import PdfReader

    reader = PdfReader(str(deck / "handout.pdf"))
    root = reader.trailer["/Root"]
    assert root["/Lang"] == "ja"
    assert reader.metadata.title == "セルフアテンション"
    assert bool(root["/ViewerPreferences"]["/DisplayDocTitle"])   # viewers show the title, not the file name
    for i, title in enumerate(TITLES["ja"]):
        # the text layer, as poppler extracts it (selectable text, not a picture of it)
        text = subprocess.run(["pdftotext", "-f", str(i + 1), "-l", str(i + 1), "-enc", "UTF-8",
                               str(deck / "handout.pdf"), "-"], check=True, capture_output=True, text=True).stdout
        assert title in text and table("ja")[KEYS[i]]["lines"][0] in text


def test_handout_stills_carry_alt_text(deck):
    """The handout is tagged: each still is a Figure whose /Alt is the section's alt text."""
    from pypdf import PdfReader

    reader = PdfReader(str(deck / "handout.pdf"))
    root = reader.trailer["/Root"]
    assert bool(root["/MarkInfo"]["/Marked"])

    def figures(node):
        node = node.get_object()
        if isinstance(node, dict):
            if node.get("/S") == "/Figure":
                yield str(node.get("/Alt"))
            kids = node.get("/K")
            for kid in (kids if isinstance(kids, list) else [kids] if kids is not None else []):
                yield from figures(kid)

    assert list(figures(root["/StructTreeRoot"])) == alt_texts("ja")
