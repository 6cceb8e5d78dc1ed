"""Section 4: two maps, not one.

A blend slider moves W_Q toward W_K; every query slides onto its own token's key. The
asymmetric pair's two scaled scores, a -> b and b -> a, are read live; they start apart and
end equal: a directed relation has become a mere similarity.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Circle,
    FadeIn,
    Indicate,
    Line,
    TracedPath,
    ValueTracker,
    VGroup,
    smooth,
)

from scenes import style, timing
from scenes.base import SectionScene
from scenes.sections.s04_two_maps.derived import blended_scores, blended_W_Q
from scenes.widgets.arrows import FastArrow
from scenes.widgets.chips import MatrixChip
from scenes.widgets.live_number import LiveNumber
from scenes.widgets.plane import VectorPlane, data_range
from scenes.widgets.slider import Slider
from scenes.widgets.text import baseline, label, subscripted
from scenes.widgets.tip_labels import LiveTipLabel, TipLabels, live_tip_labels

# Presentation: the blend runs this long.
BLEND_SECONDS = 6.0
#: Seconds the pair's two scores are highlighted (once apart, once met).
SCORES_FLASH = 0.9
#: Seconds the side panel takes to fade in, part after part.
PANEL_IN = 0.9


class TwoMaps(SectionScene):

    def construct(self):
        self.open()
        self.layout()
        self.two_numbers()
        self.blend()
        self.say("merged")
        self.play(Indicate(self.score_rows, color=self.theme.highlight, scale_factor=1.08),
                  run_time=SCORES_FLASH)
        self.settle()
        self.say("why")
        self.settle(timing.LAST_HOLD)

    # ------------------------------------------------------------ live quantities

    def W_t(self) -> np.ndarray:
        return blended_W_Q(self.story, self.t.get_value())

    def S_t(self) -> np.ndarray:
        return blended_scores(self.story, self.t.get_value())

    # ------------------------------------------------------------ beats

    def layout(self):
        """Plane with every key and query; the blended matrix, the slider and the scores."""
        s, th = self.story, self.theme
        a, b = s.asym
        self.t = ValueTracker(0.0)
        names = self.names
        x0, x1, y0, y1 = data_range(np.vstack([s.Q, s.K]), pad=0.5)
        self.plane = VectorPlane(style.left_panel(), (x0, x1), (y0, y1))
        pair = (a, b)
        # Keys: wide and translucent, so a query lying on its key still shows both.
        self.keys = VGroup(*[self.plane.arrow(k, th.key, stroke=9).set_opacity(0.6 if i in pair else 0.3)
                             for i, k in enumerate(s.K)])
        queries = []
        for i in range(s.n):
            def get(i=i):
                return s.X[i] @ self.W_t()

            queries.append(FastArrow(self.plane, get, th.query, stroke=4,
                                     opacity=1.0 if i in pair else 0.5))
        self.queries = VGroup(*queries)
        self.plane.register_arrows(*self.keys, *queries)
        self.key_tags = TipLabels(self.plane, s.K[list(pair)],
                                  [names[i] for i in pair], th.key, side=-1,
                                  arrows=[*self.keys, *queries])
        # Clear of the key tags, of each other and of every arrow: a query may end on its
        # key's tag, or cross another key on its way.
        self.q_tags = live_tip_labels(self.plane, [
            LiveTipLabel(self.plane, lambda i=i: s.X[i] @ self.W_t(),
                         subscripted("q", names[i], th.query, style.SMALL_SIZE), side=1)
            for i in pair
        ])
        self.trails = VGroup(*[
            TracedPath(lambda i=i: self.plane.c2p(s.X[i] @ self.W_t()), stroke_color=th.query,
                       stroke_width=2.5, stroke_opacity=0.5)
            for i in pair
        ])
        self.side = self.side_panel()

        self.play(FadeIn(self.plane), run_time=timing.FADE)
        self.play(FadeIn(self.keys), FadeIn(self.key_tags), run_time=timing.ENTER)
        self.play(FadeIn(self.queries), FadeIn(self.q_tags), run_time=timing.ENTER)
        self.bring_to_front(self.key_tags, self.q_tags)   # labels over every arrow
        self.play(FadeIn(self.side, lag_ratio=0.05), run_time=PANEL_IN)

    def side_panel(self) -> VGroup:
        """Blended W_Q chip, the t slider, the pair's live scaled scores, a meeting line."""
        s, th = self.story, self.theme
        a, b = s.asym
        panel = style.right_panel()
        chip = MatrixChip("Q", s.head.W_Q, th.query, get=lambda: self.W_t(), suffix="(t)")
        formula = VGroup(label("= (1\u2212t)", style.SMALL_SIZE, th.muted),
                         subscripted("W", "Q", th.query, style.SMALL_SIZE),
                         label("+ t", style.SMALL_SIZE, th.muted),
                         subscripted("W", "K", th.key, style.SMALL_SIZE))
        formula.arrange(RIGHT, buff=style.CLOSE, aligned_edge=UP)
        formula.next_to(chip, DOWN, buff=style.GAP, aligned_edge=LEFT)
        slider = Slider(self.t, 0.0, 1.0, name=self.caption_text("ui_blend"), width=2.4,
                        readout=LiveNumber(0.0, decimals=2, font_size=style.SMALL_SIZE,
                                           color=th.amber))
        head = label(self.caption_text("ui_scaled"), style.SMALL_SIZE, th.fg)
        tag = label(f"S = q\u00b7k / \u221a{s.d}", style.SMALL_SIZE, th.muted)
        tag.next_to(head, RIGHT, buff=style.ROW)
        tag.shift((baseline(head, head.text) - baseline(tag, tag.text)) * UP)
        rows = VGroup(*[self.score_row(i, j) for i, j in ((a, b), (b, a))])
        rows.arrange(DOWN, buff=style.GAP + style.HAIR, aligned_edge=LEFT)
        self.score_rows = VGroup(*[r[-1] for r in rows])
        meet = self.meeting_line(width=3.6)
        group = VGroup(VGroup(chip, formula), slider, VGroup(head, tag), rows, meet)
        # Each part fits on its own: a wide row must not shrink the matrix's subscripts.
        for part in group:
            panel.fit(part)
        group.arrange(DOWN, buff=style.ROW + style.SNUG, aligned_edge=LEFT)
        panel.place(panel.fit(group, width=False, height=True), "left")
        return group

    def score_row(self, i: int, j: int) -> VGroup:
        """``i → j`` and the live scaled score S[i, j] of the blended head."""
        s, th = self.story, self.theme
        names = self.names
        name = label(f"{names[i]} \u2192 {names[j]}", style.LABEL_SIZE, th.fg)
        v = self.S_t()[i, j]
        num = LiveNumber(v, decimals=2, font_size=style.NUMBER_SIZE, color=style.score_text_color(v),
                         align="right")
        width = max(label(f"{names[p]} \u2192 {names[q]}", style.LABEL_SIZE).width
                    for p, q in (s.asym, s.asym[::-1]))
        x = name.get_left()[0] + width + 2 * style.GAP + label("\u22120.00", style.NUMBER_SIZE).width
        num.move_anchor_to(np.array([x, baseline(name, name.text), 0]))

        def update(m):
            m.set_value(self.S_t()[i, j])
            c = style.score_text_color(m.get_value())
            if m.get_fill_color().to_hex().lower() != c.lower():
                m.set_fill(c)

        num.add_updater(update)
        return VGroup(name, num)

    def meeting_line(self, width: float) -> VGroup:
        """A short number line on which the pair's two scores travel until they meet."""
        s, th = self.story, self.theme
        a, b = s.asym
        ts = np.linspace(0, 1, 41)
        vals = np.array([[blended_scores(s, t)[a, b], blended_scores(s, t)[b, a]] for t in ts])
        lo = float(np.floor(min(vals.min(), 0.0) * 2) / 2)
        hi = float(np.ceil(max(vals.max(), 0.0) * 2) / 2)
        axis = Line(LEFT * width / 2, RIGHT * width / 2, stroke_color=th.muted, stroke_width=2)

        def x_of(v):
            return axis.get_start() + (v - lo) / (hi - lo) * (axis.get_end() - axis.get_start())

        # The zero mark: the dots' colours and styles (solid or hollow) say which side is which.
        zero = Line(UP * 0.14, DOWN * 0.14, stroke_color=th.muted, stroke_width=2).move_to(x_of(0.0))
        dots = VGroup()
        for (i, j), side in (((a, b), UP), ((b, a), DOWN)):
            dot = Circle(radius=0.08, fill_opacity=1, stroke_width=0,
                         fill_color=th.fg)
            tag = label(f"{self.names[i]}\u2192{self.names[j]}", style.TINY_SIZE, th.fg)

            def place(m, i=i, j=j, side=side):
                v = self.S_t()[i, j]
                p = x_of(v)
                m[0].move_to(p + side * 0.0)
                m[1].next_to(m[0], side, buff=style.SNUG)
                style.sign_mark(m[0], v)
                # A dot at an end of the line (at the edge of the panel) keeps its tag
                # inside the safe area: the tag slides along, its dot stays on the score.
                style.safe_box().pull_inside(m[1])

            g = VGroup(dot, tag)
            place(g)
            g.add_updater(place)
            dots.add(g)
        # The two tags sit on opposite sides of the line, so they never collide.
        return VGroup(axis, zero, dots)

    def two_numbers(self):
        """Before blending: the same pair, two different numbers."""
        self.say("two_maps")
        self.add(self.trails)
        self.play(Indicate(self.score_rows, color=self.theme.highlight, scale_factor=1.08),
                  run_time=SCORES_FLASH)
        self.settle()

    def blend(self):
        """Slide t from 0 to 1: queries onto keys, the two scores onto one value."""
        self.say("blend")
        self.play(self.t.animate.set_value(1.0), run_time=BLEND_SECONDS, rate_func=smooth)
        self.settle()
