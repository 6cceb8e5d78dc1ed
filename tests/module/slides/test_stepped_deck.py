"""The stepped decks (``render.py slides``, ``--step beats``): a stop at every caption beat.

Sections 3 and 11 of the real explainer render at the hidden ``tiny`` quality (128x72,
5 fps). The oracles are independent of the deck's code: the beats are counted in
``render.py script --json`` (the caption timeline), the frames are the section clip's own,
decoded by PyAV, and the deck is played by headless Chromium (offline, from ``file://``)
and opened by python-pptx and LibreOffice.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import av
import numpy as np
import pytest
from PIL import Image

from tests.support import ROOT, TESTS

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("stepped")]

SECTIONS = "3,11"
STEMS = ("03-which-key", "11-softmax-staircase")
ARTIFACTS = TESTS / "_artifacts" / "stepped"
#: Chromium plays the tiny pieces this much faster: where a stop lands does not depend on
#: the speed (a stop is the piece's end), and the walk through 14 beats takes seconds.
PLAYBACK_RATE = 8


def render(*args: str, timeout: int = 900) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    for k in ("ATTN_LANG", "ATTN_THEME", "ATTN_CAPTIONS", "ATTN_HEAD", "ATTN_REGISTRY"):
        env.pop(k, None)
    p = subprocess.run([sys.executable, str(ROOT / "render.py"), *args], env=env, capture_output=True,
                       text=True, timeout=timeout)
    assert p.returncode == 0, p.stdout + p.stderr
    return p


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    """A stepped deck (html and pptx) of sections 3 and 11, in English."""
    out = tmp_path_factory.mktemp("stepped") / "out"
    render("slides", "--sections", SECTIONS, "--quality", "tiny", "--lang", "en", "--format", "html,pptx",
           "--jobs", "2", "--out", str(out))
    return out


@pytest.fixture(scope="module")
def script_cues() -> dict[int, list[str]]:
    """Each section's cues in the caption timeline, by their beat."""
    cues = json.loads(render("script", "--json", "--sections", SECTIONS, "--lang", "en").stdout)
    return {section: [c["beat"] for c in group] for section, group in itertools.groupby(cues, key=lambda c: c["section"])}


@pytest.fixture(scope="module")
def script_beats(script_cues) -> dict[int, list[str]]:
    """Each section's beats in the caption timeline: its cues grouped by beat, in order."""
    return {section: [beat for beat, _ in itertools.groupby(beats)] for section, beats in script_cues.items()}


def beat_ends(out: Path, stem: str, cue_beats: list[str], fps: int = 5) -> list[int]:
    """The frame after each beat's last, from the clip's own subtitles (the rendered ``.srt``,
    one cue per script cue) grouped as the script groups its cues."""
    import srt

    (subs,) = [p for p in (out / ".cache" / "store" / stem).glob("*.srt") if p.name.count(".") == 1]
    cues = list(srt.parse(subs.read_text(encoding="utf-8")))
    assert len(cues) == len(cue_beats)
    ends = [round(c.end.total_seconds() * fps) for c, b, after in zip(cues, cue_beats, [*cue_beats[1:], None])
            if b != after]
    return ends


def clip_frames(out: Path, stem: str) -> np.ndarray:
    """The section clip's frames (the one the deck was cut from), decoded by PyAV."""
    (clip,) = [p for p in (out / ".cache" / "store" / stem).glob("*.mp4") if p.name.count(".") == 1]
    with av.open(str(clip)) as c:
        return np.stack([f.to_ndarray(format="rgb24") for f in c.decode(video=0)]).astype(float)


def shown_frame(driver) -> np.ndarray:
    """The current beat's video as the page shows it, scaled back to the clip's size."""
    rect = driver.execute_script(
        "const r = Reveal.getCurrentSlide().querySelector('video.beat.current').getBoundingClientRect();"
        "return [r.left, r.top, r.right, r.bottom];")
    shot = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
    box = [round(v) for v in rect]
    crop = shot.crop((box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2)).resize((128, 72), Image.BOX)
    return np.asarray(crop, dtype=float)


