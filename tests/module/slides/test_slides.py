"""``render.py slides`` end to end, checked in the clients a lecturer uses.

The three fixture sections (tests/fixtures) render at the hidden ``tiny`` quality (128x72,
5 fps); the deck is then opened by python-pptx, converted by LibreOffice, played by headless
Chromium offline, and the handout read back with pypdf. The expected speaker notes come from
the fixture caption tables, not from the code under test. These tests need LibreOffice,
Chromium, chromium-driver and poppler-utils: ``bash scripts/dev.sh test`` installs them
(``scripts/bootstrap.sh --test``); a missing one fails the test, it is never skipped.
"""

from __future__ import annotations

import collections
import io
import os
import shutil
import subprocess
import sys
import time
import tomllib
import zipfile
from pathlib import Path

import av
import numpy as np
import pytest
from PIL import Image

from tests.support import FIXTURES, ROOT, TESTS

ARTIFACTS = TESTS / "_artifacts" / "slides"
sys.path.insert(0, str(ROOT))

PKG = "fxslides"
TITLES = {"en": ["Alpha", "Beta", "Gamma"], "ja": ["アルファ", "ベータ", "ガンマ"]}
KEYS = ["s01", "s02", "s03"]
SENTENCE = "the cat ate and it ran"   # the default head's sentence
NS = {"p": "http://schemas.openxmlformats.org/presentationml/2006/main"}
OUTPUTS = ("explainer.pptx", "index.html", "handout.pdf")

# One xdist worker runs this module: the deck (a cold slides run, LibreOffice and all) is a
# module fixture, built once; spread over two workers it would be built on each.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("slides")]


def copy_project(base: Path) -> Path:
    shutil.copytree(FIXTURES, base / PKG, ignore=shutil.ignore_patterns("__pycache__"))
    return base


def run(project: Path, *args: str, check_rc: int | None = 0, fail: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "ATTN_REGISTRY": f"{PKG}.registry",
           "PYTHONPATH": os.pathsep.join([str(project), str(ROOT)])}
    for k in ("ATTN_LANG", "ATTN_THEME", "ATTN_CAPTIONS", "ATTN_HEAD", "ATTN_FIXTURE_FAIL"):
        env.pop(k, None)
    if fail:
        env["ATTN_FIXTURE_FAIL"] = fail   # the fixture scene of that name raises
    step = () if "--step" in args else ("--step", "sections")   # this module: a slide per section
    p = subprocess.run([sys.executable, str(ROOT / "render.py"), "slides", *step, *args], env=env,
                       capture_output=True, text=True, timeout=600)
    if check_rc is not None:
        assert p.returncode == check_rc, p.stdout + p.stderr
    return p


def script(project: Path, lang: str) -> list[str]:
    """Each section's caption script, from the fixture caption table (independent of the code)."""
    with open(project / PKG / "assets" / "captions" / f"{lang}.toml", "rb") as f:
        table = tomllib.load(f)
    return ["\n".join(table[k]["lines"]) for k in KEYS]


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return copy_project(tmp_path_factory.mktemp("slides"))


@pytest.fixture(scope="module")
def deck(project):
    """A cold ``slides`` run of the three fixture sections, in English."""
    p = run(project, "--quality", "tiny", "--lang", "en", "--jobs", "2", "--out", str(project / "out"))
    assert "3 rendered" in p.stderr
    return project / "out" / "slides"


def drawn_share(img: np.ndarray) -> float:
    """Share of pixels that differ clearly from the image's dominant (median) colour."""
    median = np.median(img.reshape(-1, 3), axis=0)
    return float((np.abs(img - median).max(axis=2) > 20).mean())


def pdf_text(pdf: Path, page: int) -> str:
    """Text of one page (1-based) as poppler's pdftotext reads it (pypdf 7 misreads fpdf2's
    embedded Identity-UCS CMap and returns NUL-interleaved text)."""
    return subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), "-enc", "UTF-8", str(pdf), "-"],
                          check=True, capture_output=True, text=True).stdout


