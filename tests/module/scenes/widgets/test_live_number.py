"""Tests of scenes.widgets.live_number: formatting, geometry against Text, the no-rebuild rule.

Speed is measured in bench/bench_numbers.py, never asserted here.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from manim import (
    DEFAULT_FONT_SIZE,
    RED,
    UP,
    FadeIn,
    Mobject,
    Scene,
    Text,
    Transform,
    ValueTracker,
    tempconfig,
)

from attn_math.fmt import fmt
from scenes.widgets import live_number as ln
from scenes.widgets.live_number import MINUS, LiveNumber

FONT = ln.DEFAULT_FONT


def plain(s: str) -> str:
    """The string Python's float() can read back."""
    return s.replace(MINUS, "-").replace(",", "")


# --------------------------------------------------------------------------------- text


@pytest.mark.parametrize(
    ("value", "kwargs"),
    [
        (-3.02, {}),
        (-0.004, dict(show_sign=True)),
        (0.5, dict(show_sign=True, decimals=1)),
        (1.2e-14, dict(sci=True, sci_decimals=1)),
        (0.004, dict(sci="auto", sci_below=0.005, sci_decimals=1)),
        (0.006, dict(sci="auto", sci_below=0.005, sci_decimals=1)),
        (2.5e6, dict(sci="auto", sci_at=1e6, sci_decimals=0)),
        (1234567.891, dict(thousands=True)),
        (float("nan"), {}),
        (float("-inf"), {}),
    ],
)
def test_text_is_attn_math_fmt(value, kwargs):
    """The digits on screen are fmt's, every option passed through (prefix and unit added)."""
    n = LiveNumber(value, prefix="≈", unit=" s", extra_glyphs="NaN∞≈", **kwargs)
    options = dict(kwargs)
    decimals = options.pop("decimals", 2)
    sign = options.pop("show_sign", False)
    assert n.text == "≈" + fmt(value, decimals, sign=sign, **options) + " s"


@pytest.mark.parametrize(
    ("text", "point"),
    [("−3.02", 2), ("1,536", 5), ("2e6", 1), ("−1.5e−9", 2), ("∞", 1), ("NaN", 3), ("0", 1)],
)
def test_decimal_point_index(text, point):
    assert ln.decimal_point_index(text) == point


# ----------------------------------------------------------------------------------- geometry


def glyph_boxes(mob):
    return [(np.min(m.points, axis=0), np.max(m.points, axis=0)) for m in mob.submobjects]


def test_outlines_match_text_exactly_at_default_size():
    t = Text("\u22123.02", font=FONT)
    n = LiveNumber(123.456)  # different string first: updates must reach the same result
    n.set_value(-3.02).move_to(t)
    assert n.text == "\u22123.02"
    assert len(n.submobjects) == len(t.submobjects) == 5
    for a, b in zip(n.submobjects, t.submobjects, strict=True):
        assert a.points.shape == b.points.shape
        np.testing.assert_allclose(a.points, b.points, atol=1e-9)
    np.testing.assert_allclose(n.get_center(), t.get_center(), atol=1e-9)


@pytest.mark.parametrize(
    ("value", "kwargs", "string"),
    [
        (-3.02, {}, "\u22123.02"),
        # letters make pango shape the digits as Latin: different digit outlines
        (6.7e-14, dict(sci=True, sci_decimals=1), "6.7e\u221214"),
        (1536.25, dict(thousands=True, unit=" ms"), "1,536.25 ms"),
        (0.5, dict(show_sign=True, unit="%"), "+0.50%"),
    ],
)
@pytest.mark.parametrize("font_size", [DEFAULT_FONT_SIZE, 30])
def test_outlines_match_text(value, kwargs, string, font_size):
    t = Text(string, font=FONT, font_size=font_size)
    n = LiveNumber(value, font_size=font_size, **kwargs).move_to(t)
    assert n.text == string
    # Text's outlines are quantised to 1/64 pango unit at its own size: off the reference size
    # expect ~1e-3 em of difference (sub-pixel); at the default size only the pen positions can
    # differ, by pango's position rounding (~1e-7 em).
    em = font_size * ln.EM_PER_FONT_SIZE
    tol = 1e-6 * em if font_size == DEFAULT_FONT_SIZE else 4e-3 * em
    assert [len(m.points) for m in n] == [len(m.points) for m in t]
    for (lo1, hi1), (lo2, hi2) in zip(glyph_boxes(n), glyph_boxes(t), strict=True):
        np.testing.assert_allclose(lo1, lo2, atol=tol)
        np.testing.assert_allclose(hi1, hi2, atol=tol)


