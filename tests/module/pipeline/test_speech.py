"""The lines a narrated run lists before rendering are the lines its scenes speak.

The oracle is the scene code itself: each section runs on the frame-skipped caption
timeline (:func:`scenes.timeline.section_cues`) with narration on, and every line its
``say()`` hands the :class:`narration.Narrator` is recorded (the synthesiser is replaced by
one that writes nothing). :func:`pipeline.speech.run_lines` must give the same lines in the
same order: variants of whole beats, the cue texts of split beats, and the opening card's
placeholder that used to be a ``say()`` argument.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

from tests.support import ROOT

sys.path.insert(0, str(ROOT))

from narration import synth as synth_module  # noqa: E402
from narration.recordings import cue_id  # noqa: E402
from pipeline.run_setup import write_head_file  # noqa: E402
from pipeline.speech import run_lines  # noqa: E402
from words import config  # noqa: E402
from words import spoken as spoken_rules  # noqa: E402

pytestmark = pytest.mark.slow

# the opening card ({sections} from its caption context), section 1 (English spoken
# variants), section 3 (a beat shown as two cues in English), and the closing card
CASES = [("en", None, (0, 1, 3, 99)), ("ja", None, (0, 1)),
         ("ja", "the dog chased the ball and it rolled", (6, 18))]


@pytest.fixture
def heard(monkeypatch, tmp_path):
    """The spoken text of every line a scene asks for, in order (nothing is synthesised)."""
    said: list[str] = []
    silence = tmp_path / "silence.wav"
    synth_module._write_wav(silence, np.zeros(480))

    def line(self, spoken, lang, voice=None):  # noqa: ARG001
        said.append(spoken)
        return synth_module.Line(silence, 1.0, spoken)

    monkeypatch.setattr(synth_module.Synthesizer, "line", line)
    return said


@pytest.mark.parametrize("lang, sentence, numbers", CASES)
def test_listed_lines_are_the_lines_the_scenes_speak(heard, tmp_path, lang, sentence, numbers):
    from scenes.registry import CARDS, SECTIONS
    from scenes.timeline import section_cues

    head = None
    if sentence is not None:
        from attn_math.head import resolve_head

        head = write_head_file(resolve_head(None, None, sentence, None).to_toml(), tmp_path)
    env = config.scene_env(lang=lang, narration=True, head=head, voice_cache=tmp_path / "voice")
    units = [u for u in (*SECTIONS, *CARDS) if u.number in numbers]
    assert len(units) == len(numbers)
    listed_all = []
    for unit in units:
        heard.clear()
        section_cues(unit.module, unit.scene, env, 15, str(tmp_path / "media"))
        listed = run_lines([unit], env)
        assert [line.spoken for line in listed] == heard, unit.stem
        assert heard, unit.stem
        listed_all += listed
    if lang == "en" and sentence is None:   # the cases still reach what they are here for
        ids = {line.id for line in listed_all}
        assert cue_id(3, "trained", 2) in ids, "a beat split in two cues"
        assert spoken_rules.variant("en", 1, "sentence") is not None, "a spoken variant"


def test_a_split_beat_speaks_its_cues_not_its_variant(heard, monkeypatch, tmp_path):
    """A variant is written for a whole beat: a beat shown as two cues speaks each cue's
    text, in the scene and in the list (a variant is given here to the split beat 3/trained,
    and one to a whole beat of the same section, 3/sweep)."""
    from scenes.registry import SECTIONS
    from scenes.timeline import section_cues

    packaged = spoken_rules.variant
    given = {(3, "trained"): "a variant nobody may say", (3, "sweep"): "a variant said whole"}
    monkeypatch.setattr(spoken_rules, "variant",
                        lambda lang, section, beat: given.get((section, beat)) or packaged(lang, section, beat))
    unit = next(s for s in SECTIONS if s.number == 3)
    env = config.scene_env(lang="en", narration=True, voice_cache=tmp_path / "voice")
    section_cues(unit.module, unit.scene, env, 15, str(tmp_path / "media"))
    listed = [line.spoken for line in run_lines([unit], env)]
    assert listed == heard
    assert "a variant said whole" in heard and "a variant nobody may say" not in heard


def test_a_recorded_cue_is_not_listed(tmp_path):
    """A cue with the lecturer's recording is spoken by it; one without is listed only when
    a voice was named."""
    from scenes.registry import SECTIONS

    unit = next(s for s in SECTIONS if s.number == 17)
    env = config.scene_env(lang="en", narration=True, voice_cache=tmp_path / "voice")
    every = run_lines([unit], env)
    folder = tmp_path / "rec"
    folder.mkdir()
    (folder / f"{every[0].id}.wav").write_bytes(b"RIFF")   # found by name; never decoded here
    with_voice = run_lines([unit], config.scene_env(lang="en", narration=True, voice_cache=tmp_path / "voice",
                                                    recordings=folder, voice="slt"))
    without = run_lines([unit], config.scene_env(lang="en", narration=True, voice_cache=tmp_path / "voice",
                                                 recordings=folder))
    assert [line.id for line in with_voice] == [line.id for line in every[1:]]
    assert without == []
