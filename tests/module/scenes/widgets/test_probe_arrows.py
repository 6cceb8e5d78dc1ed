"""The layout probe catches a text lying on an arrow's shaft or head (tests/support/layout_probe.py)."""

from __future__ import annotations

import numpy as np
import pytest
from manim import Arrow, DoubleArrow, Scene, Text

from scenes.widgets.arrows import QuickArrow
from tests.support.layout_probe import Probe, arrows_drawn, assert_readable, check, check_arrows, text_boxes

LEFT, RIGHT = np.array([-2.0, 0.0, 0.0]), np.array([2.0, 0.0, 0.0])


def _label(s: str, x: float, y: float) -> Text:
    return Text(s, font_size=24).move_to(np.array([x, y, 0.0]))


def _found(*mobs) -> list[str]:
    scene = Scene()
    scene.add(*mobs)
    return check_arrows(text_boxes(scene), arrows_drawn(scene))


@pytest.fixture(params=["Arrow", "DoubleArrow", "QuickArrow"])
def arrow(request):
    if request.param == "QuickArrow":
        return QuickArrow("#FFFFFF").put(LEFT, RIGHT)
    cls = Arrow if request.param == "Arrow" else DoubleArrow
    return cls(LEFT, RIGHT, buff=0)


def test_a_label_on_the_shaft_fails_and_moved_clear_passes(arrow):
    assert _found(arrow, _label("ran", 0.0, 0.05)) == ["'ran' on the shaft of the "
                                                        f"{type(arrow).__name__} tipped at "
                                                        "(2.00, 0.00)"]
    assert _found(arrow, _label("ran", 0.0, 0.4)) == []


def test_a_label_on_the_head_fails_and_beyond_the_tip_passes(arrow):
    lab = _label("ran", 0.0, 0.0)
    lab.next_to(RIGHT, np.array([1.0, 0.0, 0.0]), buff=-0.1)    # over the head's point
    assert _found(arrow, lab) == ["'ran' on the head of its own arrow"]
    lab.next_to(RIGHT, np.array([1.0, 0.0, 0.0]), buff=0.15)    # the tip label's spot
    assert _found(arrow, lab) == []


def test_a_label_on_another_arrow_names_that_arrow_by_its_own_label():
    other = Arrow(np.array([0.0, -1.0, 0.0]), np.array([0.0, 1.0, 0.0]), buff=0)
    own = _label("k", 0.0, 1.3)
    assert _found(other, own, _label("the", 0.0, 0.0)) == [
        "'the' on the shaft of the arrow of 'k' (Arrow tipped at (0.00, 1.00))"]


def test_faded_or_vanishing_arrows_and_faded_labels_are_not_checked():
    on_shaft = _label("ran", 0.0, 0.05)
    faded = Arrow(LEFT, RIGHT, buff=0).set_opacity(0.0)
    assert _found(faded, on_shaft) == []
    dot = QuickArrow("#FFFFFF").put(np.zeros(3), np.array([0.02, 0.0, 0.0]))
    assert _found(dot, _label("ran", 0.0, 0.0)) == []
    assert _found(Arrow(LEFT, RIGHT, buff=0), on_shaft.copy().set_opacity(0.0)) == []


def test_the_probe_reports_a_label_on_a_shaft_at_the_moment_it_is_seen():
    scene = Scene()
    scene.add(Arrow(LEFT, RIGHT, buff=0), _label("ran", 0.0, 0.05))
    probe = Probe(3)
    check(scene, probe, "end of keys")
    assert probe.problems == [
        "s03 end of keys: 'ran' on the shaft of the Arrow tipped at (2.00, 0.00)"]


def _probe(*problems: tuple[str, bool]) -> Probe:
    probe = Probe(3)
    for what, on_arrow in problems:
        probe.add("last frame", what, on_arrow=on_arrow)
    return probe


def test_a_known_text_on_an_arrow_xfails_strictly_and_other_problems_still_fail():
    on_shaft = ("'ran' on the shaft of the Arrow tipped at (2.00, 0.00)", True)
    overlap = ("'ran' overlaps 'the' (0.10 x 0.10)", False)
    assert_readable(_probe())
    with pytest.raises(AssertionError, match="on the shaft"):
        assert_readable(_probe(on_shaft))
    with pytest.raises(pytest.xfail.Exception, match="'ran' on k"):
        assert_readable(_probe(on_shaft), "'ran' on k")
    with pytest.raises(pytest.fail.Exception, match="strike it off"):
        assert_readable(_probe(), "'ran' on k")
    with pytest.raises(AssertionError, match="overlaps"):
        assert_readable(_probe(on_shaft, overlap), "'ran' on k")