def test_style_matches_text():
    t = Text("1", font=FONT, color=RED)
    n = LiveNumber(1, decimals=0, color=RED)
    a, b = n[0], t[0]
    np.testing.assert_allclose(a.fill_rgbas, b.fill_rgbas)
    np.testing.assert_allclose(a.stroke_rgbas, b.stroke_rgbas)
    assert a.get_stroke_width() == b.get_stroke_width() == 0


VALUES = [1.5, -1.5, 0.0, 12.25, -1234.5, 99999.99, -0.004, 7.0]


@pytest.mark.parametrize("align", ["point", "left", "right"])
def test_anchor_does_not_move(align):
    n = LiveNumber(3.14159, decimals=3, align=align, unit=" s")
    n.move_to([1.25, -0.5, 0])
    anchor = n.get_anchor()
    for v in VALUES:
        n.set_value(v)
        np.testing.assert_allclose(n.get_anchor(), anchor, atol=1e-12)
    if align == "point":
        dot = n.submobjects[n.text.replace(" ", "").index(".")]
        box = (dot.get_left(), dot.get_bottom())
        n.set_value(-98765.4321)
        dot = n.submobjects[n.text.replace(" ", "").index(".")]
        np.testing.assert_allclose((dot.get_left(), dot.get_bottom()), box, atol=1e-12)
    if align == "left":  # same first glyph, so the same ink edge
        left = n.set_value(1.5).get_left()
        np.testing.assert_allclose(n.set_value(1234.5).get_left(), left, atol=1e-12)
    if align == "right":  # same last glyph
        right = n.set_value(1.5).get_right()
        np.testing.assert_allclose(n.set_value(-98765.4321).get_right(), right, atol=1e-12)


def test_anchor_does_not_move_when_decimal_count_changes():
    n = LiveNumber(2.5, decimals=1).shift(UP)
    anchor = n.get_anchor()
    n.set_decimals(4)
    assert n.text == "2.5000"
    np.testing.assert_allclose(n.get_anchor(), anchor, atol=1e-12)
    n.move_anchor_to([1.0, -2.0, 0.0])
    np.testing.assert_allclose(n.get_anchor(), [1.0, -2.0, 0.0], atol=1e-12)
    dot = n[1]  # "." of "2.5000": its pen origin is the anchor
    assert dot.get_left()[0] > 1.0 and abs(dot.get_bottom()[1] + 2.0) < 0.01


def test_user_transforms_survive_updates():
    n = LiveNumber(1.5)
    n.move_to([2, 1, 0]).scale(1.7).rotate(0.3)
    anchor = n.get_anchor()
    n.set_value(-1234.5)
    np.testing.assert_allclose(n.get_anchor(), anchor, atol=1e-9)
    # the same as a fresh number put through the same transformations about its anchor
    ref = LiveNumber(-1234.5)
    a0 = ref.get_anchor()
    ref.scale(1.7, about_point=a0).rotate(0.3, about_point=a0).shift(anchor - a0)
    for a, b in zip(n, ref, strict=True):
        np.testing.assert_allclose(a.points, b.points, atol=1e-9)
    assert n.font_size == pytest.approx(1.7 * DEFAULT_FONT_SIZE)


