"""``label`` builds a text once and hands out copies: each call is a mobject of its own."""

from __future__ import annotations

import numpy as np
from manim import Text

from scenes import style
from scenes.widgets import text as text_mod
from scenes.widgets.text import label


def test_a_kept_label_is_copied_not_shared():
    a = label("cache", 20)
    a.shift(np.array([1.0, 2.0, 0.0])).set_color("#FF0000")
    b = label("cache", 20)
    assert b is not a and not any(x is y for x, y in zip(b.get_family(), a.get_family()))
    assert np.allclose(b.get_center(), label("cache", 20).get_center())
    assert not np.allclose(b.get_center(), a.get_center())
    assert b.get_color().to_hex().upper() == style.theme().fg.upper()


def test_a_kept_label_draws_like_a_new_text():
    """The same points and colour as a text built from scratch (nothing lost in the copy)."""
    kept = label("déjà vu 12", 24, "#336699")
    kept = label("déjà vu 12", 24, "#336699")
    fresh = Text("déjà vu 12", font=style.FONT, font_size=24, color="#336699")
    assert kept.text == fresh.text
    mine = [m.points for m in kept.get_family() if m.has_points()]
    theirs = [m.points for m in fresh.get_family() if m.has_points()]
    assert len(mine) == len(theirs) and all(np.array_equal(x, y) for x, y in zip(mine, theirs))


def test_other_arguments_other_labels():
    assert label("size", 20).height != label("size", 30).height
    assert label("w", 20, weight="BOLD").get_family()[1].points.shape != \
        label("w", 20).get_family()[1].points.shape or \
        not np.array_equal(label("w", 20, weight="BOLD").get_family()[1].points,
                           label("w", 20).get_family()[1].points)


def test_the_kept_texts_are_bounded(monkeypatch):
    monkeypatch.setattr(text_mod, "LABELS_KEPT", 3)
    monkeypatch.setattr(text_mod, "_built", type(text_mod._built)())
    for s in "abcde":
        label(s, 20)
    assert [k[0] for k in text_mod._built] == ["c", "d", "e"]


def test_long_texts_are_not_kept(monkeypatch):
    monkeypatch.setattr(text_mod, "_built", type(text_mod._built)())
    long = "x" * (text_mod.KEPT_CHARS + 1)
    a, b = label(long, 20), label(long, 20)
    assert a is not b and not text_mod._built
