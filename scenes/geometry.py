"""The kit's plane geometry, free of manim: boxes, how they meet, a label beside a point,
clipping a polygon, a hull's corners.

A :class:`Box` is an axis-aligned rectangle in frame units, ``(left, right, bottom, top)``;
it is a tuple, so the zones of :mod:`scenes.style`, :func:`scenes.widgets.placement.box_of`
and a plain 4-tuple are all boxes. Every test of how two boxes meet is written once here:
:func:`near` / :func:`near_any` (closer than a gap), :func:`overlap_areas` (how much they
cover, of which :func:`overlap_area` and :func:`clash` are one and a sum) and
:func:`outside` (how far one leaves another). Methods that move a mobject
(:meth:`Box.place`, :meth:`Box.fit`, :meth:`Box.pull_inside`) only call the mobject's
own methods, so this module imports no manim and its geometry is tested without rendering.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

__all__ = ["Box", "beside", "beyond", "clash", "clip_polygon", "fit_width", "is_vertex",
           "near", "near_any", "nearest_point", "outside", "overlap_area", "overlap_areas",
           "padded", "point_marks"]

_UP, _DOWN = np.array([0.0, 1.0, 0.0]), np.array([0.0, -1.0, 0.0])
_LEFT, _RIGHT = np.array([-1.0, 0.0, 0.0]), np.array([1.0, 0.0, 0.0])

#: Named corners and edges: direction from the centre (manim's ``UP + LEFT``, ...).
_SIDES = {
    "top_left": _UP + _LEFT, "top": _UP, "top_right": _UP + _RIGHT,
    "left": _LEFT, "center": np.zeros(3), "right": _RIGHT,
    "bottom_left": _DOWN + _LEFT, "bottom": _DOWN, "bottom_right": _DOWN + _RIGHT,
}


def fit_width(mob, width: float):
    """Scale ``mob`` down (never up) so that it is at most ``width`` wide."""
    if mob.width > width:
        mob.scale_to_fit_width(width)
    return mob


class Box(NamedTuple):
    """An axis-aligned rectangle in frame units: left, right, bottom, top."""

    l: float  # noqa: E741 -- the zones' own names: l, r, b, t
    r: float
    b: float
    t: float

    @property
    def width(self) -> float:
        return self.r - self.l

    @property
    def height(self) -> float:
        return self.t - self.b

    @property
    def center(self) -> np.ndarray:
        return np.array([(self.l + self.r) / 2, (self.b + self.t) / 2, 0.0])

    def point(self, where: str) -> np.ndarray:
        """A corner, an edge's midpoint or the centre: ``"top_left"``, ``"bottom"``, ..."""
        d = _SIDES[where]
        # The box's own coordinates at its edges (not centre +- half size: that rounds).
        x = self.l if d[0] < 0 else self.r if d[0] > 0 else (self.l + self.r) / 2
        y = self.b if d[1] < 0 else self.t if d[1] > 0 else (self.b + self.t) / 2
        return np.array([x, y, 0.0])

    def place(self, mob, where: str = "center"):
        """Put ``mob`` at a corner/edge of the box, flush with it (``"top_left"``: the mobject's
        top-left corner on the box's)."""
        return mob.move_to(self.point(where), aligned_edge=_SIDES[where])

    def fit(self, mob, *, width: bool = True, height: bool = False):
        """Shrink ``mob`` (never grow it) until it fits the box's width (and height)."""
        if width:
            fit_width(mob, self.width)
        if height and mob.height > self.height:
            mob.scale_to_fit_height(self.height)
        return mob

    def pull_inside(self, mob):
        """Shift ``mob`` sideways, if it reaches past the box's left or right side, back inside
        (a tag centred under the first or last of a row of chips); unmoved otherwise."""
        shift = min(0.0, self.r - mob.get_right()[0]) + max(0.0, self.l - mob.get_left()[0])
        if shift:
            mob.shift(np.array([shift, 0.0, 0.0]))
        return mob

    def inset(self, dx: float, dy: float | None = None) -> Box:
        """The box shrunk by ``dx`` on the left and right and ``dy`` (default ``dx``) on the
        bottom and top."""
        dy = dx if dy is None else dy
        return Box(self.l + dx, self.r - dx, self.b + dy, self.t - dy)

    def columns(self, *fractions: float, gap: float = 0.0) -> list[Box]:
        """Split into side-by-side boxes of the given width fractions (summing to 1), ``gap``
        apart."""
        return _split(self, fractions, gap, horizontal=True)

    def rows(self, *fractions: float, gap: float = 0.0) -> list[Box]:
        """Split into stacked boxes, top first, of the given height fractions."""
        return _split(self, fractions, gap, horizontal=False)

    def below(self, y: float) -> Box:
        """The part of the box under the line ``y``."""
        return Box(self.l, self.r, self.b, min(self.t, y))

    def above(self, y: float) -> Box:
        """The part of the box over the line ``y``."""
        return Box(self.l, self.r, max(self.b, y), self.t)


def _split(box: Box, fractions: tuple[float, ...], gap: float, horizontal: bool) -> list[Box]:
    if not fractions or abs(sum(fractions) - 1.0) > 1e-9:
        raise ValueError(f"fractions must sum to 1, got {fractions}")
    span = (box.width if horizontal else box.height) - gap * (len(fractions) - 1)
    out, at = [], box.l if horizontal else box.t
    for f in fractions:
        size = f * span
        if horizontal:
            out.append(Box(at, at + size, box.b, box.t))
            at += size + gap
        else:
            out.append(Box(box.l, box.r, at - size, at))
            at -= size + gap
    return out