def last_frame(data: bytes) -> np.ndarray:
    with av.open(io.BytesIO(data)) as c:
        frame = collections.deque(c.decode(video=0), maxlen=1)[0]
    return np.asarray(frame.to_image().convert("RGB"), dtype=float)


# ----------------------------------------------------------------------------- python-pptx


def movies(slide):
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    return [s for s in slide.shapes if s.shape_type == MSO_SHAPE_TYPE.MEDIA]


def test_pptx_reopens_with_a_movie_poster_and_notes_per_section(project, deck):
    from pptx import Presentation

    prs = Presentation(str(deck / "explainer.pptx"))
    assert abs(prs.slide_width / prs.slide_height - 16 / 9) < 0.01
    slides = list(prs.slides)
    assert len(slides) == 3 + 1
    title_text = " ".join(s.text_frame.text for s in slides[0].shapes if s.has_text_frame)
    assert "Self-attention" in title_text and SENTENCE in title_text and "English" in title_text
    assert not movies(slides[0])
    for slide, title, notes in zip(slides[1:], TITLES["en"], script(project, "en")):
        texts = [s.text_frame.text for s in slide.shapes if s.has_text_frame]
        assert any(title in t for t in texts)
        (movie,) = movies(slide)
        (media,) = {r.target_part for r in slide.part.rels.values()
                     if r.reltype.endswith("/media") and not r.is_external}
        assert media.content_type == "video/mp4"
        # the clip is embedded (not linked), and its poster is the clip's end state (the fixture
        # clips have no closing fade: their last frame)
        assert not any(r.is_external for r in slide.part.rels.values())
        poster = np.asarray(Image.open(io.BytesIO(movie.poster_frame.blob)).convert("RGB"), dtype=float)
        frame = last_frame(media.blob)
        assert poster.shape == frame.shape and np.abs(poster - frame).mean() < 2.0
        assert drawn_share(poster) > 0.002  # not a blank frame
        assert slide.has_notes_slide and slide.notes_slide.notes_text_frame.text == notes


def test_pptx_movies_play_automatically_once(deck):
    """The slide timing PowerPoint writes for "Start: Automatically", without a loop."""
    from lxml import etree
    from pptx import Presentation

    path = deck / "explainer.pptx"
    prs = Presentation(str(path))
    with zipfile.ZipFile(path) as z:   # the XML as stored, parsed by plain lxml
        xml = {n: z.read(n) for n in z.namelist()}
    for slide in list(prs.slides)[1:]:
        (movie,) = movies(slide)
        spid = str(movie.shape_id)
        sld = etree.fromstring(xml[str(slide.part.partname).lstrip("/")])
        (timing,) = sld.xpath("p:timing", namespaces=NS)
        (call,) = timing.xpath(".//p:cmd[@type='call'][@cmd='playFrom(0.0)']", namespaces=NS)
        assert call.xpath(".//p:spTgt/@spid", namespaces=NS) == [spid]
        (effect,) = call.xpath("ancestor::p:cTn[@presetClass='mediacall']", namespaces=NS)
        assert effect.get("nodeType") == "afterEffect"   # not "clickEffect"
        (main,) = timing.xpath(".//p:cTn[@nodeType='mainSeq']", namespaces=NS)
        # the effect's group starts when the main sequence begins (slide entry), not on a click
        starts = main.xpath(".//p:par/p:cTn/p:stCondLst/p:cond[@evt='onBegin']/p:tn/@val", namespaces=NS)
        assert starts == [main.get("id")]
        (node,) = timing.xpath(".//p:video/p:cMediaNode", namespaces=NS)
        assert node.xpath("p:tgtEl/p:spTgt/@spid", namespaces=NS) == [spid]
        assert node.xpath("p:cTn/@repeatCount", namespaces=NS) == []   # no loop