def nearest(frames: np.ndarray, shown: np.ndarray, want: int) -> tuple[bool, float, int]:
    """Whether frame ``want`` is (within one frame) the clip's frame the page shows: the
    frames as close to ``shown`` as the closest one are the candidates (held frames are
    equal); ``want`` or a neighbour must be one of them."""
    diffs = np.abs(frames - shown).mean(axis=(1, 2, 3))
    best = float(diffs.min())
    close = set(np.flatnonzero(diffs <= best + 0.5).tolist())
    return bool(close & {want - 1, want, want + 1}), best, int(diffs.argmin())


def current(driver, what: str):
    return driver.execute_script(f"const v = Reveal.getCurrentSlide().querySelector('video.beat.current'); return {what};")


def wait_stop(driver):
    from tests.support.browser import wait_for

    wait_for(driver, "const v = Reveal.getCurrentSlide().querySelector('video.beat.current');"
                     "return v.readyState >= 2 && v.paused && v.ended;", timeout=60)


def press(driver, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(key).perform()


def test_stops_at_every_beat_on_its_last_frame(out, script_beats, script_cues):
    from selenium.webdriver.common.keys import Keys

    from tests.support.browser import LOCAL_SCHEMES, offline_chromium, open_deck, page_requests, wait_for

    page = out / "slides" / "index.html"
    with offline_chromium() as d:
        url = open_deck(d, page)
        assert d.execute_script("return Reveal.getTotalSlides()") == 1 + len(STEMS)
        d.execute_script(f"for (const v of document.querySelectorAll('video')) {{ v.defaultPlaybackRate = v.playbackRate = {PLAYBACK_RATE}; }}")
        press(d, Keys.ARROW_RIGHT)   # title -> the first section: its first beat plays
        for h, (stem, number) in enumerate(zip(STEMS, script_beats), 1):
            wait_for(d, f"return Reveal.getIndices().h === {h}")
            frames = clip_frames(out, stem)
            ends = beat_ends(out, stem, script_cues[number])
            stops = 0
            while True:
                wait_stop(d)
                stops += 1
                n = int(current(d, "Number(v.dataset.beat)"))
                assert n == stops
                first, last = ([0, *ends][n - 1], ends[n - 1] - 1)   # the beat's frames in the section clip
                ok, diff, got = nearest(frames, shown_frame(d), last)
                assert ok and diff < 12, f"{stem} beat {n}: shows frame {got} (diff {diff:.1f}), its last is {last}"
                assert current(d, "v.paused") is True
                if stem == STEMS[0] and n == 1:
                    # C still switches the captions (burned by default: off, then the other language)
                    modes = "return [...v.textTracks].map((t) => t.language + ':' + t.mode).join(' ')"
                    before = current(d, modes.removeprefix("return "))
                    press(d, "c")
                    after = current(d, modes.removeprefix("return "))
                    assert before != after and "showing" in after, (before, after)
                    press(d, "c")
                    # K still pauses and plays: the held beat plays, K pauses it
                    press(d, "k")
                    wait_for(d, "return !Reveal.getCurrentSlide().querySelector('video.beat.current').paused")
                    press(d, "k")
                    wait_for(d, "return Reveal.getCurrentSlide().querySelector('video.beat.current').paused")
                    press(d, "r")
                    wait_stop(d)
                if stem == STEMS[0] and n == 2:
                    # previous: back to the beat's start, held there; next plays it again
                    press(d, Keys.ARROW_LEFT)
                    wait_for(d, "const v = Reveal.getCurrentSlide().querySelector('video.beat.current');"
                                "return v.paused && v.currentTime === 0 && v.readyState >= 2")
                    assert int(current(d, "Number(v.dataset.beat)")) == 2
                    ok, diff, got = nearest(frames, shown_frame(d), first)
                    assert ok, f"previous shows frame {got}, the beat starts at {first}"
                    press(d, Keys.PAGE_DOWN)
                    wait_stop(d)
                    assert nearest(frames, shown_frame(d), last)[0]
                    # R: the beat again from its start, to the same stop
                    press(d, "r")
                    wait_for(d, "const v = Reveal.getCurrentSlide().querySelector('video.beat.current');"
                                "return !v.ended")
                    wait_stop(d)
                    assert nearest(frames, shown_frame(d), last)[0]
                    # previous at the start of a beat: the previous beat's start
                    press(d, Keys.PAGE_UP)
                    wait_for(d, "const v = Reveal.getCurrentSlide().querySelector('video.beat.current');"
                                "return v.currentTime === 0 && v.paused")
                    press(d, Keys.PAGE_UP)
                    wait_for(d, "return Reveal.getCurrentSlide().querySelector('video.beat.current').dataset.beat === '1'")
                    assert current(d, "v.currentTime") == 0
                    press(d, Keys.SPACE)   # plays beat 1 again, then on to beat 2
                    wait_stop(d)
                    assert int(current(d, "Number(v.dataset.beat)")) == 1
                    press(d, Keys.SPACE)
                    wait_for(d, "return Reveal.getCurrentSlide().querySelector('video.beat.current').dataset.beat === '2'")
                    wait_stop(d)
                notes = d.execute_script(
                    "const f = Reveal.getCurrentSlide().querySelector('.current-fragment aside.notes')"
                    " || Reveal.getCurrentSlide().querySelector(':scope > aside.notes'); return f.textContent;")
                assert f"{n}/{len(script_beats[number])}" in notes
                press(d, Keys.ARROW_RIGHT)
                wait_for(d, f"return Reveal.getIndices().h !== {h} || Reveal.getCurrentSlide()"
                            f".querySelector('video.beat.current').dataset.beat !== '{n}'"
                            if h < len(STEMS) or n < len(script_beats[number]) else "return true")
                if n == len(script_beats[number]):
                    # after the last beat: the next slide (the deck's last slide stays)
                    assert d.execute_script("return Reveal.getIndices().h") == min(h + 1, len(STEMS))
                    break
            # as many stops as the caption timeline has beats; the last one led to the next slide
            assert stops == len(script_beats[number]), (stem, stops, script_beats[number])
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        requests = page_requests(d, url)
    assert [u for u in requests if not u.startswith(LOCAL_SCHEMES)] == []


# ----------------------------------------------------------------------------- pieces


def test_pieces_hold_the_clip_frames_exactly(out):
    """Each beat's piece decodes to the section clip's frames of its span, bit for bit, and
    the pieces together are the clip up to the closing fade."""
    from pptx import Presentation  # noqa: F401 - the pptx test below reads the same pieces

    for stem in STEMS:
        frames = clip_frames(out, stem)
        pieces = sorted((out / "slides" / "media").glob(f"{stem}.*.b*.mp4"))
        assert len(pieces) >= 2
        at = 0
        for piece in pieces:
            with av.open(str(piece)) as c:
                got = np.stack([f.to_ndarray(format="rgb24") for f in c.decode(video=0)]).astype(float)
            assert np.array_equal(got, frames[at:at + len(got)]), piece.name
            at += len(got)
        fps = 5
        assert len(frames) - at <= fps * 1   # only the closing fade (0.5 s) is left out


# ----------------------------------------------------------------------------- PowerPoint


def test_pptx_has_a_slide_per_beat_that_plays_by_itself(out, script_beats):
    from lxml import etree
    from pptx import Presentation
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    ns = {"p": "http://schemas.openxmlformats.org/presentationml/2006/main"}
    prs = Presentation(str(out / "slides" / "explainer.pptx"))
    slides = list(prs.slides)
    assert len(slides) == 1 + sum(len(b) for b in script_beats.values())
    fps = 5
    for slide in slides[1:]:
        (movie,) = [s for s in slide.shapes if s.shape_type == MSO_SHAPE_TYPE.MEDIA]
        (media,) = {r.target_part for r in slide.part.rels.values() if r.reltype.endswith("/media")}
        with av.open(io.BytesIO(media.blob)) as c:
            frames = [f for f in c.decode(video=0)]
            length = len(frames) / fps
        poster = np.asarray(Image.open(io.BytesIO(movie.poster_frame.blob)).convert("RGB"), dtype=float)
        # its last frame (a JPEG of it): no frame of the piece is closer
        diffs = [np.abs(poster - f.to_ndarray(format="rgb24")).mean() for f in frames]
        assert diffs[-1] < 3.0 and diffs[-1] <= min(diffs) + 0.01
        timing = etree.fromstring(etree.tostring(slide._element)).xpath("p:timing", namespaces=ns)[0]
        (call,) = timing.xpath(".//p:cmd[@type='call']", namespaces=ns)
        assert call.xpath("ancestor::p:cTn[@presetClass='mediacall']/@nodeType", namespaces=ns) == ["afterEffect"]
        (dur,) = call.xpath("p:cBhvr/p:cTn/@dur", namespaces=ns)
        assert abs(int(dur) / 1000 - length) <= 1 / fps
        assert slide.notes_slide.notes_text_frame.text.strip()


def test_libreoffice_converts_the_stepped_deck_with_every_poster(out, tmp_path):
    from pptx import Presentation
    from pypdf import PdfReader

    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    assert soffice, "LibreOffice is not installed (bash scripts/bootstrap.sh --test)"
    deck = out / "slides" / "explainer.pptx"
    subprocess.run([soffice, f"-env:UserInstallation={(tmp_path / 'lo').as_uri()}", "--headless", "--norestore",
                    "--convert-to", "pdf", "--outdir", str(tmp_path), str(deck)],
                   check=True, capture_output=True, timeout=300, env={**os.environ, "HOME": str(tmp_path)})
    prs = Presentation(str(deck))
    assert len(PdfReader(str(tmp_path / "explainer.pdf")).pages) == len(prs.slides)
    subprocess.run(["pdftoppm", "-r", "40", "-png", str(tmp_path / "explainer.pdf"), str(tmp_path / "page")], check=True)
    pages = sorted(tmp_path.glob("page-*.png"), key=lambda p: int(p.stem.split("-")[1]))
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    for page, slide in zip(pages[1:], list(prs.slides)[1:]):
        img = np.asarray(Image.open(page).convert("RGB"), dtype=float)
        h, w = img.shape[:2]
        (movie,) = [s for s in slide.shapes if s.shape_type == MSO_SHAPE_TYPE.MEDIA]
        box = [round(v) for v in (movie.left / prs.slide_width * w, movie.top / prs.slide_height * h,
                                  (movie.left + movie.width) / prs.slide_width * w,
                                  (movie.top + movie.height) / prs.slide_height * h)]
        shown = img[box[1]:box[3], box[0]:box[2]]
        poster = Image.open(io.BytesIO(movie.poster_frame.blob)).convert("RGB")
        poster = np.asarray(poster.resize((shown.shape[1], shown.shape[0])), dtype=float)
        flat = np.full_like(shown, shown.reshape(-1, 3).mean(axis=0))
        assert np.abs(shown - poster).mean() < 0.5 * np.abs(flat - poster).mean(), page.name


# ----------------------------------------------------------------------------- Firefox


def test_firefox_stops_at_every_beat_of_section_3(out, script_beats, script_cues):
    """The same walk in headless Firefox (WebDriver BiDi, no geckodriver), section 3 only:
    each stop paused on its beat's last frame, previous back to the beat's start, R replays the
    beat to the same stop, the slide changes after the last beat, and the page asks for
    nothing but local files."""
    from selenium.webdriver.common.keys import Keys

    from tests.support.browser import wait_for
    from tests.support.firefox import FIREFOX, offline_firefox

    assert Path(FIREFOX).exists(), "Firefox is not installed (bash scripts/bootstrap.sh --test)"
    stem, number = STEMS[0], next(iter(script_beats))
    frames = clip_frames(out, stem)
    ends = beat_ends(out, stem, script_cues[number])
    with offline_firefox() as d:
        d.send("session.subscribe", events=["network.beforeRequestSent"])
        d.get((out / "slides" / "index.html").resolve().as_uri())
        wait_for(d, "return !!(window.Reveal && Reveal.isReady())")
        d.execute_script(f"for (const v of document.querySelectorAll('video')) {{ v.defaultPlaybackRate = v.playbackRate = {PLAYBACK_RATE}; }}")
        d.press(Keys.ARROW_RIGHT)
        wait_for(d, "return Reveal.getIndices().h === 1")
        beats = len(script_beats[number])
        for n in range(1, beats + 1):
            wait_stop(d)
            assert int(current(d, "Number(v.dataset.beat)")) == n
            assert current(d, "v.paused") is True
            first, last = [0, *ends][n - 1], ends[n - 1] - 1
            ok, diff, got = nearest(frames, shown_frame(d), last)
            assert ok and diff < 12, f"beat {n}: shows frame {got} (diff {diff:.1f}), its last is {last}"
            if n == 2:
                d.press(Keys.ARROW_LEFT)   # previous: the beat's start, held there
                wait_for(d, "const v = Reveal.getCurrentSlide().querySelector('video.beat.current');"
                            "return v.paused && v.currentTime === 0 && v.readyState >= 2")
                assert int(current(d, "Number(v.dataset.beat)")) == 2
                ok, diff, got = nearest(frames, shown_frame(d), first)
                assert ok, f"previous shows frame {got}, the beat starts at {first}"
                d.press(Keys.ARROW_RIGHT)   # next plays the beat again to its stop
                wait_stop(d)
                assert nearest(frames, shown_frame(d), last)[0]
            if n == 3:
                d.execute_script("window.replayed = false; Reveal.getCurrentSlide().querySelector("
                                 "'video.beat.current').addEventListener('play', () => { window.replayed = true; },"
                                 " {once: true}); return 1")
                d.press("r")                # replay: from the beat's start to the same stop
                wait_for(d, "return window.replayed === true")
                wait_stop(d)
                assert int(current(d, "Number(v.dataset.beat)")) == 3
                assert nearest(frames, shown_frame(d), last)[0]
            d.press(Keys.ARROW_RIGHT)
            if n < beats:
                wait_for(d, f"return Reveal.getCurrentSlide().querySelector('video.beat.current').dataset.beat !== '{n}'")
        wait_for(d, "return Reveal.getIndices().h === 2")
        d.execute_script("return 1")   # flush the events sent before this command
        asked = [e["params"]["request"]["url"] for e in d.events if e["method"] == "network.beforeRequestSent"]
    assert asked and all(u.startswith(("file://", "data:", "blob:", "about:")) for u in asked), \
        [u for u in asked if not u.startswith(("file://", "data:", "blob:", "about:"))]


# ----------------------------------------------------------------------------- narrated

#: The span at each end of a piece that must hold no voice (a word cut at a stop would sound there).
QUIET_SECONDS = 0.08


def _sound(piece: Path) -> tuple[np.ndarray, int, float]:
    """A piece's audio (mono), its rate, and its video's length in seconds, read by PyAV."""
    with av.open(str(piece)) as c:
        stream = c.streams.video[0]
        frames = sum(1 for _ in c.decode(stream))
        fps = float(stream.average_rate)
    with av.open(str(piece)) as c:
        rate = c.streams.audio[0].rate
        chunks = [f.to_ndarray() for f in c.decode(audio=0)]
    sound = np.concatenate([ch.mean(axis=0) if ch.ndim > 1 else ch for ch in chunks]).astype(float)
    return sound, rate, frames / fps


def test_a_narrated_deck_stops_between_words(tmp_path):
    """Section 3 narrated by a real voice (Mei, Open JTalk: installed by the set-up): each beat's
    piece carries its sound for exactly its frames, holds speech, and is silent at both ends,
    so no stop cuts the voice mid-word; there is a piece per beat of the narrated script."""
    out = tmp_path / "out"
    render("slides", "--sections", "3", "--quality", "tiny", "--lang", "ja", "--voice", "mei_normal",
           "--format", "html", "--jobs", "2", "--out", str(out))
    cues = json.loads(render("script", "--json", "--sections", "3", "--lang", "ja", "--voice", "mei_normal").stdout)
    beats = [b for b, _ in itertools.groupby(c["beat"] for c in cues)]
    pieces = sorted((out / "slides" / "media").glob("03-which-key.*.b*.mp4"))
    assert len(pieces) == len(beats)
    for piece in pieces:
        sound, rate, seconds = _sound(piece)
        assert abs(len(sound) / rate - seconds) <= 1 / 5, piece.name      # one frame at tiny's 5 fps
        quiet = int(QUIET_SECONDS * rate)
        level = np.sqrt(np.convolve(sound ** 2, np.ones(quiet) / quiet, mode="valid"))
        assert level.max() > 0.05, f"{piece.name} holds no speech"
        for end in (sound[:quiet], sound[-quiet:]):
            assert np.sqrt(np.mean(end ** 2)) < 0.02 * level.max(), f"{piece.name}: voice at a stop"
