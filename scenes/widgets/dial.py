"""A compass for one vector's direction, with the angle it has swept (section 2)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from manim import DOWN, UP, Circle, Line, VGroup, VMobject

from .. import style
from .arrows import QuickArrow, Vec
from .live_number import LiveNumber
from .redrawn import Redrawn
from .text import label

__all__ = ["DirectionDial", "unwrapped_angles"]



def unwrapped_angles(points: np.ndarray) -> np.ndarray:
    """The angle (radians) of every vector in ``points``, unwrapped along the path."""
    P = np.asarray(points, float).reshape(-1, 2)
    return np.unwrap(np.arctan2(P[:, 1], P[:, 0]))


class DirectionDial(Redrawn, VGroup):
    """A compass for one vector's direction, with the angle it has swept since a start.

    Lengths are ignored: a needle of fixed length shows where the vector points, a faint
    needle the start direction, and a filled sector the arc swept between them. The
    readout shows the degrees turned so far.

    Parameters
    ----------
    get
        Zero-argument callable returning the current vector.
    swept
        Zero-argument callable returning ``(start angle, current angle)`` in radians
        (unwrapped, so a sector larger than 180 degrees draws correctly) and the degrees
        turned so far; ``None`` before the sweep starts.
    title
        Text above the dial.
    color
        The vector's role colour.
    radius
        Dial radius in frame units.
    """

    def __init__(self, get: Vec, swept: Callable, title: str, color: str,
                 radius: float = 0.75, size: float = style.SMALL_SIZE):
        t = style.theme()
        ring = Circle(radius=radius, stroke_color=t.grid, stroke_width=2)
        ticks = VGroup(*[
            Line(radius * 0.9 * np.array([np.cos(a), np.sin(a), 0]),
                 radius * np.array([np.cos(a), np.sin(a), 0]),
                 stroke_color=t.muted, stroke_width=1.5)
            for a in np.arange(0, 2 * np.pi, np.pi / 6)
        ])
        head = label(title, size, color).next_to(ring, UP, buff=style.NEAR)
        self.radius = radius
        self.center_mob = ring
        self.sector = VMobject(fill_color=color, fill_opacity=0.35, stroke_width=0)
        self.start_needle = QuickArrow(t.muted, stroke=3, opacity=0.8, tip_length=0.16,
                                       tip_ratio=0.3)
        self.needle = QuickArrow(color, stroke=5, tip_length=0.16, tip_ratio=0.3)
        number = LiveNumber(0, decimals=0, font_size=size * 1.2, color=color, unit="\u00b0",
                            align="right")
        number.next_to(ring, DOWN, buff=style.GAP)
        super().__init__(ring, ticks, self.sector, self.start_needle, self.needle, head, number)
        self.head, self.number = head, number
        self.get, self.swept, self.role_color = get, swept, color
        self._start = None
        self._last = None
        self.redraw_every_frame()

    def _point(self, angle: float, r: float) -> np.ndarray:
        return self.center_mob.get_center() + r * np.array([np.cos(angle), np.sin(angle), 0])

    def redraw(self) -> None:
        v = np.asarray(self.get(), float)
        sw = self.swept()
        key = (float(v[0]), float(v[1]), None if sw is None else (sw[0], sw[1], sw[2]),
               tuple(self.center_mob.get_center()))
        if key == self._last:
            return
        self._last = key
        c = self.center_mob.get_center()
        reach = self.radius * 0.92
        self.needle.put(c, self._point(float(np.arctan2(v[1], v[0])), reach))
        if sw is None:
            self.sector.clear_points()
            self.start_needle.clear_points()
            self.number.set_value(0)
            return
        a0, a1, deg = sw
        self.start_needle.put(c, self._point(a0, reach))
        if abs(a1 - a0) > 1e-4:
            # A fan of points along the arc: a filled polygon, rewritten in place.
            steps = max(2, int(abs(a1 - a0) / (np.pi / 90)) + 1)
            arc = [self._point(a, self.radius * 0.8) for a in np.linspace(a0, a1, steps)]
            self.sector.set_points_as_corners([c, *arc, c])
        else:
            self.sector.clear_points()
        self.number.set_value(deg)
