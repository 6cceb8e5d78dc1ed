"""Section 21, inside the hull: the output of a convex combination cannot leave the values' polygon.

The values as dots and their convex hull (:func:`attn_math.core.convex_hull`). A slider pulls
the score ``S[follow, hull_token]`` up to the story's ``hull_score``; the output
(``softmax(row_with_score(S[follow], hull_token, s)) @ V``, computed live) slides toward the
hull token's value and halts just short of it, with the token's weight read live. When the
remaining gap is too small to see on the plane, a magnified inset shows it.
"""

from __future__ import annotations

import numpy as np
from manim import (
    LEFT,
    UP,
    Create,
    FadeIn,
    GrowFromCenter,
    TracedPath,
    ValueTracker,
    VGroup,
    rate_functions,
)

from attn_math import core
from scenes import style, timing
from scenes.base import SectionScene
from scenes.layout import Box, fit_width
from scenes.sections.s21_inside_the_hull.derived import hull, pulled_weights
from scenes.sections.s21_inside_the_hull.hull import ValueHull
from scenes.sections.s21_inside_the_hull.zoom import ZoomInset
from scenes.widgets.live_number import LiveNumber
from scenes.widgets.plane import VectorPlane, data_range
from scenes.widgets.readouts import Readout, VectorReadout
from scenes.widgets.slider import Slider
from scenes.widgets.text import label

PULL_TIME = 5.0
#: With an inset, the drag stops this far below the slider's end, and finishes after it opens.
LAST_PULL = 2.0
LAST_PULL_TIME = 3.0
#: A gap smaller than this (frame units, at the plane's scale) gets a magnified inset.
VISIBLE_GAP = 0.12
#: The inset's window reaches about this many final gaps either side of its centre (the
#: magnification is rounded down to a round number, which widens it up to 2.5 times).
INSET_GAPS = 0.8
LINE = 0.52          # spacing of the readout lines in the side panel
#: The slider's track length (frame units); its name sits on its left while the two fit the
#: side panel, else on a line above it.
SLIDER_WIDTH = 2.2


