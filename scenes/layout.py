"""A rectangle of the frame to lay mobjects out in: :class:`Box`.

Scenes used to unpack ``(l, r, b, t)`` tuples and repeat the same fit/centre arithmetic.
A :class:`Box` is still that tuple (it unpacks as ``l, r, b, t = box``, so code reading
the zones of :mod:`scenes.style` keeps working) and adds the few operations scenes need:
its size and centre, fitting a mobject inside, placing one at a corner or an edge, and
splitting it into columns or rows.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Mobject

__all__ = ["Box", "fit_width"]

#: Named corners and edges: direction from the centre.
_SIDES = {
    "top_left": UP + LEFT, "top": UP, "top_right": UP + RIGHT,
    "left": LEFT, "center": np.zeros(3), "right": RIGHT,
    "bottom_left": DOWN + LEFT, "bottom": DOWN, "bottom_right": DOWN + RIGHT,
}


def fit_width(mob: Mobject, width: float) -> Mobject:
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

    def place(self, mob: Mobject, where: str = "center") -> Mobject:
        """Put ``mob`` at a corner/edge of the box, flush with it (``"top_left"``: the mobject's
        top-left corner on the box's)."""
        return mob.move_to(self.point(where), aligned_edge=_SIDES[where])

    def fit(self, mob: Mobject, *, width: bool = True, height: bool = False) -> Mobject:
        """Shrink ``mob`` (never grow it) until it fits the box's width (and height)."""
        if width:
            fit_width(mob, self.width)
        if height and mob.height > self.height:
            mob.scale_to_fit_height(self.height)
        return mob

    def pull_inside(self, mob: Mobject) -> Mobject:
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
