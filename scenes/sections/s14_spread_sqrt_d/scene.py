"""Section 14: a d-wide dot product has spread √d.

A sum of d independent unit-variance products has variance d, so its spread is √d.
The width slides along a log axis (each tick x4); the spread doubles per tick, so the
curve still bends upward; the amber line at spread 1 is what softmax needs. The slide
ends on GPT-2's head width.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    FadeIn,
    Indicate,
    VGroup,
    Write,
)

from attn_math import core
from scenes import style, timing
from scenes.base import SectionScene
from scenes.widgets.live_number import LiveNumber
from scenes.widgets.log_axis import AxisMarker, LogAxis
from scenes.widgets.readouts import ReadoutPanel
from scenes.widgets.slider import CountTracker
from scenes.widgets.text import label

#: Seconds the width slides from the smallest to the widest; and on to GPT-2's width.
SLIDE_SECONDS = 4.0
#: Seconds the slider rests at the widest width before it slides back.
AT_WIDEST = 0.4
TO_GPT2 = 2.5


class SpreadSqrtD(SectionScene):

    def construct(self):
        self.open()
        self.build()
        self.the_sum()
        self.the_axis()
        self.what_softmax_needs()
        self.slide_width()
        self.gpt2_width()

    # ------------------------------------------------------------ set-up

    def build(self):
        t = self.theme
        self.widths = list(self.fig("widths").value)
        self.d_real = self.fig("d_real").value
        spreads = [core.dot_product_spread(w) for w in self.widths]
        self.axis = LogAxis(
            style.left_panel(), (self.widths[0], self.widths[-1]), self.widths,
            (0.0, spreads[-1]), spreads,
            y_labels=[self.fig(f"spread_tick_{i}").text for i in range(len(spreads))],
            x_title=self.ui("width"), y_title=self.ui("spread"))
        self.curve = self.axis.plot(core.dot_product_spread, t.positive, stroke=5)
        self.d = CountTracker(self.widths[0])  # readouts show whole widths

    # ------------------------------------------------------------ beats

    def the_sum(self):
        t = self.theme
        rp = style.right_panel()
        lines = VGroup(
            label("q · k = q₁k₁ + q₂k₂ + …", style.LABEL_SIZE, t.fg),
            label(self.ui("terms"), style.SMALL_SIZE, t.muted),
            label(self.ui("var_term"), style.LABEL_SIZE, t.fg),
            label(self.ui("var_sum"), style.LABEL_SIZE, t.fg),
            label(self.ui("sd"), style.LABEL_SIZE, t.positive),
        ).arrange(DOWN, aligned_edge=LEFT, buff=style.GAP + style.HAIR)
        lines[1].shift(style.SNUG * UP)
        rp.place(rp.fit(lines), "top_left")
        self.formula = lines
        # Alone on screen until the chart arrives: large, at the centre.
        self.formula_home = self.stage(lines)
        self.say("sum")
        self.play(FadeIn(lines[:2], shift=style.TIGHT * DOWN), run_time=timing.ENTER)
        self.play(FadeIn(lines[2], shift=style.TIGHT * DOWN), run_time=timing.FADE)
        self.play(FadeIn(lines[3], shift=style.TIGHT * DOWN), run_time=timing.FADE)
        self.play(Write(lines[4]), run_time=timing.ENTER)
        self.settle()

    def the_axis(self):
        steps = self.axis.x_step_labels(f"×{self.fig('width_step').text}")
        self.say("axis")
        self.unstage(self.formula, self.formula_home)
        self.play(FadeIn(self.axis), run_time=timing.ENTER)
        self.play(FadeIn(steps, lag_ratio=0.2), run_time=timing.ENTER)
        self.play(Create(self.curve), run_time=timing.MOVE)
        self.settle()

    def what_softmax_needs(self):
        t = self.theme
        one = core.dot_product_spread(self.widths[0])  # spread 1: a single unit-variance product
        line = self.axis.hline(one, t.amber, stroke=4)
        tag = label(self.ui("need"), style.SMALL_SIZE, t.amber)
        tag.next_to(self.axis.c2p(self.widths[-1], one), UP, buff=style.TIGHT).align_to(line, RIGHT)
        self.say("need")
        self.play(Create(line), FadeIn(tag), run_time=timing.BEAT)
        self.settle()

    def slide_width(self):
        t = self.theme
        marker = AxisMarker(self.axis, self.d, core.dot_product_spread, t.positive)
        d_num = LiveNumber(1, decimals=0, font_size=style.NUMBER_SIZE, color=t.fg)
        d_num.follow(self.d.count)
        sd_num = LiveNumber(1, decimals=2, font_size=style.NUMBER_SIZE, color=t.positive)
        sd_num.follow(lambda: core.dot_product_spread(self.d.count()))
        panel = ReadoutPanel([("d =", d_num), ("√d =", sd_num)], size=style.NUMBER_SIZE,
                             row_gap=style.APART, color=t.fg)
        rp = style.right_panel()
        panel.move_to([rp.center[0], 0, 0]).align_to(self.formula, LEFT)
        panel.next_to(self.formula, DOWN, buff=style.APART, aligned_edge=LEFT)
        self.readouts = panel
        self.say("slide")
        self.play(FadeIn(marker), FadeIn(panel), run_time=timing.FADE)
        self.play(self.d.animate.set_value(self.widths[-1]), run_time=SLIDE_SECONDS)
        self.wait(AT_WIDEST)
        self.play(self.d.animate.set_value(self.widths[0]), run_time=timing.MOVE)
        self.settle()

    def gpt2_width(self):
        t = self.theme
        self.say("gpt2")
        self.play(self.d.animate.set_value(self.d_real), run_time=TO_GPT2)
        p = self.axis.c2p(self.d_real, core.dot_product_spread(self.d_real))
        tag = label("GPT-2", style.SMALL_SIZE, t.fg).next_to(p, LEFT, buff=style.GAP)
        tag.shift(style.NEAR * UP)
        self.play(FadeIn(tag), Indicate(self.readouts.numbers[1], color=t.amber), run_time=timing.BEAT)
        self.settle(timing.LAST_HOLD)
