"""Section 24, four lines: the whole head as code, each line lit while its step plays.

Left, the four lines of PyTorch (:class:`~scenes.sections.s24_four_lines.code_panel.CodePanel`); right, the
sentence's matrix (:class:`~scenes.widgets.score_grid.ScoreGrid`): the scaled scores ``S``
appear, the future is masked, softmax turns the rows into the causal weights ``Wc`` (each
row's sum shown), and ``w @ v`` gives the causal outputs ``Oc``, one 2-vector per row.
"""

from __future__ import annotations

import numpy as np
from manim import (
    AnimationGroup,
    Create,
    FadeIn,
    FadeOut,
    LaggedStart,
    Transform,
    ValueTracker,
    VGroup,
    linear,
)

from attn_math import core
from scenes import style, timing
from scenes.base import SectionScene
from scenes.layout import Box
from scenes.sections.s24_four_lines.code_panel import CodePanel
from scenes.widgets.score_grid import MAX_TIERS, ScoreGrid
from scenes.widgets.text import label

LINES = (
    "s = q @ k.transpose(-2, -1) / d_k**0.5",
    's = s.masked_fill(mask, float("-inf"))',
    "w = s.softmax(dim=-1)",
    "out = w @ v",
)
CODE_SHARE = 0.45        # of the content width, at most, for the code panel
CODE_SIZE = 20
CODE_FITS = 4            # tries at giving a crowded grid the code's width
CODE_SLACK = 0.05        # extra width taken from the code per try (frame units)
UPRIGHT_STEP = 0.02      # pitch gained per try while the column labels are vertical or in 3 tiers
COLUMNS_W = 2.55         # room right of the grid for the row sums and the outputs
STEP_TIME = 2.4          # one line's animation
HEAD_CLEAR = style.ROW   # least gap between the last column label and the Σ column
INF_PITCH = 0.45         # cells at least this big show "−∞"; smaller ones a dashed outline