def test_pptx_stores_a_clip_used_twice_once(deck, tmp_path):
    from slides.deck import Deck, SectionSlide
    from slides.pptx_deck import write_pptx

    clip = next((deck / "media").glob("*.mp4"))
    poster = clip.with_suffix(".png")
    same = [SectionSlide(n, f"0{n}-x", f"T{n}", clip, poster, "n", "k", 1.0) for n in (1, 2)]
    out = write_pptx(Deck("t", "s", "en", sections=tuple(same)), tmp_path / "twice.pptx")
    with zipfile.ZipFile(out) as z:
        mp4s = [n for n in z.namelist() if n.endswith(".mp4")]
    assert len(mp4s) == 1


# ----------------------------------------------------------------------------- LibreOffice


def test_libreoffice_converts_the_deck_with_posters(deck, tmp_path):
    from pptx import Presentation
    from pypdf import PdfReader

    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    assert soffice, "LibreOffice is not installed (bash scripts/bootstrap.sh --test)"
    profile = (tmp_path / "lo-profile").as_uri()
    subprocess.run([soffice, f"-env:UserInstallation={profile}", "--headless", "--norestore",
                    "--convert-to", "pdf", "--outdir", str(tmp_path), str(deck / "explainer.pptx")],
                   check=True, capture_output=True, timeout=300, env={**os.environ, "HOME": str(tmp_path)})
    pdf = tmp_path / "explainer.pdf"
    assert len(PdfReader(str(pdf)).pages) == 3 + 1
    subprocess.run(["pdftoppm", "-r", "60", "-png", str(pdf), str(tmp_path / "page")], check=True)
    pages = sorted(tmp_path.glob("page-*.png"))
    prs = Presentation(str(deck / "explainer.pptx"))
    for page, slide in zip(pages[1:], list(prs.slides)[1:]):
        img = np.asarray(Image.open(page).convert("RGB"), dtype=float)
        h, w = img.shape[:2]
        (movie,) = movies(slide)
        box = [round(v) for v in (movie.left / prs.slide_width * w, movie.top / prs.slide_height * h,
                                  (movie.left + movie.width) / prs.slide_width * w,
                                  (movie.top + movie.height) / prs.slide_height * h)]
        shown = img[box[1]:box[3], box[0]:box[2]]
        assert drawn_share(shown) > 0.002, f"{page.name}: the movie's area is blank"
        poster = Image.open(io.BytesIO(movie.poster_frame.blob)).convert("RGB")
        poster = np.asarray(poster.resize((shown.shape[1], shown.shape[0])), dtype=float)
        background = np.full_like(shown, shown.reshape(-1, 3).mean(axis=0))
        # the page shows the poster: far closer to it than to a flat fill of the same mean
        assert np.abs(shown - poster).mean() < 0.5 * np.abs(background - poster).mean()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for page in pages:
        shutil.copy(page, ARTIFACTS / f"libreoffice-{page.name}")


# ----------------------------------------------------------------------------- Chromium


def test_chromium_plays_every_clip_offline(project, deck):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from tests.support.browser import LOCAL_SCHEMES, offline_chromium, open_deck, page_requests, wait_for

    page = deck / "index.html"
    notes = script(project, "en")
    with offline_chromium() as d:
        url = open_deck(d, page)
        assert d.execute_script("return Reveal.getTotalSlides()") == 3 + 1
        assert d.execute_script("return document.querySelector('.slides section h1').textContent") == "Self-attention"
        body = d.find_element(By.TAG_NAME, "body")
        for i in range(1, 4):
            body.send_keys(Keys.ARROW_RIGHT)
            wait_for(d, f"return Reveal.getIndices().h === {i}")
            video = "Reveal.getCurrentSlide().querySelector('video')"
            # loaded: metadata and a decoded frame of the 128x72 clip, no media error
            assert wait_for(d, f"const v = {video}; return v.readyState >= 2 && v.videoWidth") == 128
            assert d.execute_script(f"return {video}.error") is None
            # playing by itself: currentTime moves forward
            t0 = d.execute_script(f"return {video}.currentTime")
            wait_for(d, f"const v = {video}; return v.currentTime > {t0} || v.ended", timeout=10)
            assert d.execute_script(f"return {video}.currentTime") > 0
            assert d.execute_script(f"return {video}.muted") is True   # no narration: muted autoplay
            got = d.execute_script("return Reveal.getSlideNotes()")
            assert [line.strip() for line in got.split("<br>")] == notes[i - 1].split("\n")
            assert TITLES["en"][i - 1] in d.execute_script("return Reveal.getCurrentSlide().querySelector('h3').textContent")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        d.save_screenshot(str(ARTIFACTS / "reveal-last-slide.png"))
        requests = page_requests(d, url)
    assert any(u.endswith(".mp4") for u in requests) and any("reveal.js" in u for u in requests)
    remote = [u for u in requests if not u.startswith(LOCAL_SCHEMES)]
    assert remote == []


