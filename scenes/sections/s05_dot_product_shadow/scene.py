"""Section 5. The dot product is a shadow.

Arithmetic first (multiply matching coordinates, add), then geometry: the perpendicular
from the query's tip to the key's line; score = shadow length x key length. The query
then turns a full circle: positive while it leans toward the key, zero at a right
angle, negative past it. Raw dot products (R), no divisor.
"""

from __future__ import annotations

import numpy as np
from manim import Circumscribe, Create, FadeIn, GrowArrow, LaggedStart, Restore, ValueTracker, smooth

from scenes import style, timing
from scenes.base import SectionScene
from scenes.sections.s05_dot_product_shadow.half_planes import SignHalfPlanes
from scenes.sections.s05_dot_product_shadow.table import DotProductTable
from scenes.widgets.plane import VectorPlane, data_range
from scenes.widgets.shadow import ShadowConstruction, ShadowReadout
from scenes.widgets.tip_labels import tip_label_away

DEG_PER_SECOND = 50.0   # how fast the query turns
#: Seconds the table's rows take to come in one by one; the recap's circle round the readout.
TABLE_ROWS_IN = 1.6
RECAP_CIRCLE = 1.2
#: Seconds the query rests at the second zero crossing before it turns on, however short
#: the caption: the negative shadow has to be seen to stop.
AT_ZERO = 0.3


def _rotation(a: float) -> np.ndarray:
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, -s], [s, c]])


class DotProductShadow(SectionScene):

    def construct(self):
        self.open()
        self.build()
        self.arithmetic()
        self.shadow()
        self.sweep()
        self.recap()

    # ------------------------------------------------------------ set-up

    def build(self):
        s, t = self.story, self.theme
        self.words = self.ui_words("shadow", "key_len", "score")
        self.q0, self.k = s.Q[s.follow].copy(), s.K[s.winner].copy()
        # The query turns by `turn` radians, first toward the key (the score grows while
        # it leans in), then on round through zero, its lowest, zero again and home.
        cross = self.k[0] * self.q0[1] - self.k[1] * self.q0[0]
        self.direction = -1.0 if cross >= 0 else 1.0
        self.turn = ValueTracker(0.0)
        qn = float(np.linalg.norm(self.q0))
        ring = qn * np.array([[np.cos(a), np.sin(a)] for a in np.linspace(0, 2 * np.pi, 73)])
        x0, x1, y0, y1 = data_range(np.vstack([ring, self.k]), pad=0.45)
        self.plane = VectorPlane(style.left_panel(), (x0, x1), (y0, y1))
        p = self.plane
        self.k_arrow = p.arrow(self.k, t.key)
        self.k_label = tip_label_away(p, f"k({self.names[s.winner]})", lambda: self.k, t.key,
                                      lambda: self.q0)
        self.q_arrow = p.live_arrow(self.get_q, t.query)
        self.q_label = tip_label_away(p, f"q({self.names[s.follow]})", self.get_q, t.query,
                                      lambda: self.k)
        self.play(FadeIn(p), run_time=timing.FADE)
        self.play(GrowArrow(self.k_arrow), FadeIn(self.k_label), run_time=timing.ENTER)
        self.add(self.q_arrow)
        self.play(FadeIn(self.q_label), run_time=timing.QUICK)

    def get_q(self) -> np.ndarray:
        return _rotation(self.direction * self.turn.get_value()) @ self.q0

    # ------------------------------------------------------------ beats

    def arithmetic(self):
        s = self.story
        bound = float(max(np.abs(self.q0).max(), np.abs(self.k).max(),
                          np.linalg.norm(self.q0)))
        self.table = DotProductTable(self.get_q, lambda: self.k, f"q({self.names[s.follow]})",
                                     f"k({self.names[s.winner]})", bound)
        panel = style.right_panel()
        self.table.move_to(np.array([panel.center[0], panel.t - self.table.height / 2 - style.TIGHT, 0]))
        self.say("arithmetic")
        self.play(FadeIn(self.table.headers), run_time=timing.QUICK)
        self.play(LaggedStart(*[FadeIn(row) for row in self.table.rows], lag_ratio=0.6),
                  run_time=TABLE_ROWS_IN)
        self.play(FadeIn(self.table.total), run_time=timing.FADE)
        self.settle()

    def shadow(self):
        w = self.words
        self.shade = ShadowConstruction(self.plane, self.get_q, lambda: self.k)
        bound = float(max(np.linalg.norm(self.q0), np.linalg.norm(self.k)))
        self.readout = ShadowReadout(self.shade, (w["shadow"], w["key_len"], w["score"]), bound)
        self.readout.move_to(np.array([style.right_panel().center[0], 0, 0]))
        self.readout.set_y(self.table.get_bottom()[1] - (style.SPACED + style.TIGHT) - self.readout.height / 2)
        self.say("shadow")
        self.play(Create(self.shade.key_line), run_time=timing.FADE)
        self.play(FadeIn(self.shade), run_time=timing.ENTER)
        # Arrows stay on top of the construction.
        self.bring_to_front(self.k_arrow, self.q_arrow, self.q_label, self.k_label)
        self.play(FadeIn(self.readout), run_time=timing.FADE)
        self.settle()

    def sweep(self):
        """Turn the query a full circle: toward the key and on to the first zero (stop),
        through the negative half (its lowest pointing away from the key), home."""
        zeros = self._zeros()
        self.say("sweep")
        self._turn_to(zeros[0], 0.0, self._reading_left())
        self.settle()
        self.say("zero")
        self.reveal_halves()
        self.settle()
        self.say("negative")
        self._turn_to(zeros[1], zeros[0], self._reading_left())
        self.settle(AT_ZERO)
        self._turn_to(2 * np.pi, zeros[1], 0.0)
        self.turn.set_value(0.0)      # the same picture, exactly the story's vectors

    def reveal_halves(self):
        """Tint the key's side positive and the far side negative, behind everything."""
        self.halves = SignHalfPlanes(self.plane, self.k, avoid=self.q0)
        self.halves.save_state()
        self.halves.set_opacity(0)
        self.add(self.halves)
        self.bring_to_back(self.halves)
        self.bring_to_back(self.plane)
        self.play(Restore(self.halves), run_time=timing.ENTER)

    def recap(self):
        self.say("recap")
        self.play(Circumscribe(self.readout, color=self.theme.amber, buff=style.NEAR), run_time=RECAP_CIRCLE)
        self.settle(timing.LAST_HOLD_LONG)

    # ------------------------------------------------------------ helpers

    def _zeros(self) -> list[float]:
        """The two turning offsets (radians, in (0, 2 pi)) at which the score is zero."""
        ang = self.direction * (np.arctan2(self.q0[1], self.q0[0])
                                - np.arctan2(self.k[1], self.k[0]))
        out = sorted((t - ang) % (2 * np.pi) for t in (np.pi / 2, 3 * np.pi / 2))
        return [max(z, 1e-3) for z in out]

    def _reading_left(self) -> float:
        return max(0.0, self._read_until - self.time)

    def _turn_to(self, delta: float, done: float, at_least: float) -> None:
        """Turn from offset ``done`` to ``delta``: at the sweep's pace, or slower so that
        the motion lasts ``at_least`` seconds (the caption is read while it turns)."""
        span = abs(delta - done)
        if span < 1e-6:
            return
        run = max(0.8, np.degrees(span) / DEG_PER_SECOND, at_least)
        self.play(self.turn.animate.set_value(delta), run_time=run, rate_func=smooth)
