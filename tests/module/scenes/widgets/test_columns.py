"""scenes.widgets.columns: the geometry every column chart shares."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from manim import Square, VMobject

from scenes.widgets.columns import ColumnSlots, ValueAxis, place_past, set_bar, set_rect
from scenes.widgets.redrawn import live_source


def test_slots_across_a_span_divide_it_equally():
    slots = ColumnSlots.across(-2.0, 4.0, 3)
    assert slots.pitch == 2.0
    np.testing.assert_allclose(slots.xs, [-1.0, 1.0, 3.0])
    assert slots.x(0.5) == pytest.approx(0.0)          # a column on the move
    assert slots.span == pytest.approx((-2.0, 4.0))


def test_value_axis_maps_lo_and_hi_onto_bottom_and_top():
    axis = ValueAxis(-1.0, 3.0, 0.0, 2.0)
    assert axis.y(-1.0) == 0.0 and axis.y(3.0) == 2.0 and axis.y(0.0) == 0.5


def test_set_rect_draws_the_rectangle_in_place():
    mob = set_rect(VMobject(), -1.0, 2.0, 0.5, 1.5)
    np.testing.assert_allclose(mob.get_corner([-1, -1, 0]), [-1.0, 0.5, 0.0])
    np.testing.assert_allclose(mob.get_corner([1, 1, 0]), [2.0, 1.5, 0.0])


@pytest.mark.parametrize("y_to", [2.0, -2.0])
def test_a_bar_rises_or_falls_from_its_foot(y_to):
    bar = set_bar(VMobject(), 1.0, 0.0, y_to, 0.5)
    assert bar.width == pytest.approx(0.5) and bar.get_x() == pytest.approx(1.0)
    assert bar.height == pytest.approx(2.0)
    assert bar.get_y() == pytest.approx(y_to / 2)


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_a_zero_bar_keeps_min_height_in_its_direction(sign):
    bar = set_bar(VMobject(), 0.0, 1.0, 1.0 + sign * 1e-6, 0.5, min_height=1e-3)
    assert bar.height == pytest.approx(1e-3)
    assert np.sign(bar.get_y() - 1.0) == sign


@pytest.mark.parametrize("up", [True, False])
def test_place_past_puts_the_near_side_on_the_edge(up):
    mob = place_past(Square(side_length=0.4), 2.0, 1.0, up)
    assert mob.get_x() == pytest.approx(2.0)
    near = mob.get_bottom()[1] if up else mob.get_top()[1]
    assert near == pytest.approx(1.0)


def test_live_source_is_shared_by_copies():
    calls = []
    src = live_source(lambda: calls.append(1) or 7)
    assert copy.deepcopy(src) is src and copy.copy(src) is src
    assert src() == 7 and calls == [1]
    assert live_source(3.0)() == 3.0 and live_source(None) is None
