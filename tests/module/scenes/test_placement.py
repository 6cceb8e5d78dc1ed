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


def test_avoided_lines_do_not_move_a_label_but_a_label_moved_keeps_off_them():
    shafts, heads = arrow_marks([_arrow()])
    axis = line_marks(np.array([0.0, -2.5, 0.0]), np.array([0.0, 2.5, 0.0]))
    resting = _label(0.0, 0.6)           # on the vertical line, clear of the arrow
    where = resting.get_center().copy()
    assert clear_lines([resting], shafts, heads, box=PLANE, avoid=axis) == []
    assert np.allclose(resting.get_center(), where)
    moved = _label(0.0, 0.05)            # on the arrow and on the vertical line
    assert clear_lines([moved], shafts, heads, box=PLANE, avoid=axis) == [0]
    assert not any(near(box_of(moved), m, 0.0) for m in shafts + heads + axis)


def test_a_quick_arrow_has_the_marks_of_the_arrow_it_draws():
    from scenes.widgets.plane import QuickArrow

    left, right = np.array([-2.0, 0.0, 0.0]), np.array([2.0, 0.0, 0.0])
    quick = QuickArrow("#FFFFFF").put(left, right)
    drawn = Arrow(left, right, buff=0, tip_length=0.22, max_tip_length_to_length_ratio=0.18)
    (shafts, heads), (q_shafts, q_heads) = arrow_marks([drawn]), arrow_marks([quick])
    # the same stretch of line, marked from the start to the head's centre, and the same head
    span = [np.r_[np.min(np.array(m)[:, [0, 2]], axis=0), np.max(np.array(m)[:, [1, 3]], axis=0)]
            for m in (shafts, q_shafts)]
    assert np.allclose(span[0], span[1], atol=0.05)
    assert len(q_heads) == 1 and np.allclose(q_heads, heads, atol=0.02)
    # a vector of length zero draws nothing: nothing to keep off
    assert arrow_marks([QuickArrow("#FFFFFF").put(left, left)]) == ([], [])


def test_a_live_label_settles_off_the_arrows_noted_on_its_plane():
    from scenes.widgets.plane import VectorPlane

    plane = VectorPlane(PLANE, (-4, 4), (-3, 3))
    lab = _label(0.0, 0.0)
    wish = plane.c2p((0.0, 0.05))
    plane.settle_live(lab, wish, plane.live_state(lab))
    assert np.allclose(lab.get_center(), wish)      # no arrow noted: the label stays
    arrow = plane.arrow((3.0, 0.0), "#FFFFFF")
    plane.register_arrows(arrow)
    state = plane.live_state(lab)
    plane.settle_live(lab, wish, state)
    shafts, heads = arrow_marks([arrow])
    assert not any(near(box_of(lab), m, 0.0) for m in shafts + heads)
    assert np.linalg.norm(lab.get_center() - wish) < 0.5   # the nearest free spot


def test_box_of_is_manims_bounding_box():
    """The one-pass box equals manim's own getters (anchors for a VMobject family, all
    points for other mobjects; a Bezier handle beyond the anchors does not count)."""
    from manim import Circle, Dot, Group, Square, Text, VGroup, VMobject

    bulge = VMobject().set_points(np.array([[0, 0, 0], [0, 3, 0], [1, 3, 0], [1, 0, 0.0]]))
    for mob in [Circle().shift(np.array([1.0, -2.0, 0.0])), _arrow(), bulge,
                Group(Square(), bulge.copy().shift(np.array([3.0, 0.0, 0.0]))),
                VGroup(Dot(), Text("xy", font_size=20).shift(np.array([0.0, -2.0, 0.0]))),
                VGroup()]:
        manim_box = (mob.get_left()[0], mob.get_right()[0], mob.get_bottom()[1], mob.get_top()[1])
        assert box_of(mob) == tuple(float(v) for v in manim_box), type(mob).__name__
    assert box_of(bulge)[3] == 0.0          # the handles at y = 3 are not the box
    assert box_of(Group(bulge))[3] == 3.0   # ... unless the group is no VMobject (manim's rule)


def test_a_planes_arrow_marks_follow_the_arrow():
    """The plane works the marks out again once an arrow moves (they are kept in between)."""
    from scenes.widgets.plane import QuickArrow, VectorPlane

    plane = VectorPlane(PLANE, (-2, 2), (-2, 2))
    arrow = QuickArrow("#FFFFFF").put(np.array([0.0, 0.0, 0.0]), np.array([2.0, 0.0, 0.0]))
    plane.register_arrows(arrow)
    assert plane.arrow_boxes() == arrow_marks([arrow])
    arrow.put(np.array([0.0, 0.0, 0.0]), np.array([0.0, 2.0, 0.0]))
    assert plane.arrow_boxes() == arrow_marks([arrow])
    assert plane.copy().arrow_boxes() == arrow_marks([arrow])   # a copy draws the same arrows
