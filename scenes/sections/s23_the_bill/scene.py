"""Section 23: the bill for every query meeting every key.

One multiply-add per ordered pair per dimension, twice (Q Kᵀ and the mix): 2 n² d. If the
score matrix is materialised it holds n² numbers against the tokens' own n · d. A
context-length slider runs along a log axis while the bytes of one head's fp16 matrix and
of the tokens themselves are read off live: GPT-2's 1,024 tokens, then 131,072, where the
matrix dwarfs its own input. FlashAttention exists so that this matrix is never written out.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    DoubleArrow,
    FadeIn,
    Indicate,
    VGroup,
)

from attn_math import cost
from scenes import style, timing
from scenes.base import SectionScene
from scenes.widgets.live_number import LiveNumber
from scenes.widgets.log_axis import AxisMarker, LiveBytes, LogAxis
from scenes.widgets.readouts import ReadoutPanel
from scenes.widgets.slider import CountTracker
from scenes.widgets.text import label

#: Seconds: the two curves drawn; the context slider from GPT-2's length to the long one.
CURVES_DRAW = 1.6
LONG_SLIDE = 3.5
#: Seconds (at least) the gap and its ratio hold before the closing beat.
RATIO_HOLD = 1.0


class TheBill(SectionScene):

    def construct(self):
        self.open()
        self.build()
        self.pairs_twice()
        self.memory()
        self.slide_context()
        self.gpt2_context()
        self.long_context()
        self.flash()

    # ------------------------------------------------------------ the bill, live

    @staticmethod
    def matrix_bytes(n: float) -> float:
        return float(cost.score_matrix_bytes(n))

    @staticmethod
    def token_bytes(n: float) -> float:
        return float(cost.token_bytes(n))

    # ------------------------------------------------------------ set-up

    def build(self):
        t = self.theme
        self.context = self.fig("context").value
        self.long = self.fig("long_context").value
        self.n = CountTracker(1)  # readouts show whole token counts
        # A log-log chart: n from 1 to the long context; bytes from 1 B to 2^6 times past the
        # long context's matrix, ticks every 1024x (KiB, MiB, GiB).
        y_hi = 2.0 ** np.ceil(np.log2(self.matrix_bytes(self.long)) + 1)
        ticks = [f for name, f in self.figures().items()
                 if name.startswith("bytes_tick_") and f.value < y_hi]
        y_ticks = [float(f.value) for f in ticks]
        minor = [4.0 ** k for k in range(1, 9) if 4.0 ** k not in (self.context, self.long)]
        self.axis = LogAxis(
            style.left_panel(), (1, self.long), [1, self.context, self.long], (1.0, y_hi), y_ticks,
            x_labels=["1", self.fig("context").text, self.fig("long_context").text],
            y_labels=[f.text for f in ticks], y_log=True, x_minor=minor,
            x_title=self.ui("x"), y_title=self.ui("y"))
        self.matrix_curve = self.axis.plot(self.matrix_bytes, t.positive, stroke=5)
        self.token_curve = self.axis.plot(self.token_bytes, t.input, stroke=5)
        self.matrix_tag = label(self.ui("matrix_tag"), style.SMALL_SIZE, t.positive)
        at = self.axis.x_at_fraction(0.72)
        self.matrix_tag.next_to(self.axis.c2p(at, self.matrix_bytes(at)), LEFT, buff=style.ROW)
        self.token_tag = label(self.ui("tokens_tag"), style.SMALL_SIZE, t.input)
        # Above the token line's left end, clear of the steeper matrix line.
        a = self.axis
        right_x = a.left + style.ROW + self.token_tag.width
        at = a.x_at_fraction((right_x - a.left) / (a.right - a.left))
        self.token_tag.move_to(a.c2p(at, self.token_bytes(at)) + style.CLOSE * UP,
                               aligned_edge=RIGHT + DOWN)

    # ------------------------------------------------------------ beats

    def pairs_twice(self):
        t = self.theme
        per = self.ui("per")
        rows = VGroup(
            VGroup(label("Q Kᵀ", style.LABEL_SIZE, t.query), label(per, style.LABEL_SIZE, t.fg)),
            VGroup(label(self.ui("mix"), style.LABEL_SIZE, t.value),
                   label(per, style.LABEL_SIZE, t.fg)),
        )
        for row in rows:
            row[1].next_to(row[0], RIGHT, buff=style.ROW)
        rows.arrange(DOWN, aligned_edge=LEFT, buff=style.NEAR)
        col = max(r[0].get_right()[0] for r in rows) + style.ROW
        for row in rows:
            row[1].move_to([col, row[1].get_center()[1], 0], aligned_edge=LEFT)
        total = label(self.ui("total"), style.LABEL_SIZE, t.amber)
        block = VGroup(rows, total).arrange(DOWN, aligned_edge=LEFT, buff=style.GAP)
        style.right_panel().place(block, "top_left")
        self.formula = block
        # Alone on screen until the chart arrives: large, at the centre.
        self.formula_home = self.stage(block)
        self.say("pairs")
        self.play(FadeIn(rows[0], shift=style.TIGHT * DOWN), run_time=timing.FADE)
        self.play(FadeIn(rows[1], shift=style.TIGHT * DOWN), run_time=timing.FADE)
        self.play(FadeIn(total, shift=style.TIGHT * DOWN), run_time=timing.FADE)
        self.settle()

    def memory(self):
        t = self.theme
        mem = label(self.ui("memory"), style.SMALL_SIZE, t.fg)
        mem.next_to(self.formula_home, DOWN, buff=style.ROW, aligned_edge=LEFT)
        panel = style.right_panel()
        if mem.width > panel.width:
            panel.fit(mem).align_to(self.formula_home, LEFT)
        self.mem = mem
        self.say("memory")
        self.unstage(self.formula, self.formula_home)
        self.play(FadeIn(mem), FadeIn(self.axis), run_time=timing.ENTER)
        self.play(Create(self.token_curve), Create(self.matrix_curve), run_time=CURVES_DRAW)
        self.play(FadeIn(self.matrix_tag), FadeIn(self.token_tag), run_time=timing.QUICK)
        self.settle()

    def slide_context(self):
        t = self.theme
        self.markers = VGroup(
            AxisMarker(self.axis, self.n, self.token_bytes, t.input, guides="x"),
            AxisMarker(self.axis, self.n, self.matrix_bytes, t.positive, guides="x"),
        )
        num = dict(font_size=style.NUMBER_SIZE)
        n_num = LiveNumber(1, decimals=0, thousands=True, color=t.fg, **num).follow(self.n.count)
        m_num = LiveBytes(self.matrix_bytes(1), color=t.positive, **num).follow_bytes(
            lambda: self.matrix_bytes(self.n.count()))
        k_num = LiveBytes(self.token_bytes(1), color=t.input, **num).follow_bytes(
            lambda: self.token_bytes(self.n.count()))
        self.readouts = ReadoutPanel([("n =", n_num), (self.ui("matrix") + " =", m_num),
                                      (self.ui("tokens") + " =", k_num)],
                                     size=style.SMALL_SIZE, row_gap=style.SPACED + style.NUDGE, color=t.fg)
        self.readouts.place_under(self.mem, style.right_panel(), buff=style.SPACED)
        self.say("slide")
        self.play(FadeIn(self.markers), FadeIn(self.readouts), run_time=timing.FADE)
        self.play(self.n.animate.set_value(self.context), run_time=timing.LONG_MOVE)
        self.settle()

    def gpt2_context(self):
        t = self.theme
        model = label(self.ui("model"), style.SMALL_SIZE, t.positive)
        model.next_to(self.readouts, DOWN, buff=style.GAP).align_to(self.readouts.numbers[1], LEFT)
        panel = style.right_panel()
        panel.fit(model)
        if model.get_right()[0] > panel.r:
            model.shift((panel.r - model.get_right()[0]) * RIGHT)
        self.model = model
        self.say("gpt2")
        self.play(Indicate(self.readouts.row(1), color=t.amber), run_time=timing.BEAT)
        self.play(FadeIn(model, shift=style.TIGHT * UP), run_time=timing.FADE)
        self.settle()

    def long_context(self):
        t = self.theme
        self.say("long")
        self.play(self.n.animate.set_value(self.long), run_time=LONG_SLIDE)
        lo = self.axis.c2p(self.long, self.token_bytes(self.long))
        hi = self.axis.c2p(self.long, self.matrix_bytes(self.long))
        gap = DoubleArrow(lo, hi, buff=style.CLOSE, color=t.amber, stroke_width=4,
                          tip_length=0.16, max_tip_length_to_length_ratio=0.2)
        gap.shift((style.GAP + style.HAIR) * LEFT)
        ratio = label(self.fig("bill_ratio").text, style.LABEL_SIZE, t.amber)
        ratio.next_to(gap, LEFT, buff=style.GAP)
        self.play(Create(gap), FadeIn(ratio), run_time=timing.ENTER)
        self.settle(RATIO_HOLD)

    def flash(self):
        t = self.theme
        note = VGroup(label("FlashAttention", style.SMALL_SIZE, t.amber, weight="BOLD"),
                      label(self.ui("flash"), style.SMALL_SIZE, t.amber)).arrange(DOWN, aligned_edge=LEFT,
                                                                       buff=style.TIGHT)
        panel = style.right_panel()
        note.next_to(self.model, DOWN, buff=style.ROW).align_to(self.formula, LEFT)
        if note.width > panel.width:
            panel.fit(note).align_to(self.formula, LEFT)
        self.say("flash")
        self.play(FadeIn(note, shift=style.TIGHT * UP), run_time=timing.ENTER)
        self.settle(timing.LAST_HOLD)