# ----------------------------------------------------------------------------- handout


def test_handout_has_one_page_per_section(project, deck):
    from pypdf import PdfReader

    reader = PdfReader(str(deck / "handout.pdf"))
    assert len(reader.pages) == 3
    for i, (page, title, notes) in enumerate(zip(reader.pages, TITLES["en"], script(project, "en")), 1):
        text = pdf_text(deck / "handout.pdf", i)
        assert title in text and all(line in text for line in notes.split("\n"))
        assert page.images, "the section's still is on its page"


def test_japanese_deck_and_handout(project):
    """Japanese titles and notes survive into the pptx and the handout (CJK font embedded)."""
    from pptx import Presentation
    from pypdf import PdfReader

    out = project / "out-ja"
    run(project, "--quality", "tiny", "--lang", "ja", "--theme", "light", "--format", "pdf,pptx",
        "--jobs", "2", "--out", str(out))
    assert not (out / "slides" / "index.html").exists()
    reader = PdfReader(str(out / "slides" / "handout.pdf"))
    assert len(reader.pages) == 3
    for i, (title, notes) in enumerate(zip(TITLES["ja"], script(project, "ja")), 1):
        text = pdf_text(out / "slides" / "handout.pdf", i)
        assert title in text and all(line in text for line in notes.split("\n"))
    fonts = {str(f["/BaseFont"]) for p in reader.pages for f in p["/Resources"]["/Font"].values()}
    assert any("NotoSansCJK" in f for f in fonts), fonts
    prs = Presentation(str(out / "slides" / "explainer.pptx"))
    title_text = " ".join(s.text_frame.text for s in list(prs.slides)[0].shapes if s.has_text_frame)
    assert "セルフアテンション" in title_text and "日本語" in title_text
    for slide, notes in zip(list(prs.slides)[1:], script(project, "ja")):
        assert slide.notes_slide.notes_text_frame.text == notes
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    subprocess.run(["pdftoppm", "-r", "40", "-png", str(out / "slides" / "handout.pdf"),
                    str(ARTIFACTS / "handout-ja")], check=True)


# ----------------------------------------------------------------------------- the command


def stat_outputs(folder: Path) -> dict:
    files = [folder / n for n in OUTPUTS] + sorted((folder / "media").iterdir())
    return {f.name: (f.stat().st_ino, f.stat().st_mtime_ns) for f in files}


def test_second_run_rewrites_nothing(project, deck):
    before = stat_outputs(deck)
    p = run(project, "--quality", "tiny", "--lang", "en", "--out", str(project / "out"))
    assert "0 rendered, 3 cached" in p.stderr
    assert p.stderr.count("unchanged") == 3 and "written" not in p.stderr
    assert stat_outputs(deck) == before


def test_a_deleted_clip_beside_the_page_is_put_back(project, deck):
    clip = sorted((deck / "media").glob("*.mp4"))[1]
    clip.unlink()
    p = run(project, "--quality", "tiny", "--lang", "en", "--out", str(project / "out"))
    assert "index.html written" in p.stderr and p.stderr.count("unchanged") == 2
    assert clip.is_file()


