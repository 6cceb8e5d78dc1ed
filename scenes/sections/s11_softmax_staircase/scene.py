"""Section 11, the softmax staircase: exponentiate, divide by the sum, stack to exactly 1.

The followed row's scaled scores become bars; three short transitions take them through
``exp`` and the division by the sum (the axis rescales with them, a live Σ follows), then
the weights stack left to right into a teal staircase whose top lands on the amber line at 1.
"""

from __future__ import annotations

import numpy as np
from manim import (
    LEFT,
    RIGHT,
    Create,
    FadeIn,
    ManimColor,
    ReplacementTransform,
    SurroundingRectangle,
    ValueTracker,
    VGroup,
)

from scenes import style, timing
from scenes.base import SectionScene
from scenes.sections.s11_softmax_staircase.derived import staircase
from scenes.widgets.readouts import TotalReadout
from scenes.widgets.slider import rows_at
from scenes.widgets.text import label
from scenes.widgets.weights import LevelLine, RowLayout, WeightBars

#: Seconds the weights take to stack into one column of height 1.
STACK_SECONDS = 2.5


class SoftmaxStaircase(SectionScene):

    def construct(self):
        self.open()
        self.show_scores()
        self.exponentiate()
        self.divide()
        self.stack_up()
        self.soft_mix()

    # ------------------------------------------------------------ the three stages

    def stage_values(self, k: float) -> np.ndarray:
        """Bars at stage ``k``: 0 scores, 1 exp(scores), 2 weights (linear in between)."""
        return rows_at(self.stages, k)

    def stage_range(self, k: float) -> tuple[float, float]:
        lo, hi = rows_at(np.array(self.ranges), k)
        return float(lo), float(hi)

    def stage_colors(self, k: float) -> list:
        t = self.theme
        s = self.stages[0]
        pos, weight = ManimColor(t.positive), ManimColor(t.weight)
        if k <= 1:
            return [ManimColor(t.positive if x >= 0 else t.negative).interpolate(pos, k) for x in s]
        return [pos.interpolate(weight, k - 1)] * len(s)

    # ------------------------------------------------------------ beats

    def show_scores(self):
        s, t = self.story, self.theme
        f = s.follow
        scores = s.S[f]
        self.stages = staircase(s).stages
        e = self.stages[1]
        span = max(scores.max(), 0) - min(scores.min(), 0)
        self.ranges = [(min(scores.min(), 0) - 0.05 * span, max(scores.max(), 0) + 0.05 * span),
                       (0.0, float(e.max())), (0.0, 1.0)]
        self.k = ValueTracker(0.0)
        k = self.k
        layout = RowLayout.make(header_lines=1)
        self.layout = layout
        # The bars and the Σ over them (story.sum_places: where no decimals make them add up,
        # the Σ notes that the parts are rounded).
        self.places = s.sum_places[self.SECTION]
        self.bars = WeightBars(self.names, lambda: self.stage_values(k.get_value()), layout,
                               value_range=lambda: self.stage_range(k.get_value()),
                               colors=lambda: self.stage_colors(k.get_value()),
                               hollow=lambda: max(0.0, 1.0 - k.get_value()),
                               decimals=self.places.parts)
        name = self.bars.row_name(f"{self.names[f]} →", t.query)
        self.formulas = [self.formula(0), self.formula(1), self.formula(2)]
        self.say("scores")
        self.play(FadeIn(self.bars), FadeIn(name), FadeIn(self.formulas[0]), run_time=timing.BEAT)
        self.settle()

    def formula(self, i: int) -> VGroup:
        """The header formula of stage ``i`` (the scores carry the small '/ √d' tag)."""
        t, s = self.theme, self.story
        if i == 0:
            body = VGroup(label("s = q·k", style.LABEL_SIZE, t.fg),
                          label(f"/ √{s.d}", style.SMALL_SIZE, t.muted))
            body.arrange(RIGHT, buff=style.TIGHT, aligned_edge=np.array([0, -1.0, 0]))
        elif i == 1:
            body = VGroup(label("exp(s)", style.LABEL_SIZE, t.positive))
        else:
            body = VGroup(label("w = exp(s) / Σ exp(s)", style.LABEL_SIZE, t.weight))
        return body.move_to(self.layout.header_left(0), aligned_edge=LEFT)

    def exponentiate(self):
        self.say("exp")
        self.play(self.k.animate.set_value(1.0), ReplacementTransform(self.formulas[0], self.formulas[1]),
                  run_time=timing.MOVE)
        sums = staircase(self.story).sums
        self.total = TotalReadout("Σ =", lambda: float(rows_at(sums, self.k.get_value())),
                                  lambda: self.stage_values(self.k.get_value()), self.ui("rounded"),
                                  sample=max(sums[1], 1.0), parts_decimals=self.places.parts,
                                  decimals=self.places.total)
        self.total.place_right(self.layout.header_right(0))
        self.play(FadeIn(self.total), run_time=timing.QUICK)
        self.settle()

    def divide(self):
        self.say("divide")
        self.play(self.k.animate.set_value(2.0), ReplacementTransform(self.formulas[1], self.formulas[2]),
                  run_time=timing.MOVE)
        self.settle()

    def stack_up(self):
        one = LevelLine(self.bars, 1.0, "1")
        self.say("stair")
        self.play(FadeIn(one), run_time=timing.QUICK)
        self.play(self.bars.stack.animate.set_value(1.0), run_time=STACK_SECONDS)
        self.settle()

    def soft_mix(self):
        s, t = self.story, self.theme
        hi, lo = staircase(s).strong, staircase(s).weak
        ratio = label(f"{self.fig('w_follow_max')} / {self.fig('w_follow_min')} ≈ "
                      f"{self.fig('w_ratio')}", style.LABEL_SIZE, t.fg)
        ratio.move_to(self.layout.header_y[0] * np.array([0, 1.0, 0]) + self.layout.center_x * RIGHT)
        left_end = self.formulas[2].get_right()[0] + 2 * style.GAP
        right_end = self.total.line().get_left()[0] - 2 * style.GAP
        ratio.set_x((left_end + right_end) / 2)
        boxes = VGroup(*[SurroundingRectangle(self.bars.numbers[j], color=t.highlight, buff=style.NUDGE + style.HAIR,
                                              corner_radius=0.05, stroke_width=2.5)
                         for j in (hi, lo)])
        self.say("soft")
        self.play(Create(boxes), FadeIn(ratio), run_time=timing.BEAT)
        self.settle(timing.LAST_HOLD)
