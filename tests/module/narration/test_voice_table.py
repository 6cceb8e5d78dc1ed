"""The voice table's rows, without speaking: every voice is credited in every caption table,
and docs/ARCHITECTURE.md's "To add X" claim that a voice is one row (plus its credit line)
holds. A row added here (and nowhere else) is a ``--voice`` choice checked before rendering,
a row of ``render.py voices`` and of the studio's list, part of both cache keys, a batch
column's value, a language's default when put first in ``PREFERENCE`` (and then what
``doctor`` reports), and credited by its ``credit_key``. A festival row speaks its own voice.
Nothing is synthesised and no program runs (``dpkg-query`` is stood in for).
"""

from __future__ import annotations

import json
import wave
from dataclasses import dataclass
from pathlib import Path

import pytest

from narration import pacing, voices
from narration.synth import line_key
from words import config


@pytest.mark.parametrize("lang", config.LANGS)
def test_every_voice_is_credited_in_every_caption_table(lang):
    for v in voices.VOICES:
        line = voices.credit(v, lang)
        assert line.strip() and "{" not in line, (v.name, lang, line)


@dataclass(frozen=True)
class _Quiet(voices.TableVoice):
    """A test engine: installed everywhere, a tenth of a second of silence per line."""

    def missing(self) -> str | None:
        return None

    def identity(self) -> str:
        return "quiet engine 1"

    def synthesise(self, text: str, dest: Path) -> None:
        with wave.open(str(dest), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(8000)
            w.writeframes(b"\0\0" * 800)


QUIET = _Quiet("quiet_en", "en", "a silent test engine", "nothing to license", "slt", aliases=("quiet",))


@pytest.fixture
def quiet(monkeypatch):
    """The table with one more row (only the table: nothing else is told)."""
    monkeypatch.setattr(voices, "VOICES", (*voices.VOICES, QUIET))
    for name in ("ATTN_VOICE", "ATTN_NARRATION", "ATTN_RECORDINGS"):
        monkeypatch.delenv(name, raising=False)
    return QUIET


def test_a_new_row_is_a_voice_choice_checked_before_rendering(quiet):
    from pipeline.options import BadInput
    from pipeline.run_setup import check_narration

    assert voices.find("quiet") is quiet and voices.chosen("en", "quiet_en") is quiet
    assert check_narration("en", "quiet_en") == "quiet_en"     # what --voice runs first
    with pytest.raises(BadInput, match="speaks en, not ja"):
        check_narration("ja", "quiet_en")
    with pytest.raises(voices.UnknownVoice, match="quiet_en"):  # the names offered
        voices.find("nobody")


def test_a_new_row_is_listed_by_the_voices_command_and_the_studio(quiet, capsys, tmp_path, monkeypatch):
    from cli.group import main
    from tests.module.studio.support import call, running_studio

    with pytest.raises(SystemExit) as e:
        main(["voices", "--json"])
    assert e.value.code == 0
    (row,) = [r for r in json.loads(capsys.readouterr().out) if r["name"] == "quiet_en"]
    assert row["installed"] and row["lang"] == "en" and row["aliases"] == ["quiet"] and not row["default"]

    with running_studio(tmp_path / "studio") as server:
        code, state = call(server, "api/state")
    assert code == 200 and "quiet_en" in [v["name"] for v in state["voices"]]


def test_a_new_row_keys_the_caches(quiet):
    slt = voices.find("slt")
    assert line_key("A line.", quiet) != line_key("A line.", slt)
    said = json.loads(pacing.narration_key("en", 5, voice="quiet_en"))
    assert said["voice"] == "quiet_en" and said["identity"] == "quiet engine 1"


def test_a_new_row_is_a_batch_voice(quiet, tmp_path):
    from batch.variants import VariantError, load_variants

    table = tmp_path / "v.csv"
    table.write_text("name,lang,voice\nq,en,quiet_en\n", encoding="utf-8")
    (q,) = load_variants(table)
    assert q.voice == "quiet_en"
    table.write_text("name,lang,voice\nq,ja,quiet_en\n", encoding="utf-8")
    with pytest.raises(VariantError, match="speaks en, not ja"):
        load_variants(table)


def test_a_new_row_first_in_the_preference_is_the_default_doctor_reports(quiet, monkeypatch):
    from cli.doctor import CHECKS, Context, run_checks

    assert voices.default_voice("en") is not quiet
    monkeypatch.setitem(voices.PREFERENCE, "en", ("quiet_en", *voices.PREFERENCE["en"]))
    assert voices.default_voice("en") is quiet and voices.chosen("en") is quiet
    (english,) = [c for c in CHECKS if "--narration --lang en" in c.needed_by]
    (found,) = run_checks(Context(), [english])
    assert found.ok and found.found == "quiet engine 1"


def test_a_new_row_is_credited_by_its_credit_key(quiet, monkeypatch):
    monkeypatch.setenv("ATTN_NARRATION", "1")
    monkeypatch.setenv("ATTN_VOICE", "quiet_en")
    slt = voices.find("slt")
    assert voices.closing_credit("en") == voices.credit(slt, "en")
    for lang in config.LANGS:
        assert voices.credit(quiet, lang) == voices.credit(slt, lang)


def test_a_festival_row_speaks_its_own_voice(monkeypatch, tmp_path):
    """A second festival row is its own voice: installed when its folder is, keyed by its
    package, spoken with its own name; slt's key is what it was (its cached lines stay)."""
    monkeypatch.setattr(voices, "_dpkg_version", lambda package: f"v({package})")
    monkeypatch.setattr(voices.shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(voices, "FESTIVAL_VOICES", tmp_path)
    kal = voices.FestivalVoice("kal_diphone", "en", "festival + kal", "free", "slt", package="festvox-kallpc16k")
    missing = kal.missing()
    assert missing is not None and "kal_diphone" in missing and "festvox-kallpc16k" in missing
    (tmp_path / "english" / "kal_diphone").mkdir(parents=True)
    assert kal.missing() is None
    assert kal.identity() == "festival v(festival); festvox-kallpc16k v(festvox-kallpc16k)"
    assert voices.find("slt").identity() == "festival v(festival); festvox-us-slt-hts v(festvox-us-slt-hts)"
    said = []
    monkeypatch.setattr(voices, "_run", lambda cmd, text, dest, name: said.append(cmd))
    kal.synthesise("Hello.", tmp_path / "x.wav")
    assert "(voice_kal_diphone)" in said[0]