@pytest.mark.parametrize("args, says", [
    (["--format", "pptx,docx"], "--format"),
    (["--sections", "9"], "9"),
    (["--captions", "none"], "captions"),
    (["--quality", "8k"], "quality"),
    (["--sentence", "a"], "token"),
])
def test_bad_options_exit_2_before_anything(project, tmp_path, args, says):
    out = tmp_path / "never"
    p = run(project, "--quality", "tiny", *args, "--out", str(out), check_rc=2)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], p.stderr
    assert not out.exists()


def test_missing_reveal_is_bad_input_and_keeps_the_deck(project, deck, tmp_path):
    before = stat_outputs(deck)
    env_dir = os.environ.get("ATTN_REVEAL_DIR")
    os.environ["ATTN_REVEAL_DIR"] = str(tmp_path / "no-reveal")
    try:
        p = run(project, "--quality", "tiny", "--lang", "en", "--out", str(project / "out"), check_rc=2)
    finally:
        if env_dir is None:
            os.environ.pop("ATTN_REVEAL_DIR")
        else:
            os.environ["ATTN_REVEAL_DIR"] = env_dir
    assert "reveal.js" in p.stderr and "ATTN_REVEAL_DIR" in p.stderr
    assert stat_outputs(deck) == before


def test_caption_change_updates_notes_and_rewrites_the_deck(tmp_path):
    from pptx import Presentation

    proj = copy_project(tmp_path)
    args = ("--quality", "tiny", "--lang", "en", "--format", "pptx,pdf", "--jobs", "2",
            "--out", str(proj / "out"))
    run(proj, *args)
    pptx = proj / "out" / "slides" / "explainer.pptx"
    first = pptx.stat().st_mtime_ns
    table = proj / PKG / "assets" / "captions" / "en.toml"
    table.write_text(table.read_text(encoding="utf-8").replace('"second"', '"second, revised"'),
                     encoding="utf-8")
    time.sleep(0.01)
    p = run(proj, *args)
    assert "1 rendered, 2 cached" in p.stderr and p.stderr.count("written") == 2
    assert pptx.stat().st_mtime_ns != first
    notes = Presentation(str(pptx)).slides[2].notes_slide.notes_text_frame.text
    assert notes == "beta\nsecond, revised"


