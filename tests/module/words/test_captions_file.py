"""``--captions-file``: your own words replace any beat, word or title, are checked before
anything renders, follow the pacing and line-breaking rules, reach the script, the
subtitles and the video, and re-render only the sections whose words changed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import av
import pytest
import srt

from tests.support import ROOT

sys.path.insert(0, str(ROOT))

from scenes.registry import caption_context_names  # noqa: E402
from words import config  # noqa: E402
from words import cues as captions  # noqa: E402

pytestmark = pytest.mark.xdist_group("captions_file")
slow = pytest.mark.slow

MINE = '''
[s17]
intro = "My own words: in training, a decoder may only look back at what it has already seen. It must never look ahead at the answer it is asked to predict, or it learns to copy instead of to guess."
ui_kept = "survivors"
[titles]
s17 = "No peeking"
'''


def _cli(*args, env=None):
    full = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    for k in ("ATTN_LANG", "ATTN_VOICE", "ATTN_NARRATION", "ATTN_CAPTIONS_FILE", "ATTN_RECORDINGS"):
        full.pop(k, None)
    return subprocess.run([sys.executable, str(ROOT / "render.py"), *args], env=full,
                          capture_output=True, text=True, timeout=900)


def _file(tmp_path: Path, text: str, name: str = "mine.toml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def _script(*args) -> list[dict]:
    p = _cli("script", "--json", "--quality", "preview", *args)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


@slow
def test_a_replaced_beat_reaches_the_script_paced_and_broken(tmp_path):
    mine = _file(tmp_path, MINE)
    before = _script("--lang", "en", "--sections", "16-18")
    after = _script("--lang", "en", "--sections", "16-18", "--captions-file", str(mine))
    new = [c for c in after if c["beat"] == "intro" and c["section"] == 17]
    # long words: two cues, each at most two lines of the caption width, each held long
    # enough to read (the pacing rule), the words themselves unchanged
    assert len(new) == 2 and [c["id"] for c in new] == ["17-intro-1", "17-intro-2"]
    assert " ".join(c["text"].replace("\n", " ") for c in new).startswith("My own words: in training")
    for c in new:
        lines = c["text"].split("\n")
        assert len(lines) <= captions.MAX_LINES
        assert all(captions.reading_length(x, "en") <= captions.LINE_CHARS["en"] for x in lines)
        assert c["end"] - c["start"] >= captions.reading_time(c["text"].replace("\n", " "), "en") - 1e-6
    # the other beats and sections say what they said
    rest = lambda cues: [(c["section"], c["beat"], c["text"]) for c in cues  # noqa: E731
                         if not (c["section"] == 17 and c["beat"] == "intro")]
    assert rest(before) == rest(after)
    heading = _cli("script", "--lang", "en", "--sections", "17", "--captions-file", str(mine)).stdout
    assert "## 17. No peeking" in heading


@slow
def test_language_tables_apply_to_their_language(tmp_path):
    both = _file(tmp_path, '[en.s17]\nintro = "English words."\n[ja.s17]\nintro = "日本語の言葉。"\n')
    en = _script("--lang", "en", "--sections", "17", "--captions-file", str(both))
    ja = _script("--lang", "ja", "--sections", "17", "--captions-file", str(both))
    assert en[0]["text"] == "English words." and ja[0]["text"] == "日本語の言葉。"


@pytest.mark.parametrize("text, says", [
    ('[s17]\noutro = "x"\n', "[s17] outro: no such key"),
    ('[s42]\nintro = "x"\n', "[s42]: no such table"),
    ('[s17]\nremove = "We drop {winner_score} cells."\n', "placeholder {winner_score} is not one"),
    ('[titles]\ns17 = "{count} tokens"\n', "placeholder {count} is not one"),
    ('[s17]\nintro = 3\n', "must be text"),
    ('[fr.s17]\nintro = "x"\n', "[fr]: no such table"),
    ('[s17\nintro = "x"\n', "not TOML"),
])
@slow
def test_a_bad_captions_file_is_one_line_and_exit_2_before_rendering(tmp_path, text, says):
    bad = _file(tmp_path, text)
    out = tmp_path / "out"
    p = _cli("render", "--lang", "en", "--quality", "tiny", "--sections", "17", "--out", str(out),
             "--captions-file", str(bad))
    assert p.returncode == 2, p.stdout + p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], p.stderr
    assert not out.exists()


def test_a_placeholder_of_the_story_is_allowed():
    """A beat may name any figure or role the story fills for its section ({winner} in 17)."""
    assert "winner" in caption_context_names()[17] and "kept" in caption_context_names()[17]


def test_only_the_sections_whose_words_changed_get_a_new_key(tmp_path):
    from pipeline.cache import Hasher, section_hash
    from pipeline.kinds import CLIP
    from pipeline.options import Options
    from pipeline.registry import load_registry, scene_file

    mine = _file(tmp_path, MINE)
    registry = load_registry()
    hasher = Hasher(registry)
    changed = []
    for s in registry.sections + registry.cards:
        src = scene_file(s)
        a = section_hash(s, Options(lang="en", quality="tiny"), CLIP, hasher, src)
        b = section_hash(s, Options(lang="en", quality="tiny", captions_file=mine), CLIP, hasher, src)
        if a != b:
            changed.append(s.number)
    # section 17's words and title; the cards show none of its words (WORDS_OF)
    assert changed == [17], changed


def test_the_closing_card_gets_a_new_key_when_the_words_it_lists_change(tmp_path):
    from pipeline.cache import Hasher, section_hash
    from pipeline.kinds import CLIP
    from pipeline.options import Options
    from pipeline.registry import load_registry, scene_file

    bugs = _file(tmp_path, '[s25]\nbug_mask_cause = "Multiply the mask by zero"\n')
    registry = load_registry()
    hasher = Hasher(registry)
    changed = [s.number for s in registry.sections + registry.cards
               if section_hash(s, Options(lang="en", quality="tiny"), CLIP, hasher, scene_file(s))
               != section_hash(s, Options(lang="en", quality="tiny", captions_file=bugs), CLIP, hasher, scene_file(s))]
    assert changed == [25, 99], changed


def test_a_replaced_beat_speaks_its_new_words_not_its_spoken_variant(tmp_path, monkeypatch):
    from narration import pacing
    from words import spoken as spoken_rules

    section, beat = next((int(k[1:]), b) for k, t in spoken_rules.variants("en").items() for b in t)
    mine = _file(tmp_path, f'[s{section:02d}]\n{beat} = "Plain new words."\n')
    with config.using(config.current().replace(captions_file=mine)):
        assert pacing.spoken_line("en", section, beat, "Plain new words.", {}) == "Plain new words."


def _chapters(path: Path) -> list[str]:
    with av.open(str(path)) as c:
        return [ch["metadata"].get("title", "") for ch in c.chapters()]


@slow
def test_the_video_and_its_subtitles_say_the_new_words(tmp_path):
    mine = _file(tmp_path, MINE)
    out = tmp_path / "out"
    p = _cli("render", "--lang", "en", "--quality", "tiny", "--sections", "17", "--out", str(out),
             "--jobs", "1", "--captions-file", str(mine))
    assert p.returncode == 0, p.stdout + p.stderr
    cues = list(srt.parse((out / "explainer.srt").read_text(encoding="utf-8")))
    assert cues[0].content.replace("\n", " ").startswith("My own words: in training")
    assert _chapters(out / "explainer.mp4") == ["No peeking"]
