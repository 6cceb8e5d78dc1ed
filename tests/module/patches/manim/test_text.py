"""The faster text build (:mod:`patches.manim.text`) makes what manim's own build makes.

The oracle is manim itself: the same string is built twice, once by manim's
``SVGMobject.generate_mobject`` (``MANIM_GENERATE``) and once by the fast one, and every
glyph's points, fill, stroke and class must be the same to the last bit, in the same order,
with the same size and place. Strings come from a list of awkward ones (both fonts, weights,
sizes, colours, kana and kanji, emoji, subscripts, spaces, ellipses) and from hypothesis.
"""

from __future__ import annotations

import re
import shutil

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from manim import Text

from patches.manim import text as text_patch
from scenes.style import FONT, MONO
from scenes.widgets.text import drawable
from tests.support.texts import text_built_by


def _build(s: str, generate, **style) -> Text:
    return text_built_by(generate, drawable(s), **style)


def _differences(ref: Text, got: Text) -> list[str]:
    """What differs between two texts, glyph by glyph, bit for bit."""
    a, b = ref.family_members_with_points(), got.family_members_with_points()
    if len(a) != len(b):
        return [f"{len(a)} glyphs against {len(b)}"]
    out = []
    for k, (g, h) in enumerate(zip(a, b)):
        for what, x, y in (("points", g.points, h.points), ("fill", g.get_fill_rgbas(), h.get_fill_rgbas()),
                           ("stroke", g.get_stroke_rgbas(), h.get_stroke_rgbas()),
                           ("stroke width", g.get_stroke_width(), h.get_stroke_width())):
            if not np.array_equal(x, y):
                out.append(f"glyph {k}: {what}")
        if type(g) is not type(h):
            out.append(f"glyph {k}: {type(g).__name__} against {type(h).__name__}")
    if len(ref.submobjects) != len(got.submobjects):
        out.append("submobjects")
    if not np.array_equal(ref.get_center(), got.get_center()) or ref.height != got.height:
        out.append("size or place")
    return out


def _assert_same(s: str, **style) -> None:
    ref = _build(s, text_patch.MANIM_GENERATE, **style)
    got = _build(s, text_patch.generate_mobject, **style)
    assert not _differences(ref, got), (s, style, _differences(ref, got))


STYLES = [
    dict(font=FONT, font_size=30, color="#ffffff"),
    dict(font=FONT, font_size=17.5, color="#e0604f"),
    dict(font=MONO, font_size=24, color="#1a1a1a", weight="BOLD"),
]

AWKWARD = [
    "The query of it meets the key of every token: one dot product per pair.",
    "クエリとキーの内積を √d で割る。各行は 1 つ、約 9 倍",
    "猫 が 魚 を 食べた そして それ は 走った",
    "the 🐈 chased a 🐁 and it ran 🍎",
    "w[supercalifr…] =", "it→expensi…", "−0.45", "1.2e−14", "x₁ y² q(it)", "W_Q · x = k",
    "a  b", "iii", "O0o", "e", "¶ §", "“ate” – ‘cat’",
]


@pytest.mark.parametrize("style", STYLES, ids=["caption", "small-colour", "mono-bold"])
@pytest.mark.parametrize("s", AWKWARD)
def test_awkward_strings_are_built_as_manim_builds_them(s, style):
    _assert_same(s, **style)


_CHARS = st.sampled_from(list("abcdefgxyzABQW0123456789 .,:;()[]=+−×√∞₁₂²→…")
                         + list("あいうかがきアイウ猫魚食走行列") + ["🐈", "🍎"])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_CHARS, min_size=1, max_size=24).map("".join).filter(str.strip))
def test_any_string_is_built_as_manim_builds_it(s):
    _assert_same(s, font=FONT, font_size=24, color="#ffffff")


def test_a_text_built_again_takes_its_glyphs_from_the_table(monkeypatch):
    """The second build of a text builds no glyph: every one comes from the table the first
    filled (pango draws a glyph anew for each fraction of a pixel its pen stands at, so two
    different texts share only some)."""
    _assert_same("attention", font=FONT, font_size=26)
    built = []
    glyph = text_patch._glyph
    monkeypatch.setattr(text_patch, "_glyph", lambda *a: built.append(a) or glyph(*a))
    _assert_same("attention", font=FONT, font_size=26)
    assert not built, "a glyph was built again"
    _assert_same("attention span", font=FONT, font_size=26)
    assert built, "the spy saw no glyph built"


def test_the_comparison_sees_one_bit():
    """The comparison would catch a point moved by one unit in the last place."""
    ref = _build("ate", text_patch.MANIM_GENERATE, font=FONT)
    got = _build("ate", text_patch.generate_mobject, font=FONT)
    assert not _differences(ref, got)
    glyph = got.family_members_with_points()[1]
    glyph.points[5, 0] = np.nextafter(glyph.points[5, 0], np.inf)
    assert _differences(ref, got) == ["glyph 1: points"]


def test_a_document_in_another_form_goes_to_manims_parser(tmp_path, monkeypatch):
    """A transform on the glyphs' group: not pango's plain form, so manim parses it, and
    the result is manim's."""
    calls = []
    manim_generate = text_patch.MANIM_GENERATE

    def counted(self):
        calls.append(self)
        return manim_generate(self)

    class Moved(Text):
        def _text2svg(self, color):
            plain = Text._text2svg(self, color)
            moved = tmp_path / "moved.svg"
            shutil.copy(plain, moved)
            svg = moved.read_text(encoding="utf-8")
            svg = re.sub(r"<g (?=[^>]*fill)", '<g transform="translate(3, 1)" ', svg, count=1)
            assert "transform" in svg
            moved.write_text(svg, encoding="utf-8")
            return str(moved)

    monkeypatch.setattr(Moved, "generate_mobject", text_patch.generate_mobject)
    monkeypatch.setattr(text_patch, "MANIM_GENERATE", counted)
    got = Moved("moved", font=FONT)
    assert calls == [got]
    monkeypatch.setattr(Moved, "generate_mobject", manim_generate)
    assert not _differences(Moved("moved", font=FONT), got)