def test_interrupted_run_keeps_the_previous_deck_and_resumes(project, deck):
    """Ctrl-C while a section renders: the deck on disk stays as it was; the next run resumes."""
    import signal

    before = stat_outputs(deck)
    store = project / "out" / ".cache" / "store" / "01-alpha"
    metas_before = set(store.glob("*.json"))
    env = {**os.environ, "ATTN_REGISTRY": f"{PKG}.registry",
           "PYTHONPATH": os.pathsep.join([str(project), str(ROOT)])}
    args = ["--quality", "tiny", "--lang", "en", "--theme", "light", "--out", str(project / "out")]
    proc = subprocess.Popen([sys.executable, str(ROOT / "render.py"), "slides", *args, "--jobs", "1"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while set(store.glob("*.json")) == metas_before and proc.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)   # section 1 is rendered, section 2 is rendering
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert stat_outputs(deck) == before
    assert [p for p in deck.rglob("*") if ".tmp" in p.name] == []
    p = run(project, *args)
    assert "3 cached" not in p.stderr and p.stderr.count("written") == 3
    assert "1 cached" in p.stderr or "2 cached" in p.stderr


def make_narrated_clip(path: Path, seconds: float = 3.0) -> Path:
    """A small H.264 + AAC clip (a moving bar and a tone), as a narrated render would have."""
    with av.open(str(path), "w") as c:
        v = c.add_stream("libx264", rate=10)
        v.width, v.height, v.pix_fmt = 128, 72, "yuv420p"
        a = c.add_stream("aac", rate=48000)
        for i in range(int(seconds * 10)):
            img = np.zeros((72, 128, 3), np.uint8)
            img[20:50, (i * 4) % 120:(i * 4) % 120 + 8] = 255
            c.mux(v.encode(av.VideoFrame.from_ndarray(img, format="rgb24")))
        t = np.arange(int(seconds * 48000)) / 48000
        tone = (0.2 * np.sin(2 * np.pi * 440 * t)).astype(np.float32)
        for start in range(0, len(tone), 1024):
            frame = av.AudioFrame.from_ndarray(tone[None, start:start + 1024], format="fltp", layout="mono")
            frame.sample_rate, frame.pts = 48000, start
            c.mux(a.encode(frame))
        c.mux(v.encode())
        c.mux(a.encode())
    return path


def test_chromium_plays_a_narrated_clip_with_sound_after_the_title_slide(tmp_path):
    """Narrated clips are not muted; the keypress that leaves the title slide lets them play."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from pipeline.files import atomic_write, publish
    from pipeline.poster import end_state_png
    from slides.build import _has_audio
    from slides.deck import Deck, SectionSlide
    from slides.html_deck import write_html
    from tests.support.browser import offline_chromium, open_deck, wait_for

    clip = make_narrated_clip(tmp_path / "voiced.mp4")
    assert _has_audio(clip)
    poster = end_state_png(clip, tmp_path / "voiced.png")
    deck = Deck("Self-attention", SENTENCE, "en", narrated=True,
                sections=(SectionSlide(1, "01-voiced", "Voiced", clip, poster, "a line", "k" * 12, 3.0),))
    folder = tmp_path / "deck"
    atomic_write(folder / "index.html", write_html(deck, folder, publish))
    with offline_chromium() as d:
        open_deck(d, folder / "index.html")
        d.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
        wait_for(d, "return Reveal.getIndices().h === 1")
        video = "Reveal.getCurrentSlide().querySelector('video')"
        assert d.execute_script(f"return {video}.muted") is False
        wait_for(d, f"return {video}.currentTime > 0.3", timeout=10)
        assert d.execute_script(f"return {video}.paused") is False


def test_a_failed_section_keeps_the_deck_unless_allow_missing(project, deck):
    from pptx import Presentation

    args = ("--quality", "tiny", "--lang", "en", "--force", "--jobs", "2", "--out", str(project / "out"))
    before = stat_outputs(deck)
    p = run(project, *args, check_rc=1, fail="FxBeta")
    assert "FAILED 02-beta" in p.stderr and "slides not written" in p.stderr
    assert stat_outputs(deck) == before
    p = run(project, *args, "--allow-missing", check_rc=1, fail="FxBeta")
    assert "left out (failed): 02-beta" in p.stderr and p.stderr.count("written") == 3
    slides = list(Presentation(str(deck / "explainer.pptx")).slides)
    assert len(slides) == 1 + 2
    assert [s.notes_slide.notes_text_frame.text for s in slides[1:]] == ["alpha", "gamma"]


def test_poster_is_the_end_state_before_the_closing_fade(tmp_path):
    """Section clips end with a fade to the background: the poster is the frame before it."""
    from pipeline.poster import end_state_png

    path = tmp_path / "fading.mp4"
    pattern = np.zeros((72, 128, 3), np.uint8)
    pattern[10:60, 20:110] = (230, 200, 40)
    with av.open(str(path), "w") as c:
        v = c.add_stream("libx264", rate=10)
        v.width, v.height, v.pix_fmt = 128, 72, "yuv420p"
        for i in range(30):                       # 2 s of the end state, then a 0.5 s fade
            alpha = 1.0 if i < 25 else 1 - (i - 24) / 5
            c.mux(v.encode(av.VideoFrame.from_ndarray((pattern * alpha).astype(np.uint8), format="rgb24")))
        c.mux(v.encode())
    assert last_frame(path.read_bytes()).max() < 10          # the clip really ends black
    poster = np.asarray(Image.open(end_state_png(path, tmp_path / "p.png")).convert("RGB"), dtype=float)
    assert np.abs(poster - pattern).mean() < 6