class InsideTheHull(SectionScene):

    def construct(self):
        self.open()
        self.hull()
        self.pull()
        self.halt()
        self.say("average")
        self.settle()
        self.say("mlp")
        self.settle(timing.LAST_HOLD)

    # ------------------------------------------------------------ live quantities

    def weights(self) -> np.ndarray:
        return pulled_weights(self.story, self.x.get_value())

    def output(self) -> np.ndarray:
        return core.mix(self.weights(), self.story.V)

    # ------------------------------------------------------------ beats

    def hull(self):
        """Value dots, their polygon, and the output inside it."""
        s, t = self.story, self.theme
        f, h = s.follow, hull(s).hull_token
        self.x = ValueTracker(float(s.S[f, h]))
        x0, x1, y0, y1 = data_range(s.V, pad=0.2, include_origin=False, step=0.5)
        self.plane = VectorPlane(style.left_panel(), (x0, x1), (y0, y1))
        self.values = ValueHull(self.plane, s.V, self.names)
        out = lambda: self.output()  # noqa: E731  (no bound method in a mobject's closure)
        self.out_dot = self.plane.live_dot(out, t.amber, radius=0.085)
        self.side_panel(out)
        self.say("convex")
        self.play(FadeIn(self.plane), FadeIn(self.values), run_time=timing.BEAT)
        self.play(GrowFromCenter(self.out_dot), FadeIn(self.panel), run_time=timing.ENTER)
        self.settle()

    def side_panel(self, out):
        """Slider for the pulled score; live weight, output and the corner's own value."""
        s, t = self.story, self.theme
        f, h = s.follow, hull(s).hull_token
        fl, hl = self.names[f], self.names[h]
        panel = style.right_panel()
        hi = self.fig("hull_score").value
        knob = LiveNumber(self.x.get_value(), decimals=2, font_size=style.SMALL_SIZE,
                          color=t.fg, align="left")
        slider_at = [panel.l, panel.t - (style.ROW + style.NUDGE), 0]
        self.slider = Slider(self.x, float(s.S[f, h]), hi, name=f"{fl} → {hl}", width=SLIDER_WIDTH,
                             readout=knob, color=t.highlight)
        self.slider.move_to(slider_at, aligned_edge=LEFT)
        if self.slider.get_right()[0] > panel.r:
            # Two long names leave no room for the track on their line: the name takes a
            # line of its own above the track (a name is never cut shorter to make room).
            knob = LiveNumber(self.x.get_value(), decimals=2, font_size=style.SMALL_SIZE,
                              color=t.fg, align="left")
            track = Slider(self.x, float(s.S[f, h]), hi, width=SLIDER_WIDTH, readout=knob,
                           color=t.highlight).move_to(slider_at, aligned_edge=LEFT)
            name = label(f"{fl} → {hl}", style.SMALL_SIZE, t.fg)
            fit_width(name, panel.width)
            name.next_to(track, UP, buff=style.CLOSE).align_to(track, LEFT)
            track.add(name)
            track.name = name
            self.slider = track
        w_line = Readout(f"w[{hl}] =", lambda: float(self.weights()[h]), decimals=3,
                         size=style.LABEL_SIZE, color=t.weight, sample=0.999)
        o_line = VectorReadout(f"o[{fl}] =", out, t.amber, style.LABEL_SIZE,
                               number_color=t.amber, name_color=t.fg, equals=False)
        v_line = VectorReadout(f"v[{hl}] =", s.V[h], t.value, style.LABEL_SIZE,
                               number_color=t.value, name_color=t.fg, equals=False)
        lines = [w_line, o_line, v_line]
        # Names right-aligned, so the "=" signs and the numbers line up.
        x_eq = panel.l + style.TIGHT + max(m.submobjects[0].width for m in lines)
        y = panel.t - (style.ROW + style.NUDGE) - LINE * 1.25
        for m in lines:
            m.move_to([0, y, 0])
            m.shift([x_eq - m.submobjects[0].get_right()[0], 0, 0])
            y -= LINE
        # A long token's name can push the numbers off the panel: shrink the lines to fit.
        block = VGroup(*lines)
        if block.get_right()[0] > panel.r:
            block.scale(panel.width / (block.get_right()[0] - panel.l),
                        about_point=np.array([panel.l, block.get_top()[1], 0]))
        self.o_line, self.v_line = o_line, v_line
        self.panel = VGroup(self.slider, *lines)
        self.inset_top = y + style.TIGHT

    def pull(self):
        """Drag the score up to the slider's end; the output slides toward the value.

        When the last gap is too small to see on the plane, the drag pauses short of the end,
        a magnified inset opens on the corner, and the drag finishes inside the inset.
        """
        t = self.theme
        hi = self.fig("hull_score").value
        gap = float(self.fig("hull_gap").value)
        self.trace = TracedPath(self.out_dot.get_center, stroke_color=t.amber,
                                stroke_width=2.5, stroke_opacity=0.7)
        self.add(self.trace)
        self.bring_to_front(self.out_dot)
        self.say("pull")
        tiny = gap * self.plane.unit < VISIBLE_GAP
        first = max(self.x.get_value(), hi - LAST_PULL) if tiny else hi
        self.play(self.x.animate(rate_func=rate_functions.ease_in_out_sine).set_value(first),
                  run_time=PULL_TIME)
        if tiny:
            self.settle()
            self.show_inset(gap)
            self.play(self.x.animate(rate_func=rate_functions.ease_out_sine).set_value(hi),
                      run_time=LAST_PULL_TIME)

    def halt(self):
        """Short of the corner, with the weight that never reaches 1."""
        self.say("halt")
        self.settle()

    def show_inset(self, gap: float):
        s, t = self.story, self.theme
        h = hull(s).hull_token
        panel = style.right_panel()
        side = min(panel.width, self.inset_top - panel.b - (style.ROW + style.NUDGE))
        box = Box(panel.l + style.TIGHT, panel.l + style.TIGHT + side, self.inset_top - side, self.inset_top)
        center = (s.V[h] + hull(s).out_pulled) / 2
        inset = ZoomInset(self.plane, center, INSET_GAPS * max(gap, 1e-12), box)
        H = self.values.vertices
        inset.add_polygon_fill(H, t.value, 0.12)
        if len(H) >= 2:
            inset.add_segments([(H[i], H[(i + 1) % len(H)]) for i in range(len(H))], t.value)
        inset.dot(s.V[h], t.value, radius=0.09)
        out = lambda: self.output()  # noqa: E731
        inset.live_dot(out, t.amber, radius=0.09)
        name = label(self.names[h], style.SMALL_SIZE, t.value)
        name.next_to(inset.c2p(s.V[h]), np.array([0, 1.0, 0]), buff=style.NEAR)
        inset.content.add(name)
        self.play(Create(inset.source), run_time=timing.FLASH)
        self.play(FadeIn(inset.leaders), FadeIn(inset.frame), FadeIn(inset.scale_label),
                  FadeIn(inset.content), run_time=timing.ENTER)
        self.inset = inset
