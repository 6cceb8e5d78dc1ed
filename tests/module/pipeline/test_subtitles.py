"""Soft subtitles in every container: the MP4 streams, the ``.srt``/``.vtt`` sidecars, and the
other language's cues placed on the rendered beats.

Read back by independent clients: ffprobe lists the streams and ffmpeg extracts them (Debian
``ffmpeg``, installed by ``scripts/bootstrap.sh --test``), PyAV decodes them, webvtt-py and
srt parse the sidecars. The expected texts come from the caption tables (the fixture ones,
or the real ones through the beat plan), not from the code under test.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import av
import pytest
import srt

from tests.support import FIXTURES, ROOT

sys.path.insert(0, str(ROOT))

PKG = "fxsubs"
STEMS = ["01-alpha", "02-beta", "03-gamma"]
ISO = {"ja": "jpn", "en": "eng"}
#: JIS X 4051 line-start prohibitions, written out here as the test's own oracle
NO_LINE_START = set("。、，．・：；？！）」』】〉》〕］｝ーぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々…")
NO_LINE_END = set("（「『【〈《〔［｛([{“‘")

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("subtitles")]


def run_render(project: Path | None, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    for k in ("ATTN_LANG", "ATTN_THEME", "ATTN_CAPTIONS", "ATTN_HEAD", "ATTN_FIXTURE_FAIL", "ATTN_REGISTRY"):
        env.pop(k, None)
    if project is not None:
        env["ATTN_REGISTRY"] = f"{PKG}.registry"
        env["PYTHONPATH"] = os.pathsep.join([str(project), str(ROOT)])
    p = subprocess.run([sys.executable, str(ROOT / "render.py"), *args], env=env,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    return p


def fixture_lines(lang: str) -> list[str]:
    with open(FIXTURES / "assets" / "captions" / f"{lang}.toml", "rb") as f:
        table = tomllib.load(f)
    return [line for key in ("s01", "s02", "s03") for line in table[key]["lines"]]


def probe_streams(path: Path) -> list[dict]:
    ffprobe = shutil.which("ffprobe")
    assert ffprobe, "ffprobe is not installed (bash scripts/bootstrap.sh --test)"
    out = subprocess.run([ffprobe, "-v", "error", "-show_streams", "-of", "json", str(path)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)["streams"]


def subtitle_streams(path: Path) -> list[dict]:
    return [s for s in probe_streams(path) if s["codec_type"] == "subtitle"]


def extracted(path: Path, index: int) -> list[srt.Subtitle]:
    """Subtitle stream ``index`` (0-based among subtitle streams) as ffmpeg converts it to .srt."""
    out = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-map", f"0:s:{index}", "-f", "srt", "-"],
                         check=True, capture_output=True, text=True).stdout
    return list(srt.parse(out))


def pyav_texts(path: Path) -> list[list[tuple[float, str]]]:
    """Every subtitle stream's cues as PyAV decodes them: ``[(start s, text)]`` per stream."""
    streams = []
    with av.open(str(path)) as c:
        count = len(c.streams.subtitles)
    for i in range(count):
        with av.open(str(path)) as c:
            s = c.streams.subtitles[i]
            cues = []
            for packet in c.demux(s):
                if packet.size == 0 or packet.pts is None:
                    continue
                for sub in s.codec_context.decode2(packet) or ():
                    cues.append((float(packet.pts * packet.time_base), sub.dialogue.decode("utf-8")))
            streams.append([(t, text.replace("\\N", "\n")) for t, text in cues if text])
    return streams


def sidecar(folder: Path, stem: str, lang: str) -> list[srt.Subtitle]:
    return list(srt.parse((folder / f"{stem}.{lang}.srt").read_text(encoding="utf-8")))


def same_cues(a: list[srt.Subtitle], b: list[srt.Subtitle], tolerance_ms: int = 1) -> bool:
    tol = dt.timedelta(milliseconds=tolerance_ms)
    return len(a) == len(b) and all(
        x.content == y.content and abs(x.start - y.start) <= tol and abs(x.end - y.end) <= tol
        for x, y in zip(a, b))


# ----------------------------------------------------------------------------- the fixture project


@pytest.fixture(scope="module")
def fixture_out(tmp_path_factory):
    """The three fixture sections rendered in Japanese with ``--captions srt`` (nothing burned)."""
    base = tmp_path_factory.mktemp("subs")
    shutil.copytree(FIXTURES, base / PKG, ignore=shutil.ignore_patterns("__pycache__"))
    run_render(base, "--quality", "tiny", "--lang", "ja", "--captions", "srt", "--jobs", "2",
               "--out", str(base / "out"))
    return base / "out"


