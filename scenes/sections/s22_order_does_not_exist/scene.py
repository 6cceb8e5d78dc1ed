"""Section 22, order does not exist: shuffle the reading order, the output does not move.

For each of the story's permutations the inputs are reordered and the head recomputed from
them (projections, scores, softmax, mix: ``Story.permuted_row``). Chips and weight bars travel to their new slots;
the bars keep their heights and the output of the followed token, read from the permuted
head each time, stays where it was.
"""

from __future__ import annotations

import numpy as np
from manim import LEFT, RIGHT, Create, FadeIn, FadeOut, SurroundingRectangle, ValueTracker, linear

from scenes import style, timing
from scenes.base import SectionScene
from scenes.sections.s22_order_does_not_exist.derived import reorderings
from scenes.widgets.readouts import VectorReadout
from scenes.widgets.text import label
from scenes.widgets.weights import RowLayout, WeightBars

SHUFFLE_TIME = 2.6
LIFT_UP, LIFT_DOWN = 0.25, 0.15   # arcs: tokens moving right pass above, left below
LIFT_PER_SLOT = 0.12              # ... higher the farther they travel
STAGGER = 0.6                     # fraction of the move over which the starts are spread
IN_FLIGHT_OPACITY = 0.55


class OrderDoesNotExist(SectionScene):

    def construct(self):
        self.open()
        self.build()
        self.shuffles()
        self.equivariant()
        self.positional()

    # ------------------------------------------------------------ the moving chips

    def progress(self) -> np.ndarray:
        """Each token's own progress in [0, 1]: starts staggered left to right, eased, so
        that tokens crossing each other do not all meet at the same moment."""
        a = self.a.get_value()
        lag = STAGGER * self.old / max(self.story.n - 1, 1)
        x = np.clip((a - lag) / (1 - STAGGER), 0.0, 1.0)
        return x * x * (3 - 2 * x)

    def slots(self) -> np.ndarray:
        x = self.progress()
        return (1 - x) * self.old + x * self.new

    def see_through(self) -> np.ndarray:
        """Bars in flight are translucent, so crossing bars read as layers."""
        return 1.0 - (1.0 - IN_FLIGHT_OPACITY) * np.sin(np.pi * self.progress())

    def lifts(self) -> np.ndarray:
        """Arcs: tokens moving right pass above (higher the farther they go), left below."""
        x = self.progress()
        d = self.new - self.old
        up = LIFT_UP + LIFT_PER_SLOT * np.abs(d)
        return np.sin(np.pi * x) * np.where(d > 0, up, -LIFT_DOWN) * (d != 0)

    # ------------------------------------------------------------ beats

    def build(self):
        s, t = self.story, self.theme
        f = s.follow
        self.w = s.W[f].copy()
        self.out = s.O[f].copy()
        self.old = np.arange(s.n, dtype=float)
        self.new = self.old.copy()
        self.a = ValueTracker(0.0)
        layout = RowLayout.make(header_lines=1)
        self.layout = layout
        self.bars = WeightBars(self.names, lambda: self.w, layout,
                               value_range=(0.0, 1.1 * float(s.W[f].max())),
                               slots=self.slots, lifts=self.lifts, opacity=self.see_through)
        self.mark = self.bars.marker(f)
        self.formula = label(f"Σ w[{self.names[f]}, j] · v[j]", style.LABEL_SIZE, t.fg)
        self.formula.move_to(layout.header_left(0), aligned_edge=LEFT)
        self.readout = VectorReadout(f"o[{self.names[f]}] =", lambda: self.out, t.amber,
                                     style.NUMBER_SIZE, number_color=t.amber, name_color=t.fg,
                                     equals=False)
        self.readout.move_to(layout.header_right(0), aligned_edge=RIGHT)
        self.say("intro")
        self.play(FadeIn(self.bars), FadeIn(self.mark), FadeIn(self.formula),
                  FadeIn(self.readout), run_time=timing.BEAT)
        self.settle()

    def shuffle(self, p: list[int], w: np.ndarray, out: np.ndarray):
        """Move every token to its slot in order ``p``; then show ``w`` and ``out``, the followed
        token's weights and output read from the head run on the permuted inputs."""
        self.w = w
        self.new = np.array([p.index(j) for j in range(self.story.n)], dtype=float)
        self.a.set_value(0.0)
        self.play(self.a.animate(rate_func=linear).set_value(1.0), run_time=SHUFFLE_TIME)
        self.old = self.new.copy()
        self.out = out
        flash = SurroundingRectangle(self.readout, color=self.theme.amber, buff=style.TIGHT,
                                     corner_radius=0.06, stroke_width=2.5)
        self.play(Create(flash), run_time=timing.QUICK)
        self.play(FadeOut(flash), run_time=timing.FLASH)

    def shuffles(self):
        perms = reorderings(self.story).permutations
        for k, p in enumerate(perms):
            self.shuffle(list(p), reorderings(self.story).permuted_weights[k],
                         reorderings(self.story).permuted_outputs[k])
            if k == 0:
                self.say("same")
                self.settle()
        if len(perms) > 1:
            self.say("again")
            self.settle()

    def equivariant(self):
        self.say("equivariant")
        self.settle()

    def positional(self):
        self.say("positional")
        self.settle(timing.LAST_HOLD)
