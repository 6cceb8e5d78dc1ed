"""Section 13, never zero: a weight can shrink past any pixel but never reach 0.

The winner's score in the followed row is lowered to the story's floor; its weight (read out
in scientific form as it falls) ends at the story's ``w_floor``. Only −∞ gives exactly 0,
hence masks use −∞. Then every score is shifted by a constant c up to the row max: the scores
change, the bars (``exp(s − c) / Σ exp(s − c)``) do not move at all.
"""

from __future__ import annotations

import numpy as np
from manim import LEFT, RIGHT, FadeIn, FadeOut, ReplacementTransform, ValueTracker, VGroup, linear

from attn_math import core
from scenes import style, timing
from scenes.base import SectionScene
from scenes.sections.s13_never_zero.derived import w_floor_widest
from scenes.widgets.readouts import Readout
from scenes.widgets.text import label
from scenes.widgets.weights import DraggedScoreRow, RowLayout

LOWER_TIME = 5.0
SHIFT_TIME = 3.0
RESET_TIME = 1.5   # the score going back to its own value before the max is subtracted


class NeverZero(SectionScene):

    def construct(self):
        self.open()
        self.build()
        self.lower()
        self.minus_infinity()
        self.shift_by_max()

    # ------------------------------------------------------------ live quantities

    def scores(self) -> np.ndarray:
        """The followed row with the winner's score at the knob, minus the shift c."""
        return self.story.dragged_scores(self.x.get_value(), self.c.get_value())

    def weights(self) -> np.ndarray:
        # The textbook formula on the shifted scores: exp(s − c) / Σ exp(s − c).
        return core.softmax_naive(self.scores())

    # ------------------------------------------------------------ beats

    def build(self):
        s, t = self.story, self.theme
        f, w = s.follow, s.winner
        self.s0 = float(s.S[f, w])
        self.floor = float(self.fig("floor_score").value)
        self.x = ValueTracker(self.s0)
        self.c = ValueTracker(0.0)
        low = s.dragged_weights(self.floor)
        top = max(float(s.W[f].max()), float(low.max()))
        layout = RowLayout.make(header_lines=2, score_row=True)
        self.layout = layout
        dragged = DraggedScoreRow.make(
            s, self.names, self.x, self.scores, self.weights, layout, self.floor, self.s0 + 0.5, 1.05 * top,
            number_kw=dict(sci="auto", sci_below=0.005, sci_decimals=1))
        self.bars, self.row, self.slider = dragged.bars, dragged.row, dragged.slider
        name, mark = dragged.name, dragged.mark
        self.w_win = Readout(f"w[{self.names[w]}] =", lambda: float(self.weights()[w]),
                             color=t.weight, decimals=2, sci="auto", sci_below=0.01,
                             sci_decimals=1, sample=w_floor_widest(s))  # laid out for its widest form
        self.w_win.place_right(layout.header_right(0))
        self.say("lower")
        self.play(FadeIn(self.bars), FadeIn(self.row), FadeIn(VGroup(name, mark)),
                  FadeIn(self.slider), FadeIn(self.w_win), run_time=timing.BEAT)

    def lower(self):
        self.play(self.x.animate.set_value(self.floor), run_time=LOWER_TIME, rate_func=linear)
        self.say("floor")
        self.settle()

    def minus_infinity(self):
        t = self.theme
        at_floor = self.fig("w_floor").text
        inf_text = self.fig("w_minus_inf").text
        record = VGroup(label(f"{self.fig('floor_score')} → {at_floor} > 0", style.LABEL_SIZE, t.fg),
                        label(f"−∞ → {inf_text}", style.LABEL_SIZE, t.weight))
        record.arrange(RIGHT, buff=style.APART)
        record.move_to(self.layout.header_right(1), aligned_edge=RIGHT)
        self.say("mask")
        self.play(FadeIn(record[0]), run_time=timing.QUICK)
        self.play(FadeIn(record[1]), run_time=timing.QUICK)
        self.settle()

    def shift_by_max(self):
        s, t = self.story, self.theme
        top = float(s.S[s.follow].max())
        self.play(self.x.animate.set_value(self.s0), run_time=RESET_TIME)
        formula = label("w = exp(s − c) / Σ exp(s − c)", style.LABEL_SIZE, t.weight)
        formula.move_to(self.layout.header_left(0), aligned_edge=LEFT)
        shift = Readout("c =", self.c.get_value, size=style.LABEL_SIZE, sample=top)
        shift.move_to(self.layout.header_left(1), aligned_edge=LEFT)
        gutter = label("s − c", style.SMALL_SIZE, t.fg).move_to(self.row.gutter, aligned_edge=RIGHT)
        self.slider.knob.clear_updaters()
        self.row.remove(self.row.gutter)
        self.add(self.row.gutter)
        self.say("stable")
        self.play(FadeOut(self.slider), FadeIn(formula), FadeIn(shift),
                  ReplacementTransform(self.row.gutter, gutter), run_time=timing.ENTER)
        self.play(self.c.animate.set_value(top), run_time=SHIFT_TIME)
        self.settle()
        self.say("same")
        self.settle(timing.LAST_HOLD)
