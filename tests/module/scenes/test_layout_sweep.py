"""Every beat of every section is readable for random sentences, not only the fixed ones.

A small seeded sample of :func:`tests.support.random_sentences.seeded` sentences (the
same on every machine): each section is probed for one of :data:`SAMPLE` in turn, in the
caption language and theme ``bench/sweep.py`` gives that seed, so the suite covers every
section for about two minutes of CPU. ``bench/sweep.py layout`` runs the same probe for
many sentences; the (seed, section) cases it found failing stay here (:data:`FOUND`).
"""

from __future__ import annotations

import pytest

from scenes.registry import SECTIONS
from tests.support.layout_probe import assert_readable, probe_section
from tests.support.random_sentences import look_of, seeded

#: The seeds of the sample, one per group of sections.
SAMPLE = (5, 11, 26)
#: (seed, section) cases the sweep found failing once, each now a regression case.
FOUND: tuple[tuple[int, int], ...] = ()


def _cases():
    for k, section in enumerate(SECTIONS):
        yield SAMPLE[k % len(SAMPLE)], section
    for seed, number in FOUND:
        yield seed, next(s for s in SECTIONS if s.number == number)


@pytest.mark.slow
@pytest.mark.scene
@pytest.mark.parametrize("seed, section", list(_cases()),
                         ids=[f"seed{seed}-{s.stem}" for seed, s in _cases()])
def test_random_sentence_is_readable(seed, section, tmp_path):
    sentence = seeded(seed)
    spec = tmp_path / "spec.toml"
    spec.write_text(sentence.spec_toml(), encoding="utf-8")
    lang, theme = look_of(seed)
    probe = probe_section(section, lang, theme, str(spec))
    assert probe.scene.story.tokens == list(sentence.tokens)
    assert probe.moments >= 2, "the probe saw no beat"
    assert_readable(probe)
