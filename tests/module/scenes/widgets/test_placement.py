"""The shared placement pass keeps labels off arrows' shafts (scenes/widgets/placement.py)."""

from __future__ import annotations

import numpy as np
from manim import Arrow, Rectangle

from scenes import style
from scenes.widgets.placement import (
    LEADER_AFTER,
    arrow_marks,
    box_of,
    clear_lines,
    line_marks,
    near,
    spread_labels,
)

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
    # One vertical shaft through the label: a short step clears it, and a label that moved
    # less than LEADER_AFTER needs no leader.
    lines = line_marks(np.array([0.0, -2.5, 0.0]), np.array([0.0, 2.5, 0.0]))
    assert spread_labels([lab], box=PLANE, lines=lines, anchors=[np.zeros(3)]) == []
    assert not any(near(box_of(lab), m, 0.0) for m in lines)
    assert 0.0 < np.linalg.norm(lab.get_center()) <= LEADER_AFTER
    # A bundle of shafts as wide as 1.2: the label has to go far, and one leader joins it
    # from its anchor to the label's edge.
    far = _label(0.0, 0.0)
    bundle = [m for x in np.arange(-0.6, 0.61, 0.15)
              for m in line_marks(np.array([x, -2.5, 0.0]), np.array([x, 2.5, 0.0]))]
    anchor = np.array([0.0, 0.0, 0.0])
    leaders = spread_labels([far], box=PLANE, lines=bundle, anchors=[anchor])
    assert not any(near(box_of(far), m, 0.0) for m in bundle)
    assert np.linalg.norm(far.get_center()) > LEADER_AFTER
    (leader,) = leaders
    assert np.allclose(leader.get_start(), anchor)
    l, r, b, t = box_of(far)
    end = leader.get_end()
    assert l - 1e-6 <= end[0] <= r + 1e-6 and b - 1e-6 <= end[1] <= t + 1e-6


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
    from scenes.widgets.arrows import QuickArrow

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
    from scenes.widgets.arrows import QuickArrow
    from scenes.widgets.plane import VectorPlane

    plane = VectorPlane(PLANE, (-2, 2), (-2, 2))
    arrow = QuickArrow("#FFFFFF").put(np.array([0.0, 0.0, 0.0]), np.array([2.0, 0.0, 0.0]))
    plane.register_arrows(arrow)
    assert plane.arrow_boxes() == arrow_marks([arrow])
    arrow.put(np.array([0.0, 0.0, 0.0]), np.array([0.0, 2.0, 0.0]))
    assert plane.arrow_boxes() == arrow_marks([arrow])
    assert plane.copy().arrow_boxes() == arrow_marks([arrow])   # a copy draws the same arrows


def test_least_cost_takes_the_first_cheapest_and_stops_when_good_enough():
    from scenes.widgets.placement import least_cost

    costs = {"a": 3.0, "b": 1.0, "c": 1.0, "d": 0.0, "e": 0.0}
    asked = []

    def cost(c):
        asked.append(c)
        return costs[c]

    assert least_cost("abc", cost) == ("b", 1.0)             # ties keep the earlier one
    asked.clear()
    assert least_cost("abdec", cost) == ("d", 0.0) and asked == list("abd")   # stops at 0
    assert least_cost("abdec", cost, enough=-np.inf)[0] == "d"
    assert least_cost([1.0, 0.9999999999], lambda x: x, margin=1e-9)[0] == 1.0
    assert least_cost([], cost) == (None, float("inf"))


def test_line_marks_from_a_fraction_of_the_way_with_a_count():
    start, end = np.array([0.0, 0.0, 0.0]), np.array([2.0, 0.0, 0.0])
    marks = line_marks(start, end, half=0.04, count=18, begin=0.15)
    centres = [((m[0] + m[1]) / 2, (m[2] + m[3]) / 2) for m in marks]
    assert len(marks) == 18 and np.allclose(centres[0], (0.3, 0.0))
    assert np.allclose(centres[-1], (2.0, 0.0))
    assert all(np.isclose(m[1] - m[0], 0.08) for m in marks)
    # the default: a mark every LINE_STEP, both ends included
    from scenes.widgets.placement import LINE_STEP
    default = line_marks(start, end)
    assert len(default) == int(2.0 / LINE_STEP) + 1