def test_font_size_property():
    n = LiveNumber(1.0, font_size=30)
    assert n.font_size == pytest.approx(30)
    anchor = n.get_anchor()
    n.font_size = 60
    assert n.font_size == pytest.approx(60)
    np.testing.assert_allclose(n.get_anchor(), anchor, atol=1e-12)
    assert n.height == pytest.approx(LiveNumber(1.0, font_size=60).height)


def test_hidden_slots_take_current_style():
    n = LiveNumber(1.0)
    n.set_value(123456.0)  # grows the pool
    n.set_value(1.0)  # hides slots
    n.set_color(RED)  # reaches only the visible glyphs
    n.set_value(123456.0)
    for m in n:
        np.testing.assert_allclose(m.fill_rgbas, n[0].fill_rgbas)
    np.testing.assert_allclose(n[-1].get_fill_color().to_rgb(), RED.to_rgb())


def test_set_value_repairs_glyphs_reshaped_by_an_animation():
    n = LiveNumber(1.0)
    fresh = [m.points.copy() for m in n]
    n.align_data(Text("wxyz", font=FONT))  # what Transform.begin does to the mobject
    assert [len(m.points) for m in n] != [len(p) for p in fresh]
    n.set_value(1.0)  # same string, but the glyphs must be redrawn
    assert [len(m.points) for m in n] == [len(p) for p in fresh]
    shift = n[0].points[0] - fresh[0][0]
    for m, p in zip(n, fresh, strict=True):
        np.testing.assert_allclose(m.points, p + shift, atol=1e-9)


def test_copy_is_independent():
    n = LiveNumber(1.0)
    c = n.copy()
    c.set_value(-42.0).shift(UP)
    assert n.text == "1.00" and c.text == "\u221242.00"
    assert all(m in c._pool for m in c.submobjects)
    assert not any(m in n._pool for m in c.submobjects)
    assert c._glyph_set is n._glyph_set  # the cache is shared, never copied


def test_follow_tracker_or_callable():
    t = ValueTracker(2.5)
    n = LiveNumber(0.0).follow(t)
    assert n.text == "2.50"  # follow() updates at once
    t.set_value(-7.125)
    n.update()
    assert n.text == "\u22127.13" and n.get_value() == -7.125
    box = {"v": 1.0}
    n.follow(lambda: box["v"] * 3)  # replaces the tracker binding
    assert len(n.get_updaters()) == 1 and n.text == "3.00"
    n.unfollow()
    assert n.get_updaters() == []
    shown = []
    n.follow(t, setter=lambda mob, v: shown.append((mob, v)))
    assert shown == [(n, -7.125)]
    n.copy().update()  # copies keep the updater but do not follow
    assert len(shown) == 1


# ------------------------------------------------------------------------- no rebuild on update


def test_update_creates_no_text_and_copies_nothing(monkeypatch):
    n = LiveNumber(0.0, decimals=3, sci="auto", sci_decimals=1, unit=" ms", thousands=True)
    calls = {"text": 0, "copy": 0}
    real_init, real_deepcopy = Text.__init__, Mobject.__deepcopy__

    def counting_init(self, *a, **k):
        calls["text"] += 1
        real_init(self, *a, **k)

    def counting_deepcopy(self, memo):
        calls["copy"] += 1
        return real_deepcopy(self, memo)

    monkeypatch.setattr(Text, "__init__", counting_init)
    monkeypatch.setattr(Mobject, "__deepcopy__", counting_deepcopy)
    # the counters work (else this test could not fail)
    Text("1", font=FONT).copy()
    assert calls["text"] == 1 and calls["copy"] >= 1
    calls.update(text=0, copy=0)

    rng = np.random.default_rng(0)
    values = np.concatenate([
        rng.uniform(-2000, 2000, 60),
        10.0 ** rng.uniform(-12, 9, 30),
        -(10.0 ** rng.uniform(-9, 3, 10)),
    ])
    seen = set()
    for v in values:
        n.set_value(v)
        seen.add(n.text)
    assert len(seen) > 90
    assert any("e" in s for s in seen) and any(s.startswith(MINUS) for s in seen)
    assert calls == {"text": 0, "copy": 0}


