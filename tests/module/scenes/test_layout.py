"""Every beat of every section and card is readable, for eight kinds of custom sentence.

Each section renders with its animations skipped (no frame drawn but the last, nothing
encoded) and :mod:`tests.support.layout_probe` checks the mobject tree at the end of every beat:
every text inside the safe area and clear of the caption bar, no two texts overlapping,
none too small to read at 720p; the scene follows the sentence and its last frame is drawn.
The sentences cover what a lecturer may type: twelve tokens, a token of the longest
accepted length, both at once, a repeated word, Japanese, emoji, two tokens, no pronoun
to follow. The default sentence is checked the same way by ``test_scenes`` (its ja/dark
render also serves the number and control-image checks).
"""

from __future__ import annotations

import pytest

from scenes.registry import CARDS, SECTIONS
from tests.support.layout_probe import assert_readable, probe_section
from tests.support.scene_harness import assert_drawn
from tests.support.sentences import LAYOUT as SENTENCES
from tests.support.shown_sums import SumReader

pytestmark = pytest.mark.slow

ALL = SECTIONS + CARDS

@pytest.fixture(scope="module")
def heads(tmp_path_factory):
    d = tmp_path_factory.mktemp("heads")
    out = {}
    for name, (sentence, _, _) in SENTENCES.items():
        p = d / f"{name}.toml"
        p.write_text(f'sentence = "{sentence}"\n', encoding="utf-8")
        out[name] = str(p)
    return out


#: Texts known to lie on an arrow's shaft or head today, ``(section, sentence) -> which
#: label on which arrow``: a strict xfail on those problems only
#: (:func:`tests.support.layout_probe.assert_readable`; every other check still fails the case, and
#: once no text lies on an arrow the case fails until it is struck off). Found when the probe
#: began checking texts against arrows; the fixes belong to the scenes.
KNOWN: dict[tuple[int, str], str] = {}

#: Token names known to be cut or shown two ways today, ``(section, sentence) -> why``: a
#: strict xfail on those problems only (every other problem still fails the case, and the
#: case fails once its names are right, so that it is struck off). Found when the probe began
#: checking token names (no token of 12 half-width cells or fewer cut; one cut per token per
#: section); the fixes belong to the widgets named.
TOKEN_NAMES_KNOWN: dict[tuple[int, str], str] = {}


def _strict_xfail_token_names(probe, known: str | None) -> None:
    """Take the known token-name problems off ``probe`` (xfailing the case at the end of its
    checks while they last), or fail a listed case whose names are right."""
    if known is None:
        return
    names = [p for p in probe.problems if "token names:" in p]
    if not names:
        pytest.fail(f"listed as known ({known}), but its token names are right: strike it off")
    probe.problems[:] = [p for p in probe.problems if p not in names]
    probe.known_names = names


def _cases():
    for section in ALL:
        for sentence in SENTENCES:
            yield pytest.param(section, sentence, id=f"{section.stem}-{sentence}")


@pytest.mark.scene
@pytest.mark.parametrize("section, sentence", list(_cases()))
def test_every_beat_is_readable(section, sentence, heads):
    words, lang, theme = SENTENCES[sentence]
    sums = SumReader(section.number)
    probe = probe_section(section, lang, theme, heads[sentence], on_moment=sums)
    assert probe.scene.story.tokens == words.split()
    assert probe.moments >= 2, "the probe saw no beat"
    assert_drawn(probe.frame, theme)
    sums.check(sentence)
    known_names = TOKEN_NAMES_KNOWN.get((section.number, sentence))
    _strict_xfail_token_names(probe, known_names)
    assert_readable(probe, KNOWN.get((section.number, sentence)))
    if known_names is not None:
        pytest.xfail(f"{known_names}: " + "; ".join(probe.known_names))


def _luminance(hex_colour: str) -> float:
    rgb = [int(hex_colour.lstrip("#")[k:k + 2], 16) / 255 for k in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _luma(hex_colour: str) -> float:
    r, g, b = (int(hex_colour.lstrip("#")[k:k + 2], 16) for k in (0, 2, 4))
    return 0.299 * r + 0.587 * g + 0.114 * b


@pytest.mark.parametrize("name", ["dark", "light"])
def test_signed_numbers_read_on_the_background_and_in_grayscale(name):
    from scenes.style import THEMES

    t = THEMES[name]
    for role in ("positive", "negative_text"):
        a, b = sorted((_luminance(getattr(t, role)), _luminance(t.background)))
        assert (b + 0.05) / (a + 0.05) >= 4.5, f"{name}.{role} is under WCAG AA on the background"
    # printed in grayscale, a negative number must still look different from a positive one
    assert abs(_luma(t.positive) - _luma(t.negative_text)) >= 40
