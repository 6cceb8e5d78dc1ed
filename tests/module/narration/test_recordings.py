"""``--recordings DIR``: the lecturer's own audio per cue, by the cue ids of ``script --json``.

Recordings are generated here: a tone of its own pitch per cue, after half a second of
silence, in a different format each (wav, flac, ogg, mp3, m4a), written with PyAV. The
rendered clip is read back with PyAV and the ``srt`` package: each cue's pitch sounds
while its caption is up, the caption holds until the tone is over, the loudness is the
narration's, and a missing id is exit 2 naming it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
import srt

from tests.support import ROOT
from tests.support.audio import decoded, ebur128, pitch, write_tone

sys.path.insert(0, str(ROOT))

from narration import recordings  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("recordings")]

SECTION = "17"
LANG = "en"
FORMATS = ("wav", "flac", "ogg", "mp3", "m4a")


def _cli(*args, env=None):
    full = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    for k in ("ATTN_LANG", "ATTN_VOICE", "ATTN_NARRATION", "ATTN_CAPTIONS_FILE", "ATTN_RECORDINGS"):
        full.pop(k, None)
    return subprocess.run([sys.executable, str(ROOT / "render.py"), *args], env=full,
                          capture_output=True, text=True, timeout=900)


def _ids() -> list[str]:
    p = _cli("script", "--json", "--lang", LANG, "--sections", SECTION, "--quality", "preview")
    assert p.returncode == 0, p.stderr
    return [c["id"] for c in json.loads(p.stdout)]


def test_cue_ids_are_stable_and_count_a_split_beat(recorded):
    """The ids a second ``script`` run gives are those the takes were named by (in another
    process: nothing in them depends on the run)."""
    assert recordings.cue_ids(22, ["intro", "walk", "walk", "end"]) == \
        ["22-intro-1", "22-walk-1", "22-walk-2", "22-end-1"]
    _, _, tones = recorded
    assert _ids() == list(tones) == ["17-intro-1", "17-remove-1", "17-count-1", "17-position-1"]


def test_trim_keeps_the_voice_and_a_little_around_it():
    rate = 48_000
    voice = 0.2 * np.sin(2 * np.pi * 220 * np.arange(rate) / rate)
    padded = np.concatenate([np.zeros(rate), voice, np.zeros(2 * rate)])
    trimmed = recordings.trim_silence(padded, rate)
    assert abs(len(trimmed) / rate - (1 + 2 * recordings.KEEP)) < 2 * recordings.WINDOW
    assert len(recordings.trim_silence(np.zeros(rate), rate)) == 0


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """Tones for every cue of section 17, and a render with them."""
    base = tmp_path_factory.mktemp("recorded")
    folder = base / "takes"
    folder.mkdir()
    tones = {}
    for k, cue in enumerate(_ids()):
        freq, seconds = 300.0 + 150.0 * k, 3.0 + 2.0 * k
        write_tone(folder / f"{cue}.{FORMATS[k % len(FORMATS)]}", freq, seconds)
        tones[cue] = (freq, seconds)
    out = base / "out"
    p = _cli("render", "--lang", LANG, "--sections", SECTION, "--quality", "tiny", "--jobs", "1",
             "--recordings", str(folder), "--out", str(out))
    assert p.returncode == 0, p.stdout + p.stderr
    return folder, out, tones


def test_each_cue_sounds_its_own_recording_and_the_caption_waits_for_it(recorded):
    folder, out, tones = recorded
    clip = out / "explainer.mp4"
    samples, rate = decoded(clip)
    cues = list(srt.parse((out / "explainer.srt").read_text(encoding="utf-8")))
    assert len(cues) == len(tones)
    for cue, (cue_id, (freq, seconds)) in zip(cues, tones.items()):
        start = cue.start.total_seconds()
        # the caption holds at least as long as the tone, trimmed of its silence
        assert (cue.end - cue.start).total_seconds() >= seconds, (cue_id, cue.end - cue.start)
        middle = samples[int((start + 0.5) * rate): int((start + seconds - 0.5) * rate)]
        assert abs(pitch(middle, rate) - freq) < 15, (cue_id, pitch(middle, rate), freq)
    lufs, peak = ebur128(clip)
    assert abs(lufs + 16.0) <= 1.0 and peak < -1.0, (lufs, peak)


def test_a_new_take_renders_the_section_again_and_the_same_take_does_not(recorded):
    folder, out, tones = recorded
    args = ("render", "--lang", LANG, "--sections", SECTION, "--quality", "tiny", "--jobs", "1",
            "--recordings", str(folder), "--out", str(out))
    same = _cli(*args)
    assert same.returncode == 0 and "0 rendered, 1 cached" in same.stdout + same.stderr, same.stdout + same.stderr
    cue = next(iter(tones))
    old = recordings.find(folder, cue)
    write_tone(folder / f"{cue}.wav", 880.0, 2.0)
    if old.suffix != ".wav":
        old.unlink()
    again = _cli(*args)
    assert again.returncode == 0 and "1 rendered" in again.stdout + again.stderr, again.stdout + again.stderr


def test_a_missing_recording_is_exit_2_naming_it_unless_a_voice_speaks_it(recorded, tmp_path):
    folder, _, tones = recorded
    partial = tmp_path / "partial"
    partial.mkdir()
    first, *rest = tones
    for cue in rest:
        src = recordings.find(folder, cue)
        (partial / src.name).write_bytes(src.read_bytes())
    out = tmp_path / "out"
    p = _cli("render", "--lang", LANG, "--sections", SECTION, "--quality", "tiny", "--recordings", str(partial),
             "--out", str(out))
    assert p.returncode == 2, p.stdout + p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and first in lines[0] and "1 of 4" in lines[0], p.stderr
    assert not out.exists()
    p = _cli("render", "--lang", LANG, "--sections", SECTION, "--quality", "tiny", "--jobs", "1",
             "--recordings", str(partial), "--voice", "cmu_us_slt_arctic_hts", "--out", str(out))
    assert p.returncode == 0, p.stdout + p.stderr
    assert first in p.stderr or "1 of 4 cues have no recording" in p.stderr
