"""Section 1: three projections of one input.

The sentence, with the followed token marked and a note on its width; the gray input of
that token on a plane; W_Q, W_K and W_V attach one at a time, each turning a copy of the
input into its own arrow (the readouts follow the arrow as it forms), and the legend names
each role of the retrieval analogy.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    FadeTransform,
    GrowArrow,
    ValueTracker,
    VGroup,
    smooth,
)

from scenes import style, timing
from scenes.base import SectionScene
from scenes.widgets.arrows import FastArrow, blend_color
from scenes.widgets.chips import MatrixChip, RoleRow
from scenes.widgets.placement import arrow_marks, spread_labels
from scenes.widgets.plane import VectorPlane, data_range
from scenes.widgets.readouts import VectorReadout
from scenes.widgets.text import label, subscripted
from scenes.widgets.tip_labels import LiveTipLabel, tip_label_position
from scenes.widgets.tokens import TokenStrip

#: The sentence's chips while they open the section alone (font size, chip height).
OPENING_SIZE = 36
OPENING_CHIP = 0.8
#: A short sentence's chips grow (up to OPENING_GROWTH times) until the strip spans this
#: share of the content width, so that "it ran" does not open as a small block; longer
#: sentences span more at OPENING_SIZE already.
OPENING_SHARE = 0.45
OPENING_GROWTH = 3.0
#: Seconds the strip takes to shrink to the top; an arrow takes to grow out of its matrix.
STRIP_TO_TOP = 0.9
ARROW_GROWS = 1.6


class ThreeProjections(SectionScene):

    def construct(self):
        self.open()
        self.sentence()
        self.width_note()
        self.input_vector()
        for role in ("query", "key", "value"):
            self.attach(role)
        self.say("three_roles")
        self.settle(timing.LAST_HOLD)

    # ------------------------------------------------------------ beats

    def sentence(self):
        """The sentence as chips, the followed token marked."""
        s = self.story
        # Large while it is all there is to see; it shrinks to the usual size on its way up.
        width = style.content_box().width
        strip = TokenStrip(self.names, width=width, size=OPENING_SIZE, chip_height=OPENING_CHIP)
        self.opening_scale = float(np.clip(OPENING_SHARE * width / strip.width, 1.0,
                                           OPENING_GROWTH))
        strip.scale(self.opening_scale)
        strip.move_to(style.content_center() + style.APART * UP)
        self.strip = strip
        self.say("sentence")
        self.play(FadeIn(strip, lag_ratio=0.1), run_time=timing.BEAT)
        self.mark = strip.mark(s.follow)
        self.play(Create(self.mark), run_time=timing.FADE)
        self.settle()

    def width_note(self):
        """The followed token's two numbers under its chip, and the width of a real head."""
        s, t = self.story, self.theme
        vec = label(self.fig("x_follow").text, style.SMALL_SIZE, t.input)
        # Under the followed chip; under the first or last chip of a long strip it slides
        # along the strip into the safe area.
        style.safe_box().pull_inside(vec.next_to(self.strip.box(s.follow), DOWN, buff=style.NEAR))
        note = label(self.caption_text("ui_width"), style.SMALL_SIZE, t.muted)
        note.next_to(self.strip, DOWN, buff=style.SPACED + style.ROW)
        style.content_box().fit(note)
        self.say("two_numbers")
        self.play(FadeIn(vec, shift=style.TIGHT * DOWN), run_time=timing.FADE)
        self.play(FadeIn(note), run_time=timing.FADE)
        self.settle()
        self.vec_note = vec
        # Make room: the strip goes to the top of the content area.
        top = style.content_box().t
        head = VGroup(self.strip, self.mark)
        # to the usual size; a long sentence whose words are already smaller stays as it is
        shrink = min(1.0, style.LABEL_SIZE / (self.strip.font_size * self.opening_scale))
        end = head.copy().scale(shrink)
        end.shift((top - end.get_top()[1]) * UP)
        chip = end[0].box(s.follow)
        self.play(FadeOut(note), head.animate.scale(shrink).move_to(end),
                  vec.animate.move_to(style.safe_box().pull_inside(
                      vec.copy().next_to(chip, DOWN, buff=style.NEAR))), run_time=STRIP_TO_TOP)
        self.top = head.get_bottom()[1] - (style.GAP + style.NUDGE)

    def input_vector(self):
        """The plane and the gray input of the followed token; the legend column is laid out."""
        s, t = self.story, self.theme
        f = s.follow
        x = s.X[f]
        pts = np.array([x, s.Q[f], s.K[f], s.V[f]])
        x0, x1, y0, y1 = data_range(pts, pad=0.45)
        self.plane = VectorPlane(style.left_panel().below(self.top), (x0, x1), (y0, y1))
        self.x_arrow = self.plane.arrow(x, t.input)
        self.x_label = subscripted("x", self.names[f], t.input)
        self.x_label.move_to(tip_label_position(self.plane, x, self.x_label))
        self.build_legend()
        self.say("input")
        self.play(FadeIn(self.plane), run_time=timing.ENTER)
        self.play(GrowArrow(self.x_arrow), FadeIn(self.x_label),
                  FadeTransform(self.vec_note, self.x_row), run_time=timing.BEAT)
        self.settle()

    def build_legend(self):
        """x's readout, then one row per role (chip, live vector, meaning), fitted to the panel."""
        s, t = self.story, self.theme
        x = s.X[s.follow]
        self.x_row = VectorReadout("x", x, t.input)
        self.roles = {}
        rows = [self.x_row]
        for role, sub, W, color, sym in (
            ("query", "Q", s.head.W_Q, t.query, "q"),
            ("key", "K", s.head.W_K, t.key, "k"),
            ("value", "V", s.head.W_V, t.value, "v"),
        ):
            grow = ValueTracker(0.0)

            def vec(grow=grow, W=W):
                a = grow.get_value()
                return x @ ((1 - a) * np.eye(len(x)) + a * W)

            chip = MatrixChip(sub, W, color)
            row = RoleRow(chip, VectorReadout(sym, vec, color),
                          self.caption_text(f"ui_{role}"), color)
            self.roles[role] = (row, grow, vec, color, sym)
            rows.append(row)
        legend = VGroup(*rows).arrange(DOWN, buff=style.ROW + style.HAIR, aligned_edge=LEFT)
        panel = style.right_panel().below(self.top)
        panel.place(panel.fit(legend, height=True), "top_left")

    def attach(self, role: str):
        """One matrix attaches to the input and grows its own arrow out of a copy of it."""
        t = self.theme
        row, grow, vec, color, sym = self.roles[role]
        x = self.story.X[self.story.follow]
        arrow = FastArrow(self.plane, vec, lambda: blend_color(t.input, color, grow.get_value()))
        tip = LiveTipLabel(self.plane, vec,
                           subscripted(sym, self.names[self.story.follow], color))

        self.say(role)
        self.play(FadeIn(VGroup(row.chip, row.arrow, row.readout), shift=style.NEAR * LEFT),
                  run_time=timing.FADE)
        # The chip "attaches": a copy of it travels to the input's tip and is absorbed there.
        ghost = row.chip.copy()
        self.add(arrow)
        self.play(ghost.animate.scale(0.6).move_to(self.plane.c2p(x)).set_opacity(0.0),
                  run_time=timing.ENTER)
        self.remove(ghost)
        self.play(grow.animate.set_value(1.0), FadeIn(tip), run_time=ARROW_GROWS, rate_func=smooth)
        self.play(FadeIn(row.meaning, shift=style.TIGHT * UP), run_time=timing.QUICK)
        for m in (arrow, tip, *row.readout.numbers):
            m.clear_updaters()
        self.untangle(tip.mob, arrow)
        self.settle()

    def untangle(self, new_label, new_arrow):
        """Nudge the tip labels apart if two arrows point almost the same way, keeping them
        off every arrow's shaft and head (one word repeated: q, k and v of one direction)."""
        self.tip_mobs = getattr(self, "tip_mobs", [self.x_label]) + [new_label]
        self.tip_arrows = getattr(self, "tip_arrows", [self.x_arrow]) + [new_arrow]
        ghosts = [m.copy() for m in self.tip_mobs]
        shafts, heads = arrow_marks(self.tip_arrows)
        spread_labels(ghosts, pad=style.SNUG, lines=shafts, heads=heads)
        moves = [m.animate.move_to(g) for m, g in zip(self.tip_mobs, ghosts)
                 if np.linalg.norm(m.get_center() - g.get_center()) > 1e-3]
        if moves:
            self.play(*moves, run_time=timing.FLASH)
