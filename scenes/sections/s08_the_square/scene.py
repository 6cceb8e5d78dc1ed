"""Section 8, the square: every query meets every key, and the bill that follows.

Storyboard: fill the n x n grid of scaled scores row by row (side = size, colour =
sign), count the dot products as they are made, let the context grow to a thousand
tokens (a million dot products), then on to GPT-2 small's crossing point where the
square starts to cost more than the four projections.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, UP, FadeIn, ValueTracker, VGroup, linear, smooth

from attn_math import cost
from scenes import style, timing
from scenes.base import SectionScene
from scenes.widgets.cost_bars import CostBars
from scenes.widgets.readouts import LabeledNumber
from scenes.widgets.score_grid import ScoreGrid
from scenes.widgets.slider import CountTracker
from scenes.widgets.text import label

OVERSHOOT = 1.3   # how far past the crossing the context runs before settling on it
#: Seconds the context takes to grow to that peak, and to come back to the crossing.
TO_PEAK = 3.5
BACK_TO_CROSSING = 1.5


class TheSquare(SectionScene):

    def construct(self):
        self.open()
        self.build()
        self.say("intro")
        self.play(FadeIn(self.grid), FadeIn(self.counters), run_time=timing.BEAT)
        self.settle()
        self.say("fill")
        self.fill_rows()
        self.settle()
        self.say("count")
        self.grow_context()
        self.settle()
        self.say("projections")
        self.compare_costs()
        self.settle(timing.LAST_HOLD)

    # ------------------------------------------------------------ building

    def build(self):
        s = self.story
        t = self.theme
        self.grid = ScoreGrid(s.S, self.names, box=style.left_panel(), filled=False,
                              corner=f"/ √{s.d}")
        panel = style.right_panel()
        width = panel.width
        self.tokens = CountTracker(s.n)          # context length shown
        self.cells = ValueTracker(0)              # dot products made so far (while filling)
        tok = LabeledNumber(self.ui("tokens"), s.n, width=width)
        dots = LabeledNumber(self.ui("dots"), 0, width=width, color=t.positive)
        tok.number.follow(lambda: self.tokens.count())
        dots.number.follow(self.cells)
        per = label(self.ui("per_head"), style.SMALL_SIZE, t.muted)
        self.counters = VGroup(tok, dots)
        self.counters.arrange(DOWN, buff=style.ROW, aligned_edge=LEFT)
        panel.place(self.counters, "top_left")
        per.next_to(self.counters, DOWN, buff=style.GAP, aligned_edge=LEFT)
        self.per_head = per
        self.dots = dots

    # ------------------------------------------------------------ beats

    def fill_rows(self):
        n = self.story.n
        row_time = float(np.clip(7.0 / n, 0.5, 1.2))
        for i in range(n):
            self.play(self.grid.fill_row(i, run_time=row_time),
                      self.cells.animate(rate_func=linear).set_value((i + 1) * n),
                      run_time=row_time)

    def grow_context(self):
        """The token count climbs to a thousand; the dot products follow as its square."""
        target = self.fig("context_1000").value
        self.dots.number.follow(lambda: cost.dot_products(self.tokens.count()))
        self.play(FadeIn(self.per_head, shift=style.TIGHT * UP), run_time=timing.QUICK)
        self.play(self.tokens.animate(rate_func=smooth).set_value(target), run_time=timing.LONG_MOVE)

    def compare_costs(self):
        """Continue the context to GPT-2 small's crossing: both bars meet at 2 d_model."""
        t = self.theme
        d_model = self.fig("d_model").value
        cross = self.fig("proj_cross_tokens").value
        peak = OVERSHOOT * cross                  # run past the crossing, then come back to it
        full = cost.attention_macs(peak, d_model)  # bar scale: the square's cost at the peak

        def fractions():
            n = self.tokens.get_value()
            return (cost.projection_macs(n, d_model) / full,
                    cost.attention_macs(n, d_model) / full)

        model = label(self.ui("model"), style.SMALL_SIZE, t.fg)
        bars = CostBars([self.ui("proj"), self.ui("square")], [t.input, t.positive],
                        fractions, width=style.right_panel().width * 0.8)
        group = VGroup(model, bars).arrange(DOWN, buff=style.GAP + style.NUDGE, aligned_edge=LEFT)
        group.next_to(self.per_head, DOWN, buff=style.SPACED + style.TIGHT, aligned_edge=LEFT)
        self.play(FadeIn(group, shift=style.TIGHT * UP), run_time=timing.ENTER)
        self.play(self.tokens.animate(rate_func=smooth).set_value(peak), run_time=TO_PEAK)
        self.play(self.tokens.animate(rate_func=smooth).set_value(cross), run_time=BACK_TO_CROSSING)