def videos(out: Path) -> list[Path]:
    return [out / "explainer.mp4", *(out / "clips" / f"{s}.mp4" for s in STEMS)]


def test_ffprobe_lists_two_language_tagged_streams_caption_language_first(fixture_out):
    for video in videos(fixture_out):
        subs = subtitle_streams(video)
        assert [s["codec_name"] for s in subs] == ["mov_text", "mov_text"], video.name
        assert [s["tags"]["language"] for s in subs] == ["jpn", "eng"], video.name
        assert [s["disposition"]["default"] for s in subs] == [1, 0], video.name


def test_streams_hold_every_line_of_both_languages(fixture_out):
    """ffmpeg and PyAV both read each stream back as the caption table's lines, in order."""
    for i, lang in enumerate(("ja", "en")):
        got = [c.content for c in extracted(fixture_out / "explainer.mp4", i)]
        assert got == fixture_lines(lang)
    decoded = pyav_texts(fixture_out / "explainer.mp4")
    assert [[t for _, t in s] for s in decoded] == [fixture_lines("ja"), fixture_lines("en")]


def test_streams_match_the_sidecars_and_both_languages_share_the_timing(fixture_out):
    for video, stem in zip(videos(fixture_out), ["explainer", *STEMS]):
        folder = video.parent
        tracks = [sidecar(folder, stem, lang) for lang in ("ja", "en")]
        for i, cues in enumerate(tracks):
            assert same_cues(extracted(video, i), cues), (video.name, i)
        # the fixture's beats are one cue in each language: the same spans
        assert [(c.start, c.end) for c in tracks[0]] == [(c.start, c.end) for c in tracks[1]]
        # the caption language's track is the clip's own .srt
        own = list(srt.parse((folder / f"{stem}.srt").read_text(encoding="utf-8")))
        assert same_cues(own, tracks[0])


def vtt_stamp(t: dt.timedelta) -> str:
    """``HH:MM:SS.mmm``, as WebVTT writes a time."""
    return srt.timedelta_to_srt_timestamp(t).replace(",", ".")


def test_vtt_sidecars_equal_the_srt(fixture_out):
    import webvtt

    for stem, folder in [("explainer", fixture_out), *((s, fixture_out / "clips") for s in STEMS)]:
        for lang in ("ja", "en"):
            vtt = webvtt.read(str(folder / f"{stem}.{lang}.vtt"))
            cues = sidecar(folder, stem, lang)
            assert [c.text for c in vtt.captions] == [c.content for c in cues]
            assert [(c.start, c.end) for c in vtt.captions] == \
                [(vtt_stamp(c.start), vtt_stamp(c.end)) for c in cues]


def test_joined_tracks_shift_each_clip_by_the_clips_before_it(fixture_out):
    alpha = sidecar(fixture_out / "clips", "01-alpha", "en")
    beta = sidecar(fixture_out / "clips", "02-beta", "en")
    joined = sidecar(fixture_out, "explainer", "en")
    with av.open(str(fixture_out / "clips" / "01-alpha.mp4")) as c:
        alpha_length = dt.timedelta(microseconds=c.duration)
    assert joined[0].content == alpha[0].content and joined[0].start == alpha[0].start
    assert abs(joined[1].start - (beta[0].start + alpha_length)) <= dt.timedelta(milliseconds=2)


def test_no_captions_means_no_streams_and_no_sidecars(fixture_out, tmp_path):
    project = fixture_out.parent
    out = tmp_path / "none"
    run_render(project, "--quality", "tiny", "--lang", "en", "--captions", "none", "--jobs", "2",
               "--out", str(out))
    for video in videos(out):
        assert subtitle_streams(video) == []
    assert sorted(p.name for p in out.rglob("*.vtt")) == []
    assert sorted(p.name for p in out.rglob("*.srt")) == []


# ----------------------------------------------------------------------------- a real section


@pytest.fixture(scope="module")
def which_key(tmp_path_factory):
    """Section 3 rendered in Japanese: its 'trained' beat is one Japanese cue, two English."""
    out = tmp_path_factory.mktemp("s03") / "out"
    run_render(None, "--quality", "tiny", "--sections", "3", "--lang", "ja", "--jobs", "1", "--out", str(out))
    return out


