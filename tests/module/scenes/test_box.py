"""scenes.layout.Box: the frame rectangle scenes lay out in."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from manim import Square

from scenes.layout import Box

coords = st.floats(min_value=-7, max_value=7, allow_nan=False)


def test_unpacks_like_the_old_tuples():
    l, r, b, t = Box(-1.0, 3.0, -2.0, 0.5)
    assert (l, r, b, t) == (-1.0, 3.0, -2.0, 0.5)
    box = Box(-1.0, 3.0, -2.0, 0.5)
    assert box.width == 4.0 and box.height == 2.5
    np.testing.assert_allclose(box.center, [1.0, -0.75, 0.0])


@pytest.mark.parametrize(("where", "corner"), [
    ("top_left", (-1.0, 0.5)), ("bottom_right", (3.0, -2.0)), ("top", (1.0, 0.5)),
])
def test_place_puts_the_mobject_flush_in_the_corner(where, corner):
    box = Box(-1.0, 3.0, -2.0, 0.5)
    sq = box.place(Square(side_length=0.4), where)
    assert box.l - 1e-9 <= sq.get_left()[0] and sq.get_right()[0] <= box.r + 1e-9
    assert box.b - 1e-9 <= sq.get_bottom()[1] and sq.get_top()[1] <= box.t + 1e-9
    xs = [sq.get_left()[0], sq.get_right()[0], sq.get_center()[0]]
    ys = [sq.get_bottom()[1], sq.get_top()[1], sq.get_center()[1]]
    assert min(abs(x - corner[0]) for x in xs) < 1e-9 and min(abs(y - corner[1]) for y in ys) < 1e-9


def test_fit_only_shrinks():
    box = Box(0.0, 1.0, 0.0, 1.0)
    assert box.fit(Square(side_length=3.0)).width == pytest.approx(1.0)
    assert box.fit(Square(side_length=0.5)).width == pytest.approx(0.5)


@given(coords, coords, coords, coords, st.lists(st.floats(0.05, 1.0), min_size=1, max_size=5),
       st.floats(0.0, 0.3))
def test_split_tiles_the_box(x0, x1, y0, y1, weights, gap):
    box = Box(min(x0, x1), max(x0, x1) + 1.0, min(y0, y1), max(y0, y1) + 1.0)
    fractions = [w / sum(weights) for w in weights]
    for parts, lo, hi, size in ((box.columns(*fractions, gap=gap), "l", "r", "width"),
                                (box.rows(*fractions, gap=gap), "t", "b", "height")):
        assert getattr(parts[0], lo) == pytest.approx(getattr(box, lo))
        assert getattr(parts[-1], hi) == pytest.approx(getattr(box, hi))
        total = sum(getattr(p, size) for p in parts) + gap * (len(parts) - 1)
        assert total == pytest.approx(getattr(box, size))


def test_split_rejects_fractions_not_summing_to_one():
    with pytest.raises(ValueError):
        Box(0, 1, 0, 1).columns(0.5, 0.4)


@pytest.mark.parametrize("where", ["top_left", "top_right", "bottom_left", "bottom_right"])
def test_corners_are_the_boxs_own_coordinates(where):
    """Exactly, not centre +- half size (which rounds): scenes swap hand-written
    move_to(..., aligned_edge=...) for place() without moving anything."""
    box = Box(-7.0, -6.3, -3.1, 2.7)     # centre +- half size misses 3 of these corners
    x, y, _ = box.point(where)
    assert x == (box.l if "left" in where else box.r)
    assert y == (box.t if "top" in where else box.b)


def test_above_and_below_cut_the_box_at_a_line():
    box = Box(0.0, 2.0, -1.0, 3.0)
    assert box.above(0.5) == Box(0.0, 2.0, 0.5, 3.0)
    assert box.below(0.5) == Box(0.0, 2.0, -1.0, 0.5)
    assert box.above(-5.0) == box and box.below(5.0) == box