class FourLines(SectionScene):

    def construct(self):
        self.open()
        self.build()
        self.scores()
        self.mask()
        self.softmax()
        self.mix()
        self.whole()

    # ------------------------------------------------------------ layout

    def build(self):
        s = self.story
        area = style.content_box()
        size = min(style.SMALL_SIZE, ScoreGrid.auto_label_size(s.n))
        # Many tokens: the code gives the grid width (its font down to TINY_SIZE) until the
        # rows are tall enough for their labels and outputs not to touch, and the column
        # labels stand upright (sideways kanji read badly) in fewer than MAX_TIERS tiers.
        outs = [label(self.fig(f"out_causal_{i}").text, style.TINY_SIZE) for i in range(s.n)]
        code_w = CODE_SHARE * area.width
        narrowest = CodePanel(LINES, font_size=CODE_SIZE).width * style.TINY_SIZE / CODE_SIZE
        for _ in range(CODE_FITS):
            self.code = CodePanel(LINES, box=Box(area.l, area.l + code_w, area.b, area.t),
                                  font_size=CODE_SIZE)
            self.code.align_to([area.l, 0, 0], np.array([-1.0, 0, 0]))
            box = Box(self.code.get_right()[0] + style.ROW, area.r - COLUMNS_W, area.b, area.t)
            self.grid = ScoreGrid(s.S, self.names, box=box, filled=False, max_pitch=0.8,
                                  label_size=size)
            short = s.n * (self.grid.min_pitch(outs) - self.grid.pitch)
            if self.grid.col_rotated or self.grid.col_tiers == MAX_TIERS:
                short = max(short, s.n * UPRIGHT_STEP)
            if short <= 0 or code_w <= narrowest:
                break
            code_w = max(narrowest, code_w - short - CODE_SLACK)
        self.wgrid = ScoreGrid(s.Wc, self.names, box=box, mode="weight", max_pitch=0.8,
                               label_size=size)
        self.kept = [(i, j) for i in range(s.n) for j in range(s.n) if j <= i]
        self.future = self.grid.upper_cells()
        self.wgrid.set_presence((~core.causal_mask(s.n)).astype(float))
        self.numbers = (self.wgrid.add_numbers(self.kept) if self.wgrid.numbers_fit()
                        else VGroup())
        self.columns()
        self.play(FadeIn(self.code), FadeIn(self.grid), run_time=timing.ENTER)

    def columns(self):
        """Row sums (line 3) and outputs (line 4), one entry per row right of the grid."""
        s, t = self.story, self.theme
        g = self.grid
        gl, gr, gb, gt = g.grid_rect()
        size = float(min(style.SMALL_SIZE, max(style.TINY_SIZE, g.pitch * 40)))
        # The Σ heading shares a line with the column labels: clear of the last one, which
        # may stand past the grid when the labels are staggered.
        x_sum = max(gr + style.GAP, g.col_labels.get_right()[0] + HEAD_CLEAR)
        sums, outs = VGroup(), VGroup()
        sum_w = label("0.00", size).width
        for i in range(s.n):
            y = g.cell_center(i, 0)[1]
            sm = label(self.fig(f"row_sum_{i}").text, size, t.weight)
            sm.move_to([x_sum + sum_w / 2, y, 0])
            sums.add(sm)
            o = label(self.fig(f"out_causal_{i}").text, size, t.amber)
            o.move_to([x_sum + sum_w + (style.GAP + style.NUDGE) + o.width / 2, y, 0])
            outs.add(o)
        head_y = g.cell_center(0, 0)[1] + g.pitch * 0.5 + g.buff + style.GAP
        self.sum_head = label("Σ", size, t.weight).move_to([sums.get_center()[0], head_y, 0])
        self.out_head = label("out", size, t.amber, mono=True)
        self.out_head.move_to([outs.get_center()[0], head_y, 0])
        self.sums, self.outs = sums, outs

    # ------------------------------------------------------------ the four steps

    def scores(self):
        """Line 1: every query against every key, divided by the divisor."""
        self.play(self.code.light(0))
        self.say("scores")
        n = self.story.n
        self.play(LaggedStart(*[self.grid.fill_row(i, run_time=timing.ENTER) for i in range(n)],
                              lag_ratio=0.35, run_time=STEP_TIME))
        self.settle()

    def mask(self):
        """Line 2: the future is filled with −∞ (dashed empties when cells are too small)."""
        t = self.theme
        g = self.grid
        self.play(self.code.light(1))
        self.say("mask")
        self.stair = g.mask_boundary(t.amber)
        inf = VGroup()
        if g.pitch >= INF_PITCH:
            for i, j in self.future:
                inf.add(label("−∞", style.TINY_SIZE, t.muted).move_to(g.square_center(i, j)))
            gone = [g.square(i, j).animate.set_opacity(0.0).scale(0.2)
                    for i, j in self.future]
            self.play(LaggedStart(*gone, lag_ratio=0.08), LaggedStart(*map(FadeIn, inf),
                                                                       lag_ratio=0.08),
                      Create(self.stair), run_time=STEP_TIME * 0.7)
        else:
            self.play(LaggedStart(*[g.discard(i, j) for i, j in self.future], lag_ratio=0.08),
                      Create(self.stair), run_time=STEP_TIME * 0.7)
        self.inf = inf
        self.settle()

    def softmax(self):
        """Line 3: each row becomes weights that sum to 1."""
        s = self.story
        g, wg = self.grid, self.wgrid
        self.play(self.code.light(2))
        self.say("softmax")
        rows = []
        for i in range(s.n):
            anims = [Transform(g.square(i, j), wg.square(i, j).copy()) for j in range(i + 1)]
            anims += [FadeIn(wg.number(i, j)) for j in range(i + 1) if (i, j) in wg.numbers]
            anims.append(FadeIn(self.sums[i]))
            rows.append(AnimationGroup(*anims))
        fade_inf = [FadeOut(self.inf)] if len(self.inf) else []
        self.play(FadeIn(self.sum_head), *fade_inf, run_time=timing.FLASH)
        self.play(LaggedStart(*rows, lag_ratio=0.3, run_time=STEP_TIME))
        self.settle()

    def mix(self):
        """Line 4: every row mixes the values into that token's output."""
        s = self.story
        g = self.grid
        self.play(self.code.light(3))
        self.say("mix")
        row = ValueTracker(0.0)
        hl = g.row_highlight(row, color=self.theme.amber)
        self.play(FadeIn(hl), FadeIn(self.out_head), run_time=timing.FLASH)
        self.play(row.animate(rate_func=linear).set_value(s.n - 1),
                  LaggedStart(*[FadeIn(o) for o in self.outs], lag_ratio=1.0),
                  run_time=STEP_TIME * 1.1)
        self.play(FadeOut(hl), run_time=timing.FLASH)
        self.settle()

    def whole(self):
        self.say("whole")
        self.play(self.code.light(None))
        self.settle(timing.LAST_HOLD)