def beat_texts(section: int, lang: str) -> list[str]:
    """The section's beats in the caption tables, in the story's order (the expected text)."""
    from scenes.registry import by_number, load_story
    from words import captions

    story = load_story(None)
    return [captions.render(lang, section, b.key, story.caption_context(section, lang))
            for b in by_number(section).plan(story) if b.key is not None]


def flat(text: str, lang: str) -> str:
    """A cue's text without its line breaks (Japanese lines join without a space)."""
    return re.sub(r"\s*\n\s*", "" if lang == "ja" else " ", text).strip()


def group_by_beat(cues: list[srt.Subtitle], texts: list[str], lang: str) -> list[list[srt.Subtitle]]:
    """``cues`` split into consecutive runs, one per beat, whose joined text is the beat's."""
    groups, i = [], 0
    for text in texts:
        run, joined = [], ""
        while i < len(cues) and flat(joined, lang) != flat(text, lang):
            run.append(cues[i])
            joined = (joined + ("" if lang == "ja" else " ") + flat(cues[i].content, lang)).strip()
            i += 1
        assert flat(joined, lang) == flat(text, lang), f"beat not found in {lang}: {text!r}"
        groups.append(run)
    assert i == len(cues)
    return groups


def test_every_beat_appears_in_both_languages_on_the_rendered_beats(which_key):
    clip = which_key / "clips" / "03-which-key.mp4"
    ja = sidecar(which_key / "clips", "03-which-key", "ja")
    en = sidecar(which_key / "clips", "03-which-key", "en")
    ja_beats = group_by_beat(ja, beat_texts(3, "ja"), "ja")
    en_beats = group_by_beat(en, beat_texts(3, "en"), "en")
    assert len(ja_beats) == len(en_beats)
    assert any(len(e) == 2 and len(j) == 1 for j, e in zip(ja_beats, en_beats))   # the 'trained' beat
    for j, e in zip(ja_beats, en_beats):
        assert e[0].start == j[0].start and e[-1].end == j[-1].end   # the rendered beat's span
        assert all(a.end == b.start for a, b in zip(e, e[1:]))       # one after the other
    # the MP4's streams carry exactly these cues, line breaks included
    assert [s["tags"]["language"] for s in subtitle_streams(clip)] == ["jpn", "eng"]
    assert same_cues(extracted(clip, 0), ja) and same_cues(extracted(clip, 1), en)


def kinsoku_ok(line: str) -> bool:
    return line[:1] not in NO_LINE_START and line[-1:] not in NO_LINE_END


def test_japanese_as_the_other_language_keeps_its_line_breaking():
    """Section 13 timed in English (no render): the Japanese track's cues are broken as a
    Japanese render breaks them (kinsoku), and fill each English beat's span."""
    import tempfile

    from pipeline.subtitles import tracks_of
    from scenes.registry import by_number
    from scenes.timeline import section_cues
    from words import cues

    never_zero = by_number(13)
    with tempfile.TemporaryDirectory() as media:
        timing = section_cues(never_zero.module, never_zero.scene, {"ATTN_LANG": "en"}, 15, media)
    rendered = srt.compose([srt.Subtitle(0, dt.timedelta(seconds=c.start), dt.timedelta(seconds=c.end), c.text)
                            for c in timing.cues])
    en, ja = tracks_of("en", rendered, timing.subtitle_beats)
    assert (en.lang, ja.lang) == ("en", "ja")
    texts = beat_texts(13, "ja")
    groups = group_by_beat(list(ja.cues), texts, "ja")
    en_groups = group_by_beat(list(en.cues), beat_texts(13, "en"), "en")
    for text, group, span in zip(texts, groups, en_groups):
        assert [c.content for c in group] == cues.cues_of(text, "ja")
        assert group[0].start == span[0].start and group[-1].end == span[-1].end
        for cue in group:
            lines = cue.content.split("\n")
            assert len(lines) <= 2 and all(kinsoku_ok(line) for line in lines), cue.content


def test_a_beat_of_two_cues_shares_its_span_by_reading_time():
    from pipeline.subtitles import beat_cues
    from words.cues import reading_time

    text = beat_texts(3, "en")[-1]                       # the 'trained' beat: two English cues
    cues = beat_cues(text, "en", 10.0, 22.0)
    assert len(cues) == 2
    assert cues[0].start == dt.timedelta(seconds=10) and cues[1].end == dt.timedelta(seconds=22)
    need = [reading_time(c.content.replace("\n", " "), "en") for c in cues]
    shares = [(c.end - c.start).total_seconds() / 12.0 for c in cues]
    assert shares[0] == pytest.approx(need[0] / sum(need), abs=1e-3)
