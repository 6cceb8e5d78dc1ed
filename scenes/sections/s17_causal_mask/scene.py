"""Section 17, the causal mask: the future is computed, then thrown away.

Storyboard: the grid of scaled scores; a highlight walks down the rows and every
score above the diagonal turns into a dashed outline (computed, then discarded),
while the counters keep the tally: discarded, kept, computed. The staircase that
remains is the whole mask: no parameters, and the only part so far that knows
about position.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, UP, Create, FadeIn, FadeOut, LaggedStart, ValueTracker, VGroup, linear

from attn_math import cost
from scenes import style, timing
from scenes.base import SectionScene
from scenes.widgets.readouts import LabeledNumber
from scenes.widgets.score_grid import ScoreGrid
from scenes.widgets.text import label


class CausalMask(SectionScene):

    def construct(self):
        self.open()
        self.build()
        self.say("intro")
        self.play(FadeIn(self.grid), FadeIn(self.counters), run_time=timing.ENTER)
        self.settle()
        self.say("remove")
        self.remove_future()
        self.settle()
        self.say("count")
        self.settle()
        self.say("position")
        self.play(FadeIn(self.rule, shift=style.TIGHT * UP), run_time=timing.FADE)
        self.settle(timing.LAST_HOLD)

    # ------------------------------------------------------------ building

    def build(self):
        s, t = self.story, self.theme
        self.grid = ScoreGrid(s.S, self.names, box=style.left_panel(), corner=f"/ √{s.d}")
        computed = self.fig("computed").value
        self.thrown = ValueTracker(0)
        panel = style.right_panel()
        w = panel.width
        n_comp = LabeledNumber(self.caption_text("ui_computed"), computed, width=w)
        n_thrown = LabeledNumber(self.caption_text("ui_discarded"), 0, width=w, color=t.muted)
        n_kept = LabeledNumber(self.caption_text("ui_kept"), computed, width=w, color=t.positive)
        n_thrown.number.follow(self.thrown)
        n_kept.number.follow(lambda: cost.scores_kept(s.n, self.thrown.get_value()))
        self.counters = VGroup(n_comp, n_thrown, n_kept).arrange(DOWN, buff=style.ROW + style.NUDGE, aligned_edge=LEFT)
        self.counters.move_to([panel.l, panel.center[1] + style.APART, 0], aligned_edge=LEFT)
        self.rule = label("j > i  →  −∞", style.LABEL_SIZE, t.amber)
        self.rule.next_to(self.counters, DOWN, buff=style.APART, aligned_edge=LEFT)

    # ------------------------------------------------------------ beats

    def remove_future(self):
        s, g = self.story, self.grid
        row = ValueTracker(0)
        hl = g.row_highlight(row)
        self.play(FadeIn(hl), run_time=timing.FLASH)
        row_time = float(np.clip(6.0 / s.n, 0.45, 1.0))
        for i in range(s.n - 1):
            cells = [(i, j) for j in range(i + 1, s.n)]
            self.play(row.animate.set_value(i), run_time=timing.SNAP)
            self.play(LaggedStart(*[g.discard(a, b) for a, b in cells], lag_ratio=0.15),
                      self.thrown.animate(rate_func=linear).set_value(
                          self.thrown.get_value() + len(cells)),
                      run_time=row_time)
        self.play(row.animate.set_value(s.n - 1), run_time=timing.SNAP)
        self.play(FadeOut(hl), Create(g.mask_boundary()), run_time=timing.ENTER)
