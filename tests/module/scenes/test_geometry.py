"""scenes.geometry: the kit's one box type and box operations, checked against oracles that
do not share its formulas (counting unit cells, sampling points, the shoelace area), and
without manim (the module imports none)."""

from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from scenes.geometry import (
    Box,
    beside,
    beyond,
    clash,
    clip_polygon,
    is_vertex,
    near,
    near_any,
    outside,
    overlap_area,
    overlap_areas,
)

ints = st.integers(min_value=-6, max_value=6)


@st.composite
def int_boxes(draw):
    l, r = sorted((draw(ints), draw(ints)))
    b, t = sorted((draw(ints), draw(ints)))
    return Box(float(l), float(r + 1), float(b), float(t + 1))


def cells(box: Box) -> set[tuple[int, int]]:
    """The unit cells of an integer box: an area oracle by counting."""
    return {(x, y) for x in range(int(box.l), int(box.r)) for y in range(int(box.b), int(box.t))}


def test_importing_the_geometry_loads_no_manim():
    """The geometry is testable without the renderer: importing it pulls in no manim."""
    out = subprocess.run([sys.executable, "-c", "import sys, scenes.geometry; "
                          "print('manim' in sys.modules)"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@given(int_boxes(), int_boxes())
def test_overlap_area_counts_the_shared_cells(a, b):
    assert overlap_area(a, b, 0.0) == len(cells(a) & cells(b))


@given(int_boxes(), st.lists(int_boxes(), max_size=5))
def test_clash_is_the_sum_of_the_overlaps(a, others):
    assert clash(a, others, 0.0) == sum(len(cells(a) & cells(o)) for o in others)
    assert list(overlap_areas(a, others, 0.0)) == [len(cells(a) & cells(o)) for o in others]


@given(int_boxes(), int_boxes(), st.sampled_from([-0.5, 0.0, 0.5, 1.5]))
def test_near_is_the_gap_between_the_boxes(a, b, gap):
    # The separation on each axis (negative: the overlap), read from sorted endpoints.
    sep_x = max(a.l, b.l) - min(a.r, b.r)
    sep_y = max(a.b, b.b) - min(a.t, b.t)
    expected = sep_x < gap and sep_y < gap
    assert near(a, b, gap) == expected
    assert near_any(a, [b], gap) == expected
    assert near_any([Box(50, 51, 50, 51), a], [b], gap) == expected


def test_near_any_of_nothing_is_false():
    assert not near_any(Box(0, 1, 0, 1), [], 1.0)
    assert not near_any([], [Box(0, 1, 0, 1)], 1.0)


def test_outside_sums_how_far_each_side_reaches_out():
    within = Box(0, 10, 0, 10)
    assert outside(Box(1, 2, 1, 2), within) == 0.0
    assert outside(Box(-1, 2, 1, 12), within) == 1.0 + 2.0
    assert outside(Box(-100, 100, -100, 100), None) == 0.0


def square_mob(w: float, h: float):
    """A stand-in mobject: the beside rules read only its size."""
    return SimpleNamespace(width=w, height=h)


def box_around(centre, mob) -> Box:
    return Box(centre[0] - mob.width / 2, centre[0] + mob.width / 2,
               centre[1] - mob.height / 2, centre[1] + mob.height / 2)


@pytest.mark.parametrize("rule", [beside, beyond])
@pytest.mark.parametrize("d", [(1, 0), (-1, 0), (0, 1), (0, -1)])
def test_a_label_beside_a_point_keeps_exactly_the_buffer(rule, d):
    point = np.array([0.3, -0.2, 0.0])
    mob = square_mob(1.2, 0.4)
    box = box_around(rule(point, np.array([*d, 0.0]), mob, 0.1), mob)
    # the nearest side of the label's box is 0.1 from the point, and it is centred on the ray
    gaps = {(1, 0): box.l - point[0], (-1, 0): point[0] - box.r,
            (0, 1): box.b - point[1], (0, -1): point[1] - box.t}
    assert gaps[d] == pytest.approx(0.1)
    across = box.center[1] - point[1] if d[1] == 0 else box.center[0] - point[0]
    assert across == pytest.approx(0.0)


@pytest.mark.parametrize("u", [(0.6, 0.8), (-0.8, 0.6), (-0.28, -0.96)])
def test_beyond_turns_the_label_round_the_tip(u):
    """Past a tip along a slant, the point of the box a fraction (1 - u) / 2 across it sits
    ``buff`` along the ray, and the whole box is on the far side of the tip."""
    point, u = np.array([1.0, 1.0, 0.0]), np.array(u)
    mob = square_mob(0.5, 0.3)
    box = box_around(beyond(point, u, mob, 0.2), mob)
    facing = [box.l + (1 - u[0]) / 2 * box.width, box.b + (1 - u[1]) / 2 * box.height]
    np.testing.assert_allclose(facing, point[:2] + 0.2 * u)
    corners = np.array([[x, y] for x in (box.l, box.r) for y in (box.b, box.t)])
    assert np.all((corners - point[:2]) @ u > 0)


def shoelace(poly) -> float:
    p = np.asarray(poly, float)
    x, y = p[:, 0], p[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


SQUARE = [np.array(p, float) for p in [(0, 0), (2, 0), (2, 2), (0, 2)]]


@pytest.mark.parametrize(("normal", "offset", "area"), [
    ((1, 0), 0.5, 3.0),      # x >= 0.5: a 1.5 x 2 strip
    ((-1, 0), -0.5, 1.0),    # x <= 0.5
    ((1, 1), 2.0, 2.0),      # above the diagonal x + y = 2: half the square
    ((1, 0), 5.0, 0.0),      # wholly outside
    ((0, 1), -1.0, 4.0),     # wholly inside
])
def test_clip_polygon_keeps_the_half_plane(normal, offset, area):
    out = clip_polygon(SQUARE, np.array(normal, float), offset)
    assert (shoelace(out) if len(out) >= 3 else 0.0) == pytest.approx(area)
    for p in out:
        assert float(p @ np.array(normal, float)) >= offset - 1e-12


@given(st.floats(-1, 3), st.floats(-1, 3), st.floats(0.1, 2), st.floats(0.1, 2))
def test_clipping_to_a_window_matches_sampled_points(x0, y0, w, h):
    """The square clipped to a window, four half-planes as section 21's zoom does, covers
    the share of sample points that lie in both."""
    poly = list(SQUARE)
    for normal, offset in (((1, 0), x0), ((-1, 0), -(x0 + w)), ((0, 1), y0), ((0, -1), -(y0 + h))):
        poly = clip_polygon(poly, np.array(normal, float), offset)
    g = np.linspace(-1, 5, 241)[:-1] + 0.0125
    xs, ys = np.meshgrid(g, g)
    inside = ((xs >= max(0, x0)) & (xs <= min(2, x0 + w)) & (ys >= max(0, y0))
              & (ys <= min(2, y0 + h)))
    sampled = inside.sum() * 0.025 ** 2
    assert (shoelace(poly) if len(poly) >= 3 else 0.0) == pytest.approx(sampled, abs=0.2)


def test_is_vertex_finds_a_hull_corner_and_not_an_inner_point():
    corners = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    assert is_vertex(corners, [1.0, 0.0])
    assert not is_vertex(corners, [0.2, 0.2])
    assert is_vertex(corners, [1.0 + 1e-12, 0.0])
