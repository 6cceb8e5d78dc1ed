"""Section 18, renormalise: under the causal mask the survivors share the whole mix.

A marker (the asking position) steps along the token strip; the bars show that position's
causal weights (``story.Wc``): bars for the candidates, dashed empty slots for the masked
future, and the sum is 1 at every step.
"""

from __future__ import annotations

import numpy as np
from manim import LEFT, Create, FadeIn, SurroundingRectangle, ValueTracker, VGroup

from scenes import style, timing
from scenes.base import SectionScene
from scenes.widgets.readouts import TotalReadout
from scenes.widgets.slider import rows_at
from scenes.widgets.text import label
from scenes.widgets.weights import LevelLine, RowLayout, WeightBars

STEP_TIME = 0.7
STEP_PAUSE = 0.25
BACK_TIME = 1.5   # the row moving back to the followed token


class Renormalise(SectionScene):

    def construct(self):
        self.open()
        self.build()
        self.first_position()
        self.walk_down()
        self.back_to_follow()

    # ------------------------------------------------------------ live quantities

    def at_position(self, rows):
        """``rows[i]`` of the (fractional) asking position p, blended between rows."""
        return rows_at(rows, self.p.get_value())

    def weights(self) -> np.ndarray:
        """The causal row of the (fractional) asking position p."""
        return self.at_position(self.story.Wc)

    def masked(self) -> np.ndarray:
        return np.clip(np.arange(self.story.n) - self.p.get_value(), 0.0, 1.0)

    # ------------------------------------------------------------ beats

    def build(self):
        s, t = self.story, self.theme
        self.p = ValueTracker(0.0)
        layout = RowLayout.make(header_lines=1)
        self.layout = layout
        # The bars and Σ w (story.sum_places: where no decimals make them add up, Σ w notes
        # that the parts are rounded).
        places = s.sum_places[self.SECTION]
        self.bars = WeightBars(self.names, self.weights, layout, value_range=(0.0, 1.0),
                               masked=self.masked, decimals=places.parts)
        self.one = LevelLine(self.bars, 1.0, "1")
        self.asker = self.bars.strip.mark(0, t.query)
        self.asker.add_updater(lambda m: m.move_to(
            np.array([self.bars.column_x(self.p.get_value()), self.bars.chip_y, 0.0])))
        self.names = [self.bars.row_name(f"{lab} →", t.query) for lab in self.names]
        self.total = TotalReadout("Σ w =", lambda: float(self.at_position(s.Wc_sums)),
                                  self.weights, self.ui("rounded"), sample=1.0, color=t.weight,
                                  parts_decimals=places.parts, decimals=places.total)
        self.total.place_right(layout.header_right(0))
        self.rule = label("s[i, j > i] = −∞", style.LABEL_SIZE, t.muted, mono=True)
        self.rule.move_to(layout.header_left(0), aligned_edge=LEFT)
        self.shown = 0

    def first_position(self):
        self.say("intro")
        self.play(FadeIn(self.bars), FadeIn(self.one), FadeIn(self.asker),
                  FadeIn(self.names[0]), FadeIn(self.total), FadeIn(self.rule), run_time=timing.BEAT)
        self.settle()
        self.say("first")
        self.play(Create(self.box(0)), run_time=timing.FADE)
        self.settle()
        self.remove(self._box)

    def step_to(self, i: int):
        old, new = self.names[self.shown], self.names[i]
        self.play(self.p.animate.set_value(float(i)), FadeIn(new), old.animate.set_opacity(0),
                  run_time=STEP_TIME)
        self.remove(old)
        old.set_opacity(1)
        self.shown = i

    def walk_down(self):
        self.say("walk")
        for i in range(1, self.story.n):
            self.step_to(i)
            self.wait(STEP_PAUSE)
        self.settle()

    def back_to_follow(self):
        s = self.story
        f = s.follow
        if f != self.shown:
            self.play(self.p.animate.set_value(float(f)), FadeIn(self.names[f]),
                      self.names[self.shown].animate.set_opacity(0), run_time=BACK_TIME)
        self.say("follow")
        self.play(Create(self.box(s.causal_winner)), run_time=timing.FADE)
        self.settle(timing.LAST_HOLD)

    def box(self, j: int) -> SurroundingRectangle:
        self._box = SurroundingRectangle(VGroup(self.bars.numbers[j]), color=self.theme.highlight,
                                         buff=style.NUDGE + style.HAIR, corner_radius=0.05, stroke_width=2.5)
        return self._box
