"""The two halves of the plane a key splits (section 5): positive scores on its side, negative
on the other, zero on the line between.
"""

from __future__ import annotations

import numpy as np
from manim import DashedLine, VGroup

from scenes import style
from scenes.geometry import clip_polygon
from scenes.widgets.arrows import unit
from scenes.widgets.placement import (
    place_labels,
)
from scenes.widgets.text import label

__all__ = ["SignHalfPlanes"]

class SignHalfPlanes(VGroup):
    """The two halves of the plane split by the line at right angles to the key.

    On the key's side every query scores positive, on the other side negative; the
    dividing line itself is where the score is exactly zero.

    Parameters
    ----------
    plane
        The :class:`~scenes.widgets.plane.VectorPlane`.
    key
        The key (data coordinates); only its direction matters.
    avoid
        Optional data vector (e.g. the query): the ``+``/``−`` marks go on the other side
        of the key's line.
    opacity
        Fill opacity of the two tints.

    Attributes
    ----------
    positive, negative
        The tinted polygons (sign colours), clipped to the plane's ranges.
    boundary
        The dashed zero line through the origin.
    signs
        ``+`` and ``−`` marks, one in each half.
    """

    def __init__(self, plane, key, avoid=None, opacity: float = 0.13,
                 size: float = style.LABEL_SIZE):
        from manim import Polygon

        t = style.theme()
        k = unit(np.asarray(key, float))
        x0, x1 = plane.plane.x_range[:2]
        y0, y1 = plane.plane.y_range[:2]
        rect = [np.array(p, float) for p in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
        halves = []
        for sgn in (1.0, -1.0):
            poly = clip_polygon(rect, sgn * k)
            halves.append(Polygon(*[plane.c2p(p) for p in poly], stroke_width=0,
                                  fill_color=t.positive if sgn > 0 else t.negative,
                                  fill_opacity=opacity))
        self.positive, self.negative = halves
        perp = np.array([-k[1], k[0]])
        if avoid is not None and float(np.dot(perp, avoid)) > 0:
            perp = -perp
        line = plane.line_through(perp, t.muted, opacity=1.0)
        self.boundary = DashedLine(line.get_start(), line.get_end(), color=t.muted,
                                   stroke_width=2.5, dash_length=0.12)
        # The signs sit in each half, well inside the plane, off the key's own line.
        reach = 0.6 * min(x1 - x0, y1 - y0) / 2
        plus = label("+", size * 1.4, t.positive).move_to(plane.c2p(reach * (k + perp) / 1.4))
        minus = label("\u2212", size * 1.4, t.negative_text).move_to(plane.c2p(reach * (-k + perp) / 1.4))
        # ... and clear of the labels already on the plane (a long key's name).
        place_labels([plus, minus], box=plane.frame_box(), obstacles=plane.label_boxes())
        plane.register_labels(plus, minus)
        self.signs = VGroup(plus, minus)
        super().__init__(self.positive, self.negative, self.boundary, self.signs)

