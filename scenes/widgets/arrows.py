"""Arrows drawn on a plane whose points are rewritten in place: no mobject built per frame.

:class:`QuickArrow` is an arrow moved by hand (:meth:`QuickArrow.put`); :class:`FastArrow`
follows a vector on every frame. Both look like
:meth:`VectorPlane.arrow <scenes.widgets.plane.VectorPlane.arrow>` (the head shape below).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from manim import VGroup, VMobject, interpolate_color
from manim.utils.color import ManimColor

from .redrawn import Redrawn, live_source

__all__ = ["HEAD_LENGTH", "HEAD_RATIO", "STROKE_RATIO", "FastArrow", "QuickArrow", "Vec", "blend_color",
           "unit"]

#: A vector given as a getter: read on every frame, so whatever moves it is followed.
Vec = Callable[[], np.ndarray]


def unit(v: np.ndarray) -> np.ndarray:
    """``v`` scaled to length 1 (along x when it has no length)."""
    n = float(np.linalg.norm(v))
    return v / n if n > 1e-12 else np.array([1.0, 0.0])

#: An arrow's head on a plane (:meth:`VectorPlane.arrow`, :class:`QuickArrow`): at most
#: ``HEAD_LENGTH`` long and at most ``HEAD_RATIO`` of the arrow; its stroke at most
#: ``STROKE_RATIO`` times the arrow's length (short arrows thin out).
HEAD_LENGTH, HEAD_RATIO, STROKE_RATIO = 0.22, 0.18, 8.0

class QuickArrow(VGroup):
    """An arrow whose points are rewritten in place: no mobject is built per frame.

    Looks like :meth:`VectorPlane.arrow <scenes.widgets.plane.VectorPlane.arrow>` (a line
    and a filled triangular tip as long as it is wide, at most ``tip_length`` and at most
    ``tip_ratio`` of the arrow; the stroke thins on short arrows) but costs a few array
    writes to move, where building a manim ``Arrow`` costs about 10 ms.

    Parameters
    ----------
    color, stroke, opacity
        Initial style (change it with :meth:`put`).
    """

    def __init__(self, color: str, stroke: float = 5, opacity: float = 1.0,
                 tip_length: float = HEAD_LENGTH, tip_ratio: float = HEAD_RATIO,
                 stroke_ratio: float = STROKE_RATIO):
        self.line = VMobject(stroke_color=color, stroke_width=stroke, stroke_opacity=opacity)
        self.tip = VMobject(fill_color=color, fill_opacity=opacity, stroke_width=0)
        super().__init__(self.line, self.tip)
        self.tip_length, self.tip_ratio, self.stroke_ratio = tip_length, tip_ratio, stroke_ratio
        self.style = (str(color), float(stroke), float(opacity))
        self._style_set = None

    def put(self, start, end, color: str | None = None, stroke: float | None = None,
            opacity: float | None = None) -> QuickArrow:
        """Draw from ``start`` to ``end`` (frame points), optionally with a new style."""
        c0, w0, o0 = self.style
        self.style = (str(color or c0), float(w0 if stroke is None else stroke),
                      float(o0 if opacity is None else opacity))
        c, w, o = self.style
        a, b = np.asarray(start, float), np.asarray(end, float)
        L = float(np.linalg.norm(b - a))
        if L < 1e-4:
            self.line.clear_points()
            self.tip.clear_points()
            return self
        d = (b - a) / L
        n = np.array([-d[1], d[0], 0.0])
        tl = min(self.tip_length, self.tip_ratio * L)
        base = b - tl * d
        self.line.set_points_as_corners([a, base])
        self.tip.set_points_as_corners([b, base + 0.5 * tl * n, base - 0.5 * tl * n, b])
        width = min(w, self.stroke_ratio * L)
        style = (c, width, o)
        if style != self._style_set:
            self.line.set_stroke(c, width=width, opacity=o)
            self.tip.set_fill(c, opacity=o)
            self.tip.set_stroke(width=0)
            self._style_set = style
        return self


class FastArrow(Redrawn, QuickArrow):
    """An arrow from the origin of ``plane`` to ``get()``, following it on every frame.

    The updater skips all work when neither the vector nor the colour changed, and
    otherwise rewrites the points in place (see :class:`QuickArrow`). Animate it with
    ``FadeIn``/``FadeOut`` or by moving what ``get`` reads, not with ``GrowArrow``.

    Parameters
    ----------
    plane
        The :class:`~scenes.widgets.plane.VectorPlane`.
    get
        Zero-argument callable returning the 2-vector.
    color
        A colour, or a zero-argument callable returning one (e.g. a colour fading in).
    stroke
        Stroke width.
    opacity
        Stroke and tip opacity.
    """

    def __init__(self, plane, get: Vec, color, stroke: float = 5, opacity: float = 1.0):
        c = color() if callable(color) else color
        super().__init__(c, stroke, opacity)
        # Live sources, shared by copies: a copy of this arrow (each FadeIn) must not
        # deep-copy the whole plane, nor the scene a getter is a bound method of.
        self._c2p = live_source(plane.c2p)
        self.get = live_source(get)
        self.color_of = live_source(color) if callable(color) else color
        self.stroke, self.opacity = stroke, opacity
        self._last = None
        self.redraw_every_frame()

    def redraw(self) -> None:
        v = np.asarray(self.get(), float)
        c = self.color_of() if callable(self.color_of) else self.color_of
        key = (float(v[0]), float(v[1]), str(c), self.opacity, self.stroke)
        if key == self._last:
            return
        self._last = key
        self.put(self._c2p((0.0, 0.0)), self._c2p(v), c, self.stroke, self.opacity)


def blend_color(a: str, b: str, s: float) -> str:
    """The colour a fraction ``s`` of the way from ``a`` to ``b`` (hex): an arrow turning
    from one role's colour to another's (a :class:`FastArrow` takes a colour getter)."""
    return interpolate_color(ManimColor(a), ManimColor(b), float(np.clip(s, 0, 1))).to_hex()