def test_unwarmed_glyph_is_rendered_once():
    n = LiveNumber(1.0)
    gs = n._glyph_set
    n.set_value(float("nan"))  # "NaN" was never asked for: rendered on demand...
    assert n.text == "NaN"
    before = gs.text_renders
    n.set_value(1.0)
    n.set_value(float("nan"))  # ...but only once
    assert gs.text_renders == before


# ----------------------------------------------------------------------------- inside a scene


@pytest.mark.scene
@pytest.mark.slow
def test_animating_a_following_number_while_its_tracker_moves(tmp_path):
    """The pattern that breaks DecimalNumber: FadeIn / .animate / Transform of a number whose
    updater changes its glyph count during the animation."""

    class Demo(Scene):
        def construct(self):
            t = ValueTracker(1.0)
            n = LiveNumber(1.0).follow(t)
            self.play(FadeIn(n, shift=UP), t.animate.set_value(-1234.5), run_time=0.4)
            self.after_fade = n.text
            self.play(n.animate.shift(UP).scale(1.5), t.animate.set_value(7.0), run_time=0.4)
            self.after_move = n.text
            self.play(Transform(n, Text("x", font=FONT)), t.animate.set_value(-99.5),
                      run_time=0.4)
            self.after_transform = n.text

    with tempconfig({
        "pixel_width": 160, "pixel_height": 90, "frame_rate": 10, "write_to_movie": False,
        "disable_caching": True, "media_dir": str(tmp_path), "verbosity": "ERROR",
    }):
        scene = Demo()
        scene.render()
    # the number catches up when each animation ends
    assert scene.after_fade == "\u22121234.50"
    assert scene.after_move == "7.00"
    assert scene.after_transform == "\u221299.50"


@pytest.mark.scene
@pytest.mark.slow
def test_in_scene_with_tracker_transform_and_fadein(tmp_path):
    class Demo(Scene):
        def construct(self):
            t = ValueTracker(0.0)
            n = LiveNumber(0.0).follow(t).move_to([1, 1, 0])
            m = LiveNumber(5.0, unit=" ms").to_edge(UP)
            self.anchor = n.get_anchor()
            self.add(n)
            self.play(FadeIn(m), t.animate.set_value(-1234.567), run_time=0.5)
            self.mid = (n.text, n.get_anchor())
            self.play(Transform(m, LiveNumber(7.25, unit=" ms")), run_time=0.3)
            m.set_value(8.5)  # after the Transform it keeps working
            self.m_text = m.text
            # Transform into a different mobject, then back to numbers
            self.play(Transform(n, Text("done", font=FONT)), run_time=0.3)
            n.unfollow().set_value(3.0)
            self.final = n.text
            self.frame = self.renderer.get_frame()

    with tempconfig({
        "pixel_width": 160, "pixel_height": 90, "frame_rate": 10, "write_to_movie": False,
        "disable_caching": True, "media_dir": str(tmp_path), "verbosity": "ERROR",
    }):
        scene = Demo()
        scene.render()
    assert scene.mid[0] == "\u22121234.57"
    np.testing.assert_allclose(scene.mid[1], scene.anchor, atol=1e-9)
    assert scene.m_text == "8.50 ms"
    assert scene.final == "3.00"
    assert scene.frame[..., :3].max() > 0  # something was drawn


# ----------------------------------------------------------------------------------- bytes


@settings(max_examples=60, deadline=None)
@given(st.floats(min_value=0, max_value=2.0**52), st.integers(min_value=0, max_value=2))
def test_live_bytes_reads_as_fmt_bytes(n_bytes, decimals):
    """Whatever the count, the live readout and a caption's fmt_bytes print the same text."""
    from attn_math.fmt import fmt_bytes
    from scenes.widgets.log_axis import LiveBytes

    n = LiveBytes(1, decimals=decimals).set_bytes(n_bytes)
    assert n.text == fmt_bytes(n_bytes, decimals)
