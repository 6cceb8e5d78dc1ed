"""Section 12, one denominator: drag one score, every other weight answers, the sum stays 1.

The winner's score in the followed row is a slider knob; the row's scores (a live score
row), its weights (``core.softmax`` of ``core.row_with_score``) and their sum follow it.
"""

from __future__ import annotations

import numpy as np
from manim import LEFT, RIGHT, Create, FadeIn, FadeOut, SurroundingRectangle, ValueTracker, VGroup

from scenes import style, timing
from scenes.base import SectionScene
from scenes.widgets.readouts import Readout, TotalReadout
from scenes.widgets.text import label
from scenes.widgets.weights import DraggedScoreRow, RowLayout

DRAG_UP = 2.0      # how far above its own value the score is dragged
DRAG_DOWN = 3.0    # and how far below
DRAG_TIME = 2.2
LONG_DRAG_TIME = 1.5 * DRAG_TIME   # a drag across the whole range, from one end to the other
AXIS_PAD = 1.02   # headroom of the bar axis over the tallest bar it frames
READOUT_GAP = style.APART + style.TIGHT   # between the winner's weight and the sum on the header line


class OneDenominator(SectionScene):

    def construct(self):
        self.open()
        self.build()
        self.drag()
        self.sum_holds()
        self.invariant()

    # ------------------------------------------------------------ live quantities

    def scores(self) -> np.ndarray:
        return self.story.dragged_scores(self.x.get_value())

    def weights(self) -> np.ndarray:
        return self.story.dragged_weights(self.x.get_value())

    # ------------------------------------------------------------ beats

    def build(self):
        s, t = self.story, self.theme
        f, w = s.follow, s.winner
        self.s0 = float(s.S[f, w])
        self.lo, self.hi = self.s0 - DRAG_DOWN, self.s0 + DRAG_UP
        self.x = ValueTracker(self.s0)
        top = float(s.dragged_weights(self.hi).max())
        layout = RowLayout.make(header_lines=1, score_row=True)
        self.layout = layout
        # The axis fits the drag's peak while the drag runs, then the end state (framed).
        self.axis_top = ValueTracker(AXIS_PAD * top)
        dragged = DraggedScoreRow.make(s, self.names, self.x, self.scores, self.weights, layout,
                                       self.lo, self.hi, self.axis_top.get_value)
        # The bars and Σ w (story.sum_places: where no decimals make them add up, Σ w notes
        # that the parts are rounded, as the drag moves them).
        places = s.sum_places[self.SECTION]
        for number in dragged.bars.numbers:
            number.set_decimals(places.parts)
        self.total = TotalReadout("Σ w =", lambda: s.dragged_weight_sum(self.x.get_value()),
                                  self.weights, self.ui("rounded"), parts_decimals=places.parts,
                                  decimals=places.total, sample=1.0, color=t.weight)
        self.total.place_right(layout.header_right(0))
        # The winner as the strip under the bars names it (the strip may cut it shorter), at
        # its bar's decimals.
        self.w_win = Readout(f"w[{dragged.bars.strip.shown[w]}] =", lambda: float(self.weights()[w]),
                             sample=0.99, decimals=places.parts)
        dragged.place_readout(self.w_win, self.total.line().get_left() + READOUT_GAP * LEFT)
        self.bars, self.row, self.slider = dragged.bars, dragged.row, dragged.slider
        name, mark = dragged.name, dragged.mark
        wname = self.bars.row_name("w", t.weight, y=layout.area[0] + style.ROW)
        self.say("drag")
        self.play(FadeIn(self.bars), FadeIn(self.row), FadeIn(VGroup(name, wname, mark)),
                  FadeIn(self.slider), FadeIn(self.w_win), run_time=timing.BEAT)

    def drag(self):
        self.play(self.x.animate.set_value(self.hi), run_time=DRAG_TIME)
        self.play(self.x.animate.set_value(self.lo), run_time=LONG_DRAG_TIME)
        self.settle()

    def sum_holds(self):
        self.say("sum")
        self.play(FadeIn(self.total), run_time=timing.QUICK)
        self.play(self.x.animate.set_value(self.hi), run_time=LONG_DRAG_TIME)
        self.play(self.x.animate.set_value(self.s0), run_time=DRAG_TIME)
        self.settle()

    def invariant(self):
        t = self.theme
        check = VGroup(label("assert", style.LABEL_SIZE, t.muted, mono=True),
                       label("all(w > 0) and sum(w) == 1", style.LABEL_SIZE, t.fg, mono=True))
        check.arrange(RIGHT, buff=style.GAP)
        check.move_to(self.layout.header_left(0), aligned_edge=LEFT)
        self.say("invariant")
        self.slider.knob.clear_updaters()
        end_top = AXIS_PAD * float(self.weights().max())
        self.play(FadeOut(self.slider), FadeIn(check), self.axis_top.animate.set_value(end_top),
                  run_time=timing.ENTER)
        box = SurroundingRectangle(check, color=t.weight, buff=style.TIGHT, corner_radius=0.06,
                                   stroke_width=2)
        self.play(Create(box), run_time=timing.FADE)
        self.settle(timing.LAST_HOLD)
