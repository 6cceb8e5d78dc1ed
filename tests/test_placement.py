"""The shared placement pass keeps labels off arrows' shafts (scenes/widgets/placement.py)."""

from __future__ import annotations

import numpy as np
from manim import Arrow, Rectangle

from scenes.widgets.placement import arrow_marks, box_of, clear_lines, line_marks, near
from scenes.widgets.projection import spread_labels

#: The plane the labels stay inside (left, right, bottom, top).
PLANE = (-4.0, 4.0, -3.0, 3.0)


def _label(x: float, y: float):
    """A label-sized box centred at (x, y)."""
    return Rectangle(width=0.5, height=0.25).move_to(np.array([x, y, 0.0]))


def _arrow():
    return Arrow(np.array([-2.0, 0.0, 0.0]), np.array([2.0, 0.0, 0.0]), buff=0)


def test_label_on_a_shaft_moves_off_it():
    shafts, heads = arrow_marks([_arrow()])
    lab = _label(0.0, 0.05)
    assert any(near(box_of(lab), m, 0.0) for m in shafts)
    assert clear_lines([lab], shafts, heads, box=PLANE) == [0]
    assert not any(near(box_of(lab), m, 0.0) for m in shafts + heads)
    assert np.linalg.norm(lab.get_center()[:2] - [0.0, 0.05]) < 0.5   # the nearest free spot


def test_label_clear_of_shafts_and_labels_stays():
    shafts, heads = arrow_marks([_arrow()])
    a, b = _label(0.0, 0.6), _label(1.0, -0.6)
    where = [a.get_center().copy(), b.get_center().copy()]
    assert clear_lines([a, b], shafts, heads, box=PLANE) == []
    assert np.allclose(a.get_center(), where[0]) and np.allclose(b.get_center(), where[1])


def test_spread_labels_without_lines_is_unchanged_and_with_them_gives_a_leader():
    lab = _label(0.0, 0.0)
    assert spread_labels([lab], box=PLANE) == []
    assert np.allclose(lab.get_center(), 0.0)
    # A long vertical shaft through the label: it moves off, a leader joins it to its anchor
    # only if it went far.
    lines = line_marks(np.array([0.0, -2.5, 0.0]), np.array([0.0, 2.5, 0.0]))
    leaders = spread_labels([lab], box=PLANE, lines=lines, anchors=[np.zeros(3)])
    assert not any(near(box_of(lab), m, 0.0) for m in lines)
    assert len(leaders) == (np.linalg.norm(lab.get_center()) > 0.45)
