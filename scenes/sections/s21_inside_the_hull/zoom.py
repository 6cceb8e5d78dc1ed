"""A magnified window on the plane (section 21): a corner of the hull and the output dot
creeping toward it, when the gap is too small to see at the plane's scale.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Dot,
    Line,
    Rectangle,
    VGroup,
    VMobject,
)

from attn_math.fmt import fmt_int
from scenes import style
from scenes.geometry import Box, clip_polygon
from scenes.widgets.arrows import Vec
from scenes.widgets.text import label

__all__ = ["ZoomInset", "nice_factor"]

def _clip(a: np.ndarray, b: np.ndarray, lo: np.ndarray, hi: np.ndarray):
    """The part of segment ``ab`` inside the box ``[lo, hi]`` (Liang-Barsky), or None."""
    d = b - a
    t0, t1 = 0.0, 1.0
    for k in range(2):
        for p, q in ((-d[k], a[k] - lo[k]), (d[k], hi[k] - a[k])):
            if abs(p) < 1e-15:
                if q < 0:
                    return None
                continue
            r = q / p
            if p < 0:
                t0 = max(t0, r)
            else:
                t1 = min(t1, r)
            if t0 > t1:
                return None
    return a + t0 * d, a + t1 * d


def nice_factor(x: float) -> float:
    """The largest of 1, 2, 5, 10, 20, 50, ... not above ``x`` (at least 1)."""
    if x <= 1:
        return 1.0
    e = np.floor(np.log10(x))
    for m in (5, 2, 1):
        if m * 10 ** e <= x:
            return float(m * 10 ** e)
    return float(10 ** e)


class ZoomInset(VGroup):
    """A magnified window on a plane: a square frame that draws a small data region large.

    The magnification is a round number (``×200``, ``×5,000``) chosen so that the data
    window of half-width about ``half_width`` fills the frame.

    Parameters
    ----------
    plane
        The :class:`~scenes.widgets.plane.VectorPlane` being magnified.
    center
        Data point at the centre of the window.
    half_width
        Wanted data half-width of the window (the actual one is a little smaller, to make
        the factor round).
    box
        ``(left, right, bottom, top)`` the inset's square frame fits in.

    Attributes
    ----------
    factor
        Magnification relative to the plane.
    frame
        The square frame; ``scale_label`` its ``×N`` tag.
    source
        A small square on the plane marking where the window is (never smaller than
        ``min_mark`` frame units, so it can be seen), and ``leaders``, two lines from it to
        the frame.
    """

    def __init__(self, plane, center: np.ndarray, half_width: float, box,
                 min_mark: float = 0.22):
        t = style.theme()
        box = Box(*box)
        side = min(box.width, box.height)
        self.center_data = np.asarray(center, float)
        self.screen_center = box.center
        self.half_screen = side / 2
        wanted = self.half_screen / (plane.unit * max(half_width, 1e-12))
        self.factor = nice_factor(wanted)
        self.half_data = self.half_screen / (plane.unit * self.factor)
        self.frame = Rectangle(width=side, height=side, stroke_color=t.muted, stroke_width=2,
                               fill_color=t.background, fill_opacity=1.0)
        self.frame.move_to(self.screen_center)
        self.scale_label = label(f"×{fmt_int(self.factor)}", style.SMALL_SIZE, t.muted)
        self.scale_label.next_to(self.frame, DOWN, buff=style.TIGHT).align_to(self.frame, RIGHT)
        mark = max(min_mark, 2 * self.half_data * plane.unit)
        self.source = Rectangle(width=mark, height=mark, stroke_color=t.muted, stroke_width=1.8)
        self.source.move_to(plane.c2p(self.center_data))
        self.leaders = VGroup(*self._leaders(t.muted))
        self.content = VGroup()
        super().__init__(self.source, self.leaders, self.frame, self.content, self.scale_label)

    def _leaders(self, color: str) -> list[Line]:
        """Two lines from the marked square to the frame, on the sides that face each other."""
        s, f = self.source, self.frame
        if f.get_center()[0] >= s.get_center()[0]:
            pairs = [(s.get_corner(UP + RIGHT), f.get_corner(UP + LEFT)),
                     (s.get_corner(DOWN + RIGHT), f.get_corner(DOWN + LEFT))]
        else:
            pairs = [(s.get_corner(UP + LEFT), f.get_corner(UP + RIGHT)),
                     (s.get_corner(DOWN + LEFT), f.get_corner(DOWN + RIGHT))]
        return [Line(a, b, stroke_color=color, stroke_width=1.2, stroke_opacity=0.7)
                for a, b in pairs]

    # ------------------------------------------------------------ mapping

    def c2p(self, v) -> np.ndarray:
        """Screen point, inside the inset, of the data point ``v``."""
        d = (np.asarray(v, float)[:2] - self.center_data) / self.half_data
        return self.screen_center + self.half_screen * np.array([d[0], d[1], 0.0])

    def contains(self, v, margin: float = 0.0) -> bool:
        d = np.abs(np.asarray(v, float)[:2] - self.center_data) / self.half_data
        return bool(np.all(d <= 1.0 - margin))

    # ------------------------------------------------------------ content

    def add_segments(self, segments, color: str, stroke: float = 3.0) -> VGroup:
        """Draw the parts of data segments ``[(a, b), ...]`` that fall in the window."""
        lo = self.center_data - self.half_data
        hi = self.center_data + self.half_data
        lines = VGroup()
        for a, b in segments:
            c = _clip(np.asarray(a, float), np.asarray(b, float), lo, hi)
            if c is not None and np.linalg.norm(c[1] - c[0]) > 1e-15:
                lines.add(Line(self.c2p(c[0]), self.c2p(c[1]), stroke_color=color,
                               stroke_width=stroke))
        self.content.add(lines)
        return lines

    def add_polygon_fill(self, vertices: np.ndarray, color: str, opacity: float = 0.12) -> VMobject:
        """Fill the part of a convex polygon inside the window (Sutherland-Hodgman)."""
        lo = self.center_data - self.half_data
        hi = self.center_data + self.half_data
        poly = [np.asarray(p, float) for p in vertices]
        axes = np.eye(len(lo))
        for k in range(2):
            # keep x_k >= lo_k, then -x_k >= -hi_k
            for normal, offset in ((axes[k], lo[k]), (-axes[k], -hi[k])):
                poly = clip_polygon(poly, normal, offset)
                if not poly:
                    break
        shape = VMobject(stroke_width=0, fill_color=color, fill_opacity=opacity)
        if len(poly) >= 3:
            shape.set_points_as_corners([self.c2p(p) for p in poly + [poly[0]]])
        self.content.add(shape)
        return shape

    def dot(self, v, color: str, radius: float = 0.08) -> Dot:
        d = Dot(self.c2p(v), radius=radius, color=color)
        self.content.add(d)
        return d

    def live_dot(self, get: Vec, color: str, radius: float = 0.08) -> Dot:
        """A dot that follows ``get()`` inside the window and hides while it is outside."""
        d = Dot(self.c2p(get()), radius=radius, color=color)

        def place(m):
            v = get()
            if self.contains(v, margin=style.HAIR):
                m.move_to(self.c2p(v))
                m.set_fill(opacity=1.0)
            else:
                m.set_fill(opacity=0.0)

        place(d)
        d.add_updater(place)
        self.content.add(d)
        return d