# ---------------------------------------------------------------- how boxes meet


def near_any(a, boxes: Sequence, gap: float) -> bool:
    """Whether box ``a`` (or any of several boxes ``a``) and any of ``boxes`` come closer
    than ``gap`` (a negative ``gap``: overlap by more than ``-gap``)."""
    if not len(boxes) or not len(a):
        return False
    b = np.asarray(boxes, float).reshape(1, -1, 4)
    a = np.asarray(a, float).reshape(-1, 1, 4)
    return bool(np.any((a[..., 0] < b[..., 1] + gap) & (b[..., 0] < a[..., 1] + gap)
                       & (a[..., 2] < b[..., 3] + gap) & (b[..., 2] < a[..., 3] + gap)))


def near(a, b, gap: float) -> bool:
    """Whether boxes ``a`` and ``b`` come closer than ``gap`` (:func:`near_any` of one box;
    written out because it runs for every pair of labels)."""
    return a[0] < b[1] + gap and b[0] < a[1] + gap and a[2] < b[3] + gap and b[2] < a[3] + gap


def overlap_areas(a, others, pad: float) -> np.ndarray:
    """The area box ``a`` shares with each of ``others``, every overlap grown by ``pad`` on
    each of its axes (0 for a box that does not overlap once grown)."""
    a = np.asarray(a, float)
    o = np.asarray(others, float).reshape(-1, 4)
    ox = np.minimum(a[1], o[:, 1]) - np.maximum(a[0], o[:, 0]) + pad
    oy = np.minimum(a[3], o[:, 3]) - np.maximum(a[2], o[:, 2]) + pad
    return np.clip(ox, 0, None) * np.clip(oy, 0, None) * ((ox > 0) & (oy > 0))


def overlap_area(a, b, pad: float) -> float:
    """The area boxes ``a`` and ``b`` share, grown by ``pad`` (:func:`overlap_areas`)."""
    return float(overlap_areas(a, b, pad)[0])


def clash(a, others, gap: float) -> float:
    """How much box ``a`` intrudes on the boxes ``others``, a ``gap`` kept around each: the
    sum of :func:`overlap_areas`."""
    if not len(others):
        return 0.0
    return float(np.sum(overlap_areas(a, others, gap)))


def outside(a, within) -> float:
    """How far box ``a`` reaches out of ``within`` (the sum over its four sides; 0 inside,
    and 0 when ``within`` is ``None``)."""
    if within is None:
        return 0.0
    l, r, b, t = within
    return float(max(0, l - a[0]) + max(0, a[1] - r) + max(0, b - a[2]) + max(0, a[3] - t))


def padded(box, pad: float) -> Box:
    """``box`` grown by ``pad`` on every side."""
    return Box(box[0] - pad, box[1] + pad, box[2] - pad, box[3] + pad)


def point_marks(points, half: float) -> list[Box]:
    """A box ``half`` around each point (frame units): what a label must not cover."""
    return [Box(p[0] - half, p[0] + half, p[1] - half, p[1] + half) for p in points]


def nearest_point(box, p) -> np.ndarray:
    """The point of ``box`` nearest the point ``p`` (where a leader line ends)."""
    return np.array([np.clip(p[0], box[0], box[1]), np.clip(p[1], box[2], box[3]), 0.0])


# ---------------------------------------------------------------- a label beside a point


def beside(point: np.ndarray, d: np.ndarray, mob, buff: float) -> np.ndarray:
    """The centre that puts ``mob`` ``buff`` beside ``point`` in the unit direction ``d``
    (3 numbers): moved out along ``d`` by ``buff`` and half its extent along ``d``, so the
    gap is ``buff`` whichever way ``d`` points (a label round a dot, across a vector)."""
    off = buff + 0.5 * abs(d[0]) * mob.width + 0.5 * abs(d[1]) * mob.height
    return point + off * d


def beyond(point: np.ndarray, u: np.ndarray, mob, buff: float) -> np.ndarray:
    """The centre that puts ``mob`` ``buff`` beyond ``point`` along the unit direction ``u``
    (2 numbers): the point of its box a fraction ``(1 - u) / 2`` across it from its
    lower-left corner lies ``buff`` along the ray, so the label turns round the tip as the
    arrow turns (a label past an arrow's tip). Along an axis it is :func:`beside`: the near
    side's midpoint faces the point."""
    return point + buff * np.array([u[0], u[1], 0]) + 0.5 * np.array([u[0] * mob.width,
                                                                      u[1] * mob.height, 0])


# ---------------------------------------------------------------- polygons


def clip_polygon(poly: Sequence[np.ndarray], normal: np.ndarray,
                 offset: float = 0.0) -> list[np.ndarray]:
    """Sutherland-Hodgman: the part of a convex polygon where ``p . normal >= offset``."""
    out = []
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        da, db = float(a @ normal) - offset, float(b @ normal) - offset
        if da >= 0:
            out.append(a)
        if (da >= 0) != (db >= 0):
            out.append(a + (b - a) * da / (da - db))
    return out


def is_vertex(vertices: np.ndarray, p: np.ndarray, tol: float = 1e-9) -> bool:
    """Whether the point ``p`` is one of ``vertices`` (a hull's corners), within ``tol``."""
    return bool(np.any(np.linalg.norm(np.asarray(vertices, float) - np.asarray(p, float),
                                      axis=1) <= tol))
