"""The caption files: same beats in both languages, every placeholder resolvable."""

from __future__ import annotations

import importlib.util

import pytest

from attn_math import load_story
from scenes import captions
from scenes.registry import SECTIONS

IMPLEMENTED = [s for s in SECTIONS if importlib.util.find_spec(s.module) is not None]


@pytest.fixture(scope="module")
def story():
    return load_story()


@pytest.mark.parametrize("section", SECTIONS, ids=[s.stem for s in SECTIONS])
def test_same_beats_in_both_languages(section):
    key = captions.section_key(section.number)
    ja = captions.table("ja").get(key, {})
    en = captions.table("en").get(key, {})
    assert set(ja) == set(en), f"{key}: beats differ: ja-only {set(ja) - set(en)}, en-only {set(en) - set(ja)}"


@pytest.mark.parametrize("section", IMPLEMENTED, ids=[s.stem for s in IMPLEMENTED])
@pytest.mark.parametrize("lang", captions.LANGS)
def test_every_caption_resolves(section, lang, story):
    beats = captions.table(lang).get(captions.section_key(section.number), {})
    assert beats, f"section {section.number} has a scene but no captions in {lang}"
    ctx = story.caption_context(section.number)
    for beat in beats:
        text = captions.render(lang, section.number, beat, ctx)
        assert "{" not in text and "}" not in text, text
        assert len(text) < 160, f"{lang} {section.stem}.{beat} is too long to read: {len(text)} chars"


def test_missing_placeholder_is_an_error(story):
    with pytest.raises(KeyError, match="no_such_figure"):
        "x {no_such_figure}".format_map(captions._Strict(story.caption_context(1)))
