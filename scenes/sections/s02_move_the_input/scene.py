"""Section 2: move the input, and q, k, v move with it.

The followed token's input wanders around the plane with its query, key and value
computed live (x @ W_Q, x @ W_K, x @ W_V); then it is pushed straight up along the
story's push path. Two dials count the degrees the query and the value have turned since
the push began: the query sweeps a wide arc, the value barely moves.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    FadeIn,
    TracedPath,
    ValueTracker,
    VGroup,
    linear,
    smooth,
)

from attn_math import core
from scenes import style, timing
from scenes.base import SectionScene
from scenes.layout import Box
from scenes.sections.s02_move_the_input.derived import push_path
from scenes.widgets.arrows import FastArrow
from scenes.widgets.dial import DirectionDial, unwrapped_angles
from scenes.widgets.plane import VectorPlane, data_range
from scenes.widgets.readouts import VectorReadout
from scenes.widgets.text import label, subscripted
from scenes.widgets.tip_labels import LiveTipLabel, live_tip_labels

# Presentation: the wander loop is an ellipse through the start, this fraction of |x| wide.
WANDER_RADIUS = 0.45
WANDER_FLATTEN = 0.55
DIAL_RADIUS = 0.95
PLANE_SHARE = 0.42
#: Seconds: q, k and v growing out of the input; one loop around the plane; the push up.
ARROWS_GROW = 1.2
WANDER_SECONDS = 5.0
PUSH_SECONDS = 4.5
#: Seconds the arrows stand still before the push, so the push reads as a new move.
BEFORE_PUSH = 0.6


class MoveTheInput(SectionScene):

    def construct(self):
        self.open()
        self.setup_vectors()
        self.wander()
        self.push()
        self.verdict()
        self.say("moral")
        self.settle(timing.LAST_HOLD)

    # ------------------------------------------------------------ the moving input

    def wander_point(self, u: float) -> np.ndarray:
        """A loop that starts and ends at the followed token's input."""
        x0 = self.story.X[self.story.follow]
        r = WANDER_RADIUS * np.linalg.norm(x0)
        a = 2 * np.pi * u
        return x0 + np.array([r * (np.cos(a) - 1.0), WANDER_FLATTEN * r * np.sin(a)])

    def push_prefix(self, p: float) -> np.ndarray:
        """The push path walked up to fraction ``p`` (ends exactly on the story's path at 1)."""
        path = self.path
        k = p * (len(path) - 1)
        i = int(np.floor(k + 1e-12))
        if i >= len(path) - 1:
            return path
        frac = k - i
        head = path[: i + 1]
        if frac < 1e-12:
            return head
        return np.vstack([head, path[i] + frac * (path[i + 1] - path[i])])

    def x_now(self) -> np.ndarray:
        if self.phase == "wander":
            return self.wander_point(self.u.get_value())
        return self.push_prefix(self.p.get_value())[-1]

    def sweep(self, W):
        """(start angle, current angle, degrees turned so far) of ``x @ W`` during the push."""
        if self.phase != "push":
            return None
        prefix = core.project(self.push_prefix(self.p.get_value()), W)
        ang = unwrapped_angles(prefix)
        return float(ang[0]), float(ang[-1]), core.swept_angle_deg(prefix)

    # ------------------------------------------------------------ beats

    def setup_vectors(self):
        """Plane, the input and its three projections, live readouts and two dials."""
        s, t = self.story, self.theme
        self.path = push_path(s)
        self.phase = "wander"
        self.u, self.p = ValueTracker(0.0), ValueTracker(0.0)
        W = {"q": s.head.W_Q, "k": s.head.W_K, "v": s.head.W_V}
        self.W = W
        loop = np.array([self.wander_point(u) for u in np.linspace(0, 1, 97)])
        P = np.vstack([loop, self.path])
        x0, x1, y0, y1 = data_range(np.vstack([P] + [P @ M for M in W.values()]), pad=0.35)
        # The plane is tall and narrow here (the key reaches far up): give it the left
        # part of the content area and the rest to the readouts and the dials.
        box = style.content_box()
        self.plane = VectorPlane(box.columns(PLANE_SHARE, 1 - PLANE_SHARE)[0], (x0, x1), (y0, y1))
        self.side = Box(self.plane.get_right()[0] + (style.SPACED + style.NUDGE), box.r, box.b, box.t)

        tok = self.names[s.follow]
        colors = {"x": t.input, "q": t.query, "k": t.key, "v": t.value}
        self.grow = ValueTracker(0.0)   # arrows grow in from the origin at the start
        gets = {"x": lambda: self.grow.get_value() * self.x_now()}
        for sym, M in W.items():
            gets[sym] = (lambda M=M: self.grow.get_value() * core.project(self.x_now(), M))
        self.gets = gets
        self.arrows = {sym: FastArrow(self.plane, g, colors[sym]) for sym, g in gets.items()}
        self.tips = {sym: LiveTipLabel(self.plane, g, subscripted(sym, tok, colors[sym]))
                     for sym, g in gets.items()}

        readouts = VGroup(*[VectorReadout(sym, gets[sym], colors[sym]) for sym in "xqkv"])
        readouts.arrange(DOWN, buff=style.ROW, aligned_edge=LEFT)
        self.readouts = readouts

        dq = DirectionDial(gets["q"], lambda: self.sweep(W["q"]),
                           self.caption_text("ui_q_dir"), t.query, radius=DIAL_RADIUS)
        dv = DirectionDial(gets["v"], lambda: self.sweep(W["v"]),
                           self.caption_text("ui_v_dir"), t.value, radius=DIAL_RADIUS)
        dials = VGroup(dq, dv).arrange(RIGHT, buff=style.SPACED + style.NUDGE, aligned_edge=UP)
        turned = label(self.caption_text("ui_turned"), style.SMALL_SIZE, t.muted)
        turned.next_to(dials, DOWN, buff=style.CLOSE)
        panel = VGroup(dials, turned)
        side = VGroup(readouts, panel).arrange(RIGHT, buff=style.APART, aligned_edge=ORIGIN)
        self.side.place(self.side.fit(side, height=True))
        self.dials = (dq, dv)
        self.dial_panel = panel

        self.play(FadeIn(self.plane), run_time=timing.ENTER)
        self.add(*self.arrows.values(), readouts)
        self.play(self.grow.animate.set_value(1.0), FadeIn(panel), run_time=ARROWS_GROW)
        # Two arrows may point almost the same way (q and k of "swim" in "birds sing and
        # fish swim"): from now on the tips settle clear of one another and off the arrows'
        # shafts on every frame (not while the arrows grow out of the origin, where every
        # tip is at one point).
        self.plane.register_arrows(*self.arrows.values())
        live_tip_labels(self.plane, list(self.tips.values()))
        self.play(*[FadeIn(m) for m in self.tips.values()], run_time=timing.FLASH)

    def wander(self):
        """The input loops around the plane; q, k and v follow it."""
        self.say("wander")
        self.play(self.u.animate.set_value(1.0), run_time=WANDER_SECONDS, rate_func=smooth)
        self.settle()

    def push(self):
        """Straight up along the story's path, with a faint trail behind every tip."""
        t = self.theme
        self.phase = "push"
        trails = VGroup(*[
            TracedPath(lambda g=self.gets[k]: self.plane.c2p(g()), stroke_color=c,
                       stroke_width=3, stroke_opacity=0.45)
            for k, c in (("x", t.input), ("q", t.query), ("k", t.key), ("v", t.value))
        ])
        self.add(trails)
        # Trails under the arrows.
        self.bring_to_front(*self.arrows.values(), *self.tips.values())
        self.say("push")
        self.wait(BEFORE_PUSH)
        self.play(self.p.animate.set_value(1.0), run_time=PUSH_SECONDS, rate_func=linear)
        self.settle()

    def verdict(self):
        """The dials hold the story's figures now; the caption states them."""
        self.say("verdict")
        self.settle()
