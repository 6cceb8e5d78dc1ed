"""Section 15: with no divisor, a wider head saturates softmax.

A demo row (the width row's scaled scores rescaled to spread 1) at growing width d with
no divisor: every score grows by √d, so the weights are ``softmax(√d · z)``. Multiplying
every score by 8 raises the leader's ratio over each rival to the 8th power: the row gets
more decisive, not noisier. The top weight climbs toward 1, and the gradient through it,
proportional to w(1 − w), dies: a pinned row stops learning.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, UP, FadeIn, Indicate, VGroup

from attn_math import core
from scenes import style, timing
from scenes.base import SectionScene
from scenes.widgets.bars_simple import titled_row_bars
from scenes.widgets.live_number import LiveNumber
from scenes.widgets.log_axis import AxisMarker, LiveCurve, weight_width_axis
from scenes.widgets.readouts import ReadoutPanel
from scenes.widgets.slider import CountTracker
from scenes.widgets.text import label

Y_TOP = 1.12   # the weight axis runs a little past 1, leaving room to name curves above it
READOUTS_BUFF = style.ROW    # bars to readouts
POWER_BUFF = style.TIGHT + style.SNUG   # the ratio's row to the power line under it
GRADIENT_FLASH = 1.2  # seconds the gradient's readout row is highlighted
BACK_TO_HI = 1.5      # seconds from the widest width back to width_hi
AT_WIDTH_LO = 1.0     # seconds the climb rests at width_lo, whose top weight the caption quotes
CLIMB_HOLD = 1.0      # seconds (at least) the climb's end holds before the gradient beat
AT_WIDEST = 0.5       # seconds the slider rests at the widest width before it comes back


def ratio_decimals(x: float) -> int:
    """Two decimals for a small ratio, none once it is in the hundreds."""
    return 2 if x < 100 else 0


class Saturation(SectionScene):

    def construct(self):
        self.open()
        self.build()
        self.the_row()
        self.eighth_power()
        self.climb()
        self.gradient_dies()

    # ------------------------------------------------------------ the math, live

    def weights(self, d: float | None = None) -> np.ndarray:
        """The demo row's weights at width d (default: the slider's), no divisor."""
        d = self.d.get_value() if d is None else d
        return core.weights_divided(self.z, d, 0.0)

    def top(self) -> float:
        return core.top_weight_unscaled(self.z, self.d.count())

    def grad(self, d: float | None = None) -> float:
        """w(1 − w) of the top weight: how much gradient still flows back through it."""
        d = self.d.count() if d is None else d
        return float(core.weight_gradient_factor(core.top_weight_unscaled(self.z, d)))

    def ratio(self) -> float:
        """Leader's weight over the runner-up's: exp(√d · gap), the gap raised to the √d."""
        return core.lead_ratio(self.weights(self.d.count()))

    # ------------------------------------------------------------ set-up

    def build(self):
        s, t = self.story, self.theme
        self.z = s.width_z
        self.widths = list(self.fig("widths", of="spread-sqrt-d").value)
        # The bars and the marker glide with the slider; readouts show its whole width.
        self.d = CountTracker(self.widths[0])
        self.axis = weight_width_axis(style.left_panel(), self.widths, Y_TOP,
                                      self.ui("width"), self.ui("top"))
        self.curve = LiveCurve(self.axis, lambda x: core.top_weight_unscaled(self.z, x),
                               self.d, t.weight, stroke=5)
        self.marker = AxisMarker(self.axis, self.d,
                                 lambda x: core.top_weight_unscaled(self.z, x), t.weight)
        self.grad_curve = LiveCurve(self.axis, lambda x: self.grad(x), self.d, t.fg, stroke=3)
        self.grad_marker = AxisMarker(self.axis, self.d, lambda x: self.grad(x), t.fg, radius=0.07,
                                      guides=False)
        # Name the gradient curve where neither curve runs through the name.
        self.grad_tag = self.axis.tag_curve(
            label("w(1 − w)", style.SMALL_SIZE, t.fg), lambda x: self.grad(x),
            avoid=[lambda x: self.grad(x), lambda x: core.top_weight_unscaled(self.z, x)])

        num = dict(font_size=style.NUMBER_SIZE)
        d_num = LiveNumber(1, decimals=0, color=t.fg, **num).follow(self.d.count)
        top_num = LiveNumber(1, decimals=3, color=t.weight, **num).follow(self.top)
        grad_num = LiveNumber(0.25, decimals=3, color=t.fg, sci="auto", sci_decimals=1,
                              **num).follow(lambda: self.grad())
        ratio_num = LiveNumber(1, decimals=2, color=t.fg, thousands=True, sci="auto",
                               sci_decimals=1, **num)

        def show_ratio(m):
            x = self.ratio()
            if m.decimals != ratio_decimals(x):
                m.set_decimals(ratio_decimals(x))
            m.set_value(x)

        ratio_num.add_updater(show_ratio, call_updater=True)
        self.readouts = ReadoutPanel(
            [("d =", d_num), (self.ui("top") + " =", top_num),
             (self.ui("grad") + " =", grad_num), (self.ui("ratio") + " =", ratio_num)],
            size=style.SMALL_SIZE, row_gap=style.SPACED, color=t.fg)
        self.power = label(f"= {self.fig('lead_ratio_d1')} ^ √d", style.SMALL_SIZE, t.muted)

        # The side panel: title, bars, readouts and (from the second beat) the power line
        # under them, all above the caption bar.
        panel = style.right_panel()
        title = label(self.ui("row"), style.SMALL_SIZE, t.fg)
        formula = label(self.ui("formula"), style.SMALL_SIZE, t.muted)
        below = READOUTS_BUFF + self.readouts.height + POWER_BUFF + self.power.height
        self.bars = titled_row_bars(self.names, self.weights(), panel, title, formula,
                                    below=below)
        self.bars.follow(lambda: self.weights())
        self.bars_title = VGroup(title, formula)
        self.readouts.place_under(self.bars, panel, buff=READOUTS_BUFF)
        self.power.next_to(self.readouts.row(3), DOWN, buff=POWER_BUFF)
        self.power.align_to(self.readouts.numbers[3], LEFT)

    # ------------------------------------------------------------ beats

    def the_row(self):
        self.say("row")
        self.play(FadeIn(self.bars_title), FadeIn(self.bars), run_time=timing.ENTER)
        self.play(FadeIn(self.axis), FadeIn(self.readouts), run_time=timing.ENTER)
        self.add(self.curve, self.grad_curve)
        self.play(FadeIn(self.marker), FadeIn(self.grad_marker), FadeIn(self.grad_tag),
                  run_time=timing.FLASH)
        self.settle()

    def eighth_power(self):
        t = self.theme
        self.say("power")
        self.play(FadeIn(self.power, shift=style.TIGHT * UP), Indicate(self.readouts.row(3), color=t.amber),
                  run_time=timing.BEAT)
        self.settle()

    def climb(self):
        lo = self.fig("width_lo").value
        hi = self.fig("width_hi").value
        self.say("climb")
        self.play(self.d.animate.set_value(lo), run_time=timing.LONG_MOVE)
        self.wait(AT_WIDTH_LO)
        self.play(self.d.animate.set_value(hi), run_time=timing.MOVE)
        self.settle(CLIMB_HOLD)

    def gradient_dies(self):
        t = self.theme
        grad_row = self.readouts.row(2)
        self.say("gradient")
        self.play(Indicate(grad_row, color=t.amber), Indicate(self.grad_tag, color=t.amber),
                  run_time=GRADIENT_FLASH)
        self.play(self.d.animate.set_value(self.widths[-1]), run_time=timing.MOVE)
        self.wait(AT_WIDEST)
        self.play(self.d.animate.set_value(self.fig("width_hi").value), run_time=BACK_TO_HI)
        self.settle(timing.LAST_HOLD)
