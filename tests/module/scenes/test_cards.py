"""The opening and closing cards: chosen with the whole video, left out of subsets unless
named, numbered outside the source's sections, and worded in both languages."""

from __future__ import annotations

import re

import pytest

from pipeline.options import BadInput
from pipeline.registry import load_registry, parse_sections
from scenes.registry import CARDS, SECTIONS, by_number, by_slug, load_story
from words import captions, config


def stems(spec):
    r = load_registry()
    return [s.stem for s in parse_sections(spec, r.sections, r.cards)]


def test_the_whole_video_opens_and_closes_with_a_card():
    full = stems(None)
    assert full[0] == "00-opening" and full[-1] == "99-closing"
    assert full[1:-1] == [s.stem for s in SECTIONS]       # the 25 keep their numbers
    assert stems("all") == full


@pytest.mark.parametrize("spec, want", [
    ("1-3", ["01-three-projections", "02-move-the-input", "03-which-key"]),
    ("opening,2", ["00-opening", "02-move-the-input"]),
    ("25,closing", ["25-attention-map", "99-closing"]),
    ("cards", ["00-opening", "99-closing"]),
    ("cards,the-bill", ["00-opening", "23-the-bill", "99-closing"]),
])
def test_a_subset_has_cards_only_when_named(spec, want):
    assert stems(spec) == want


def test_bad_items_next_to_cards_are_still_refused():
    with pytest.raises(BadInput):
        stems("cards,30")


def test_cards_are_found_by_number_and_slug_and_are_not_sections():
    assert by_number(0).slug == "opening" and by_slug("closing").number == 99
    assert all(c.card for c in CARDS) and not any(s.card for s in SECTIONS)
    assert not {c.number for c in CARDS} & {s.number for s in SECTIONS}


@pytest.mark.parametrize("lang", config.LANGS)
def test_card_words_exist_with_known_placeholders(lang):
    story = load_story()
    extra = {"sections": len(SECTIONS), "language_name": "x"}
    for card in CARDS:
        table = captions.table(lang)[captions.section_key(card.number)]
        # every key the card's scene asks for (read from its source, not from the table)
        asked = set(re.findall(r'(?:caption_text|say)\("(\w+)"', card.scene_file.read_text("utf-8")))
        assert asked and asked <= set(table), (card.slug, asked - set(table))
        for beat in table:
            text = captions.render(lang, card.number, beat, story.caption_context(card.number),
                                   **extra)
            assert "{" not in text
