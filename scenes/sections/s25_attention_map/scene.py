"""Section 25, the attention map: every row of causal weights as one picture.

Storyboard: the map of causal weights, future cut away, readable cell by cell
(numbers in the cells where they fit, else the followed row in the panel). A
slider lifts the mask: the upper-right triangle fills back in while every weight
slides from its causal value to its unmasked one; the followed row's causal
winner reads both values. The mask goes back on, and the scene closes on the four
ways to break attention without an error, each with its only symptom.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    UP,
    FadeIn,
    FadeOut,
    LaggedStart,
    ValueTracker,
    VGroup,
    smooth,
)

from attn_math import core
from scenes import style, timing
from scenes.base import SectionScene
from scenes.widgets.readouts import CellReadout, RowReadout
from scenes.widgets.score_grid import ScoreGrid, opening_pitch
from scenes.widgets.slider import Slider
from scenes.widgets.text import bullet_list

LIFT_TIME = 3.0
BUGS = ("mask", "pos", "div", "norm")   # caption keys bug_<name>_cause / bug_<name>_symptom
class AttentionMap(SectionScene):

    def construct(self):
        self.open()
        self.build()
        self.say("intro")
        self.show_map()
        self.settle()
        self.say("lift")
        self.play(FadeIn(self.controls, shift=style.TIGHT * UP), run_time=timing.FADE)
        self.set_lift(1.0)
        self.settle()
        self.say("row")
        self.set_lift(0.0)
        self.settle()
        self.say("bugs")
        self.list_bugs()
        self.settle(timing.LAST_HOLD_LONG)

    # ------------------------------------------------------------ building

    def blended(self) -> np.ndarray:
        """The weights on screen: causal at lift 0, unmasked at lift 1."""
        s, t = self.story, self.lift.get_value()
        return s.Wc + t * (s.W - s.Wc)

    def build(self):
        s = self.story
        n, f, cw = s.n, s.follow, s.causal_winner
        self.lift = ValueTracker(0.0)
        g = self.map = ScoreGrid(s.Wc, self.names, box=style.left_panel(), mode="weight",
                                 max_pitch=opening_pitch(n))
        upper = core.causal_mask(n)
        g.set_presence(np.where(upper, 0.0, 1.0))
        self.in_cells = g.numbers_fit(2)
        if self.in_cells:
            g.add_numbers()
        self.cut = g.upper_region()
        self.row_frame = g.row_highlight(f, fill_opacity=0.0)
        self.winner_frame = g.cell_marker(f, cw, color=self.theme.amber)
        g.bind(self.blended, lambda: np.where(upper, self.lift.get_value(), 1.0))
        fill_opacity = self.cut[0].get_fill_opacity()
        self.cut.add_updater(lambda m: (
            m[0].set_fill(opacity=fill_opacity * (1.0 - self.lift.get_value())),
            m[1].set_stroke(opacity=1.0 - self.lift.get_value())))
        self.controls = self.build_controls()

    def build_controls(self) -> VGroup:
        s = self.story
        f, cw = s.follow, s.causal_winner
        panel = style.right_panel()
        slider = Slider(self.lift, 0.0, 1.0, name=self.caption_text("ui_lift"),
                        width=panel.width * 0.45)
        slider.move_to([panel.center[0], panel.t - style.ROW, 0])
        # The panel names tokens as the map does (one abbreviation of a long token).
        rows, cols = self.map.row_texts, self.map.col_texts
        if self.in_cells:
            size = CellReadout.fit_size([(rows[f], cols[cw])], panel.width, size=style.LABEL_SIZE + 8)
            readout = CellReadout(rows[f], cols[cw], lambda: self.blended()[f, cw],
                                  signed_colors=False, size=size)
            readout.next_to(slider, DOWN, buff=style.FAR)
        else:
            readout = RowReadout(cols, lambda: self.blended()[f], panel.below(panel.t - (style.APART + style.GAP)),
                                 titles=[f"{rows[f]} →"], title=lambda: 0,
                                 signed_colors=False, mark=lambda: cw)
        return VGroup(slider, readout)

    # ------------------------------------------------------------ beats

    def show_map(self):
        self.play(FadeIn(self.map), run_time=timing.ENTER)
        self.play(FadeIn(self.cut), FadeIn(self.row_frame), FadeIn(self.winner_frame),
                  run_time=timing.FADE)

    def set_lift(self, value: float):
        self.play(self.lift.animate(rate_func=smooth).set_value(value), run_time=LIFT_TIME)

    def list_bugs(self):
        """Swap the controls for the four silent failures, one line pair each."""
        t = self.theme
        panel = style.right_panel()
        width = panel.width - style.NUDGE
        listing = bullet_list([(self.caption_text(f"bug_{key}_cause"),
                                self.caption_text(f"bug_{key}_symptom")) for key in BUGS],
                              width, t.fg, t.bad, t.bad)
        items = list(listing)
        panel.fit(listing, width=False, height=True)
        listing.move_to([panel.l + style.GAP + listing.width / 2, panel.center[1], 0])
        panel.pull_inside(listing)   # its widest line would pass the panel's right edge
        self.play(FadeOut(self.controls), run_time=timing.QUICK)
        self.play(LaggedStart(*[FadeIn(it, shift=style.NEAR * LEFT) for it in items], lag_ratio=0.6),
                  run_time=timing.LONG_MOVE)
