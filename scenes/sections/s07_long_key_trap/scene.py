"""Section 7. The long-key trap.

A raw score is shadow x key length, so a key can win by length alone. The key of the
story's long key is stretched along its own direction (a slider from 1 to ``stretch_max``,
both from ``derived.py``): its shadow never changes, its length does, and its column in the
followed row rises until it passes the winner (the crossing is marked). The same key sits
in every row, so the whole column rises and takes row after row. Remedies: LayerNorm
before the projections; QK-norm. Raw dot products.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    Flash,
    GrowArrow,
    Line,
    RoundedRectangle,
    ValueTracker,
    VGroup,
    linear,
    smooth,
)

from attn_math import core
from scenes import style, timing
from scenes.base import SectionScene
from scenes.layout import Box, fit_width
from scenes.sections.s07_long_key_trap.derived import long_key_trap
from scenes.widgets.live_number import LiveNumber
from scenes.widgets.placement import arrow_marks, line_marks, spread_labels
from scenes.widgets.plane import VectorPlane, data_range
from scenes.widgets.score_columns import ScoreColumns, ScoreSquares
from scenes.widgets.shadow import ShadowConstruction, ShadowReadout
from scenes.widgets.slider import Slider
from scenes.widgets.text import label
from scenes.widgets.tip_labels import tip_labels

#: Seconds the stretch takes to just short of the crossing (stretch_lo), and all the way to
#: its maximum (the stretch in vain; the rerun over every row).
STRETCH_TO_LO = 4.0
STRETCH_FULL = 5.0
#: Seconds the crossing is flashed and ticked on the slider.
CROSSING_FLASH = 0.9


class LongKeyTrap(SectionScene):

    @property
    def trap(self):
        """The long key and its stretch (``derived.py``)."""
        return long_key_trap(self.story)

    def construct(self):
        self.open()
        self.build()          # says "intro" while the pieces come in
        self.settle()
        if self.trap.stretch_overtakes:
            self.stretch_to_crossing()
        else:
            self.stretch_in_vain()
        self.every_row()
        self.remedies()

    # ------------------------------------------------------------ set-up

    def layout(self):
        """Plane (later the grid) on the left, slider, readout and columns on the right;
        the columns take more room when the sentence is long."""
        box = style.content_box()
        w = box.width
        cols_w = float(np.clip(0.56 * self.story.n, 0.4 * w, 0.55 * w))
        self.left_box = Box(box.l, box.r - cols_w - style.ROW, box.b, box.t)
        self.right_box = Box(box.r - cols_w, box.r, box.b, box.t)

    def build(self):
        s, t = self.story, self.theme
        self.words = self.ui_words("stretch", "shadow", "key_len", "score", "remedies")
        self.layout()
        f, w, lk = s.follow, s.winner, self.trap.long_key
        self.stretch = ValueTracker(1.0)
        self.cross = float(self.fig("stretch_cross").value)
        # The plane holds the stretched key as far as the plane is used: to the crossing.
        reach = float(self.fig("stretch_hi").value) if self.trap.stretch_overtakes else self.trap.stretch_max
        self.plane = self._plane_for(np.vstack([s.Q[f], s.K[w], reach * s.K[lk]]),
                                     reach * s.K[lk])
        p = self.plane
        self.shade = ShadowConstruction(p, lambda: s.Q[f], self.long_key)

        side = self.right_box
        readout = LiveNumber(1.0, decimals=2, prefix="×", font_size=style.SMALL_SIZE,
                             color=t.amber)
        self.slider = Slider(self.stretch, 1.0, self.trap.stretch_max, self.words["stretch"],
                             width=side.width * 0.5, readout=readout)
        self.slider.move_to(np.array([side.center[0], side.t - style.ROW, 0]))
        bound = float(max(np.linalg.norm(s.Q[f]), self.trap.stretch_max * np.linalg.norm(s.K[lk])))
        w_ = self.words
        self.readout = ShadowReadout(self.shade, (w_["shadow"], w_["key_len"], w_["score"]),
                                     bound, size=style.LABEL_SIZE, shadow_decimals=3)
        self.readout.move_to(np.array([side.center[0], 0, 0]))
        self.readout.set_y(self.slider.get_bottom()[1] - style.ROW - self.readout.height / 2)
        self.build_token_widgets(side.below(self.readout.get_bottom()[1] - (style.GAP + style.NUDGE)))
        names = self.names
        q_lab, k_lab = tip_labels(p, [(s.Q[f], f"q({names[f]})"), (s.K[w], f"k({names[w]})")],
                                  [t.query, t.key], style.LABEL_SIZE,
                                  obstacles=[reach * s.K[lk]])
        q_arrow, k_arrow = p.arrow(s.Q[f], t.query), p.arrow(s.K[w], t.key)
        # The plane is scaled for the stretched key, so the short arrows crowd the origin:
        # the two labels keep off every arrow (the long key wherever it rests: its start,
        # the stretches the beats stop at, its reach), with a leader line when pushed far.
        rests = [1.0, reach, *((float(self.fig("stretch_lo").value), self.cross)
                               if self.trap.stretch_overtakes else ())]
        lines, heads = arrow_marks([q_arrow, k_arrow, *(p.arrow(x * s.K[lk], t.key)
                                                        for x in rests)])
        # A label moved keeps off the axes and the key's line too (it reads across none),
        # and may leave the grid for the room beside it (the grid is narrow when the key
        # stretches far).
        l, r, b, t_ = p.frame_box()
        o, far = p.origin, p.c2p(reach * s.K[lk])
        ahead = (far - o) / max(float(np.linalg.norm(far - o)), 1e-9)
        span = float(np.hypot(r - l, t_ - b))
        avoid = [*p.axis_marks(), *line_marks(o - span * ahead, o + span * ahead)]
        leaders = spread_labels([q_lab, k_lab], anchors=[p.c2p(s.Q[f]), p.c2p(s.K[w])],
                                box=self.left_box, lines=lines, heads=heads, settle=False,
                                avoid=avoid)
        self.k_win = VGroup(k_arrow, k_lab)
        self.k_long = p.labelled_arrow(self.long_key, t.key, f"k({names[lk]})")
        self.q = VGroup(q_arrow, q_lab, *leaders)
        # The long key's live label keeps off the arrows too.
        p.register_arrows(q_arrow, k_arrow, self.k_long[0])
        self.bar_to_beat = self.columns.level_line(float(s.R[f, w]), t.amber)
        self.leader = self.columns.live_frame(
            lambda: core.best_key(self.keys_at(self.stretch.get_value()), s.Q[f]), t.amber)

        self.play(FadeIn(p), run_time=timing.FADE)
        self.say("intro")
        self.play(GrowArrow(self.q[0]), FadeIn(self.q[1]), GrowArrow(self.k_win[0]),
                  FadeIn(self.k_win[1]), run_time=timing.ENTER)
        self.add(self.k_long[0])
        self.play(FadeIn(self.k_long[1]), FadeIn(self.shade), run_time=timing.ENTER)
        self.bring_to_front(self.q, self.k_long, self.k_win)
        self.play(FadeIn(self.slider), FadeIn(self.readout), FadeIn(self.columns), run_time=timing.ENTER)
        self.play(Create(self.bar_to_beat), Create(self.leader), run_time=timing.FADE)

    def build_token_widgets(self, columns_box: Box):
        """The score columns (right) and the score map of every row (left, shown later) with
        one abbreviation of every word, since both are on screen at once; ``self.names`` are
        the names as they show them (the plane's tip labels use them too)."""
        s = self.story
        f = s.follow
        row_end = self.row_at(self.trap.stretch_max)
        lo = float(min(row_end.min(), s.R[f].min(), 0.0))
        hi = float(max(row_end.max(), s.R[f].max(), 0.0))
        pad = 0.04 * (hi - lo)
        end = core.raw_scores(s.Q, self.keys_at(self.trap.stretch_max))
        vmax = float(max(np.abs(s.R).max(), np.abs(end).max()))
        self.columns = ScoreColumns(self.names, self.row, columns_box, lo - pad, hi + pad)
        self.grid = ScoreSquares(self.names, self.matrix, self.left_box, vmax)

    def _plane_for(self, points: np.ndarray, far_tip: np.ndarray) -> VectorPlane:
        """A plane holding ``points``, with room beyond ``far_tip`` for its label."""
        box = self.left_box
        x0, x1, y0, y1 = data_range(points, pad=0.35)
        unit = min(box.width / (x1 - x0), box.height / (y1 - y0))
        room = 1.0 / unit                     # about a label's width, in data units
        d = far_tip / max(float(np.linalg.norm(far_tip)), 1e-9)
        x0, x1, y0, y1 = data_range(np.vstack([points, far_tip + room * d]), pad=0.35)
        return VectorPlane(self.left_box, (x0, x1), (y0, y1))

    # ------------------------------------------------------------ live quantities

    def long_key(self) -> np.ndarray:
        s = self.story
        return self.stretch.get_value() * s.K[self.trap.long_key]

    def keys_at(self, factor: float) -> np.ndarray:
        s = self.story
        K = s.K.copy()
        K[self.trap.long_key] = factor * K[self.trap.long_key]
        return K

    def matrix(self) -> np.ndarray:
        """Every raw score with the long key stretched by the slider's factor."""
        return core.raw_scores(self.story.Q, self.keys_at(self.stretch.get_value()))

    def row_at(self, factor: float) -> np.ndarray:
        s = self.story
        return core.raw_scores(s.Q[s.follow][None, :], self.keys_at(factor))[0]

    def row(self) -> np.ndarray:
        return self.row_at(self.stretch.get_value())

    # ------------------------------------------------------------ beats

    def stretch_to_crossing(self):
        t = self.theme
        lo = float(self.fig("stretch_lo").value)
        self.say("rising")
        self.play(self.stretch.animate.set_value(lo), run_time=STRETCH_TO_LO, rate_func=smooth)
        self.play(self.stretch.animate.set_value(self.cross), run_time=timing.MOVE, rate_func=linear)
        # The crossing: the two columns stand level; mark the moment on the slider.
        tick = Line(self.slider.position(self.cross) + 0.2 * DOWN,
                    self.slider.position(self.cross) + 0.2 * UP, color=t.amber, stroke_width=4)
        lo_hi = label(f"{self.fig('stretch_lo').text}–{self.fig('stretch_hi').text}",
                      style.SMALL_SIZE, t.amber).next_to(tick, UP, buff=style.NUDGE)
        self.say("overtakes")
        self.play(Flash(self.columns.tip(self.trap.long_key), color=t.amber, flash_radius=0.4),
                  Create(tick), FadeIn(lo_hi), run_time=CROSSING_FLASH)
        self.play(self.stretch.animate.set_value(float(self.fig("stretch_hi").value)),
                  run_time=timing.ENTER, rate_func=linear)
        self.settle()

    def stretch_in_vain(self):
        self.say("never_overtakes")
        self.play(self.stretch.animate.set_value(self.trap.stretch_max), run_time=STRETCH_FULL, rate_func=smooth)
        self.settle()

    def every_row(self):
        """Swap the plane for the whole score matrix; the long key's column grows in every row."""
        t = self.theme
        frame = self.grid.column_frame(self.trap.long_key, t.key)
        plane_parts = VGroup(self.plane, self.q, self.k_win, self.k_long, self.shade)
        self.say("every_row")
        self.play(FadeOut(plane_parts), run_time=timing.FADE)
        self.play(FadeIn(self.grid), Create(frame), run_time=timing.ENTER)
        # Run the stretch again from 1 with every row in view: leaders fall one by one.
        self.play(self.stretch.animate.set_value(1.0), run_time=timing.ENTER, rate_func=smooth)
        self.play(self.stretch.animate.set_value(self.trap.stretch_max), run_time=STRETCH_FULL, rate_func=linear)
        self.settle()

    def remedies(self):
        """A card in place of the readout: the two usual ways to keep key length in check."""
        t = self.theme
        rows = VGroup(label("LayerNorm(x) → W_Q, W_K", style.SMALL_SIZE, t.fg, mono=True),
                      label("QK-norm: q/‖q‖, k/‖k‖", style.SMALL_SIZE, t.fg, mono=True))
        rows.arrange(DOWN, aligned_edge=LEFT, buff=style.CLOSE)
        head = label(self.words["remedies"], style.SMALL_SIZE, t.amber)
        body = VGroup(head, rows).arrange(RIGHT, buff=style.ROW)
        fit_width(body, self.right_box.width - 2 * style.GAP)
        card = RoundedRectangle(corner_radius=0.1, width=body.width + 2 * style.GAP,
                                height=body.height + 2 * style.CLOSE, fill_color=t.panel, fill_opacity=1.0,
                                stroke_color=t.muted, stroke_width=1.5)
        card.move_to(self.readout)
        body.move_to(card)
        self.say("remedies")
        self.play(FadeOut(self.readout), FadeIn(VGroup(card, body)), run_time=timing.ENTER)
        self.settle(timing.LAST_HOLD_LONG)