def test_a_label_beside_a_point_takes_the_free_side():
    from scenes.widgets.placement import SIDES, place_beside

    point = np.array([0.0, 0.0, 0.0])
    free = _label(0.0, 0.0)
    assert place_beside(free, point, []) == []
    assert free.get_center()[0] > 0 and np.isclose(free.get_center()[1], 0.0)   # right first
    # a block against the right of the point: the first side in SIDES clear of it wins
    block = Rectangle(width=1.0, height=0.4).move_to(np.array([0.7, 0.0, 0.0]))
    lab = _label(0.0, 0.0)
    place_beside(lab, point, [block])
    assert not near(box_of(lab), box_of(block), 0.0)
    probe, first_clear = _label(0.0, 0.0), None
    for d in SIDES:   # the oracle: try each side by hand, in order
        off = style.NEAR + 0.5 * abs(d[0]) * probe.width + 0.5 * abs(d[1]) * probe.height
        probe.move_to(point + off * d)
        if not near(box_of(probe), box_of(block), 0.04):
            first_clear = probe.get_center().copy()
            break
    assert np.allclose(lab.get_center(), first_clear)


def test_static_tip_labels_turn_off_another_arrows_shaft():
    """Two arrows from the origin at a small angle: straight beyond the short one's tip the
    label would lie on the long one's shaft; it turns round its tip instead, off that shaft,
    clear of the other label and inside the plane."""
    from scenes.widgets.plane import VectorPlane
    from scenes.widgets.tip_labels import STATIC_TURNS, tip_labels

    plane = VectorPlane(PLANE, (-4, 4), (-3, 3))
    long, short = np.array([3.5, 1.0]), np.array([1.2, 0.3])
    labs = tip_labels(plane, [(long, "long"), (short, "short")], "#FFFFFF", 24)
    shaft = line_marks(plane.origin, plane.c2p(long))
    assert not any(near(box_of(labs[1]), m, 0.0) for m in shaft)
    assert not near(box_of(labs[0]), box_of(labs[1]), 0.0)
    l, r, b, t = plane.frame_box()
    for lab in labs:
        x0, x1, y0, y1 = box_of(lab)
        assert l <= x0 and x1 <= r and b <= y0 and y1 <= t
    assert len(list(STATIC_TURNS.spots(np.zeros(3), 0.0, labs[0], 0.12))) == 24


def test_a_label_kept_away_from_another_arrow_tries_the_far_side_first():
    from scenes.widgets.tip_labels import away_turns, turned

    assert away_turns(1.0)[:3] == [0.0, 30.0, -30.0]
    assert away_turns(-1.0)[:3] == [0.0, -30.0, 30.0]
    assert sorted(abs(t) for t in away_turns(1.0)) == [0, 30, 30, 60, 60, 90, 90, 120, 120, 150, 150]
    # a turn of 90 degrees from an arrow along x puts the label straight above its tip
    lab = _label(0.0, 0.0)
    centre = turned(np.array([1.0, 0.0, 0.0]), 0.0, 90.0, lab, 0.1)
    assert np.allclose(centre, [1.0, 0.1 + lab.height / 2, 0.0])


def test_a_planes_range_pads_the_points_and_snaps_to_its_step():
    from scenes.widgets.plane import data_range

    point = np.array([[0.3, 0.4]])
    assert data_range(point) == (-1.0, 1.0, -1.0, 1.0)          # whole units, origin padded too
    # the value planes: half units, the origin included without padding
    assert data_range(point, pad=0.2, step=0.5, pad_origin=False) == (0.0, 0.5, 0.0, 1.0)
    assert data_range(point, pad=0.2, include_origin=False, step=0.5) == (0.0, 0.5, 0.0, 1.0)
    assert data_range(np.array([[2.0, 2.0]]), pad=0.2, include_origin=False, step=0.5) == (
        1.5, 2.5, 1.5, 2.5)


def test_least_cost_with_a_floor_finds_what_the_full_search_finds():
    """Candidates ordered outward, each costing at least its distance: stopping once the best
    is below the next ring's floor loses nothing, and looks at fewer candidates."""
    from scenes.widgets.placement import least_cost

    rng = np.random.default_rng(3)
    looked = 0
    for _ in range(200):
        dist = np.sort(rng.uniform(0, 2, 30))
        extra = rng.choice([0.0, 0.0, 5.0], 30)
        seen = []

        def cost(i, dist=dist, extra=extra, seen=seen):
            seen.append(i)
            return dist[i] + extra[i]

        full = min(range(30), key=lambda i: (dist[i] + extra[i], i))
        got, _ = least_cost(range(30), cost, enough=-1.0, floor=lambda i, dist=dist: dist[i] + 1e-9)
        assert got == full
        looked += len(seen)
    assert looked < 200 * 30 / 2
