"""A score grid under a causal mask: discarded cells, the staircase, the masked future."""

from __future__ import annotations

import numpy as np
from manim import Animation, AnimationGroup, DashedVMobject, Line, Transform, VGroup, VMobject

__all__ = ["DASH_MIN", "GridMask", "dashed_square"]

#: Smallest side of a discarded (dashed) square, as a fraction of the cell, so it stays visible.
DASH_MIN = 0.45


def dashed_square(center, side: float, color: str, stroke: float = 2.0,
                  dash: float = 0.11) -> VMobject:
    """A square outline drawn in dashes that meet at the corners (an L at each corner), so
    even a small one reads as a dashed square and never as a pinwheel.

    Parameters
    ----------
    center, side
        Where and how big (frame units).
    color, stroke
        Stroke colour and width.
    dash
        Target length of one dash (frame units); each side gets at least two dashes.
    """
    c = np.asarray(center, float)
    h = side / 2
    corners = [c + [-h, h, 0], c + [h, h, 0], c + [h, -h, 0], c + [-h, -h, 0]]
    k = max(2, int(round(side / (2 * dash))) + 1)        # dashes per side
    seg = side / (2 * k - 1)
    pieces = []
    for a, b in zip(corners, corners[1:] + corners[:1]):
        u = (b - a) / side
        for m in range(k):
            pieces.append(Line(a + u * (2 * m * seg), a + u * ((2 * m + 1) * seg)))
    return VGroup(*pieces).set_stroke(color, width=stroke)


class GridMask:
    """The mask on :class:`~scenes.widgets.score_grid.ScoreGrid`: a score thrown away turns
    into a dashed outline; the staircase and the region above the diagonal."""

    def discard(self, i: int, j: int, color: str | None = None) -> Animation:
        """Turn the square of data cell ``(i, j)`` into a dashed outline of (about) its size:
        a score computed, then thrown away. Later :meth:`set_values` leave it alone."""
        self.discarded[i, j] = True
        s = self.square(i, j)
        side = max(self.side(self.values[i, j]), DASH_MIN * self.pitch)
        target = dashed_square(self.square_center(i, j), side, color or self.theme.muted)
        anims = [Transform(s, target)]
        if (i, j) in self.numbers:
            anims.append(self.numbers[(i, j)].animate.set_fill(opacity=0))
        return AnimationGroup(*anims)

    def mask_boundary(self, color: str | None = None, stroke: float = 4) -> VMobject:
        """The staircase between kept (``j <= i``) and masked (``j > i``) cells, screen coordinates
        of the unfolded grid."""
        x0, y0 = self.origin
        p = self.pitch
        pts = [[x0 + p, y0, 0]]
        for i in range(self.n - 1):
            pts.append([x0 + (i + 1) * p, y0 - (i + 1) * p, 0])
            pts.append([x0 + (i + 2) * p, y0 - (i + 1) * p, 0])
        pts.append([x0 + self.n * p, y0 - self.n * p, 0])
        stair = VMobject().set_points_as_corners(np.array(pts, float))
        return stair.set_stroke(color or self.theme.amber, width=stroke).set_fill(opacity=0)

    def upper_region(self, color: str | None = None, fill_opacity: float = 0.07) -> VGroup:
        """The region above the diagonal (the masked future) as one shape: a faint fill and a
        dashed staircase outline, ``VGroup(fill, outline)`` (unfolded grid)."""
        x0, y0 = self.origin
        p, n = self.pitch, self.n
        pts = [[x0 + p, y0, 0]]
        for i in range(1, n):
            pts += [[x0 + i * p, y0 - i * p, 0], [x0 + (i + 1) * p, y0 - i * p, 0]]
        pts += [[x0 + n * p, y0, 0], [x0 + p, y0, 0]]
        color = color or self.theme.muted
        shape = VMobject().set_points_as_corners(np.array(pts, float))
        fill = shape.copy().set_stroke(width=0).set_fill(color, opacity=fill_opacity)
        perimeter = 4 * (n - 1) * p
        outline = DashedVMobject(shape, num_dashes=max(8, int(perimeter / 0.2)), dashed_ratio=0.55)
        outline.set_stroke(color, width=2.5).set_fill(opacity=0)
        return VGroup(fill, outline)

    def upper_cells(self) -> list[tuple[int, int]]:
        """Data cells above the diagonal (``j > i``): the future under a causal mask."""
        return [(i, j) for i in range(self.n) for j in range(self.m) if j > i]
