"""The values' convex hull of section 21: the value dots and the polygon the output cannot leave.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    Dot,
    Polygon,
    VGroup,
    VMobject,
)

from attn_math import core
from scenes import style
from scenes.widgets.mixing import merged_labels, radial_labels
from scenes.widgets.placement import line_marks

__all__ = ["ValueHull"]

class ValueHull(VGroup):
    """The value dots, labelled by token, and the convex polygon they span.

    Parameters
    ----------
    plane
        The :class:`~scenes.widgets.plane.VectorPlane`.
    V
        ``(n, 2)`` values.
    labels
        Token labels (coinciding values share one label).

    Attributes
    ----------
    polygon
        The hull (:func:`attn_math.core.convex_hull`), a faint violet fill with a violet edge;
        a segment or a point when the values are collinear or equal.
    dots, names
        One dot per distinct value and its label (off the polygon's edges).
    leaders
        Leader lines of the labels moved far from their dots.
    vertices
        The hull's vertices (data), counter-clockwise.
    """

    def __init__(self, plane, V: np.ndarray, labels: Sequence[str],
                 size: float = style.SMALL_SIZE):
        t = style.theme()
        V = np.asarray(V, float)
        self.vertices = core.convex_hull(V)
        pts = [plane.c2p(p) for p in self.vertices]
        if len(pts) >= 3:
            poly = Polygon(*pts, stroke_color=t.value, stroke_width=2.5,
                           fill_color=t.value, fill_opacity=0.12)
        else:
            poly = VMobject(stroke_color=t.value, stroke_width=2.5)
            poly.set_points_as_corners(pts if len(pts) > 1 else [pts[0], pts[0]])
        self.polygon = poly
        groups = merged_labels(V, labels)
        firsts = [g[0] for g, _ in groups]
        self.dots = VGroup(*[Dot(plane.c2p(V[i]), radius=0.06, color=t.value) for i in firsts])
        ring = pts + pts[:1] if len(pts) >= 3 else pts
        edges = [m for a, b in zip(ring, ring[1:]) for m in line_marks(a, b)]
        names, leaders = radial_labels(plane, V[firsts], [s for _, s in groups], t.value,
                                        size, center=self.vertices.mean(axis=0), lines=edges)
        self.names, self.leaders = VGroup(*names), VGroup(*leaders)
        super().__init__(poly, self.dots, self.leaders, self.names)

