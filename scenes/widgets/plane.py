"""A coordinate plane on which every 2-D quantity of the toy head is drawn."""

from __future__ import annotations

import numpy as np
from manim import (
    Arrow,
    DashedLine,
    Dot,
    Line,
    NumberPlane,
    VGroup,
    VMobject,
)

from .. import style
from ..layout import Box
from .arrows import HEAD_LENGTH, HEAD_RATIO, STROKE_RATIO, FastArrow, Vec
from .placement import (
    LABEL_GAP,
    LINE_REACH,
    arrow_marks,
    box_of,
    is_clear,
    line_marks,
    near,
    on_lines,
    place_labels,
)
from .redrawn import live_source
from .tip_labels import live_tip_label

__all__ = ["EASE_BACK", "PUSH_STEPS", "SNAP_BACK", "VectorPlane", "data_range"]

#: Each frame a live label that was pushed off its wished spot tries a spot this much
#: nearer to it (and keeps the old one while the nearer is taken), so it glides back
#: rather than jumping when the way clears.
EASE_BACK = 0.9
#: An offset this small (frame units, under a pixel) is dropped: the label is home.
SNAP_BACK = 0.01
#: Halvings of the push that frees a live label (the last one is under a pixel).
PUSH_STEPS = 8


def _pushes(a: np.ndarray, others, gap: float = LABEL_GAP) -> list[tuple[float, float]]:
    """The four straight shifts that take box ``a`` just ``gap`` clear of each box in
    ``others`` it comes within ``gap`` of (left, right, down, up)."""
    out = []
    for o in others:
        if near(tuple(a), o, gap):
            eps = 1e-6
            out += [(o[0] - gap - a[1] - eps, 0.0), (o[1] + gap - a[0] + eps, 0.0),
                    (0.0, o[2] - gap - a[3] - eps), (0.0, o[3] + gap - a[2] + eps)]
    return out


def data_range(points: np.ndarray, pad: float = 0.4, include_origin: bool = True,
               step: float = 1.0, pad_origin: bool = True) -> tuple[float, float, float, float]:
    """``(x_min, x_max, y_min, y_max)`` around ``points`` (and the origin), padded by ``pad``,
    on multiples of ``step`` (whole units by default).

    With ``pad_origin=False`` the origin is included without the padding, and with a
    ``step`` of half a unit values bunched in one quadrant fill the plane (the value planes
    of sections 20 and 21).
    """
    P = np.asarray(points, float).reshape(-1, 2)
    if include_origin and pad_origin:
        P = np.vstack([P, [0.0, 0.0]])
    lo, hi = P.min(axis=0) - pad, P.max(axis=0) + pad
    if include_origin and not pad_origin:
        lo, hi = np.minimum(lo, 0.0), np.maximum(hi, 0.0)
    lo = np.floor(lo / step) * step
    hi = np.ceil(hi / step) * step
    return float(lo[0]), float(hi[0]), float(lo[1]), float(hi[1])


class VectorPlane(VGroup):
    """A faint grid fitted into a screen box, with equal units on both axes.

    Parameters
    ----------
    box
        (left, right, bottom, top) in frame units, e.g. :func:`style.left_panel`.
    x_range, y_range
        Data ranges ``(min, max)`` that must be visible; whole units are drawn
        as grid lines. The unit is the largest that fits both ranges in ``box``.
    """

    def __init__(self, box, x_range, y_range):
        t = style.theme()
        box = Box(*box)
        xw, yw = x_range[1] - x_range[0], y_range[1] - y_range[0]
        unit = min(box.width / xw, box.height / yw)
        self.unit = unit
        plane = NumberPlane(
            x_range=(x_range[0], x_range[1], 1), y_range=(y_range[0], y_range[1], 1),
            x_length=xw * unit, y_length=yw * unit,
            background_line_style={"stroke_color": t.grid, "stroke_width": 1.2,
                                   "stroke_opacity": 1.0},
            axis_config={"stroke_color": t.muted, "stroke_width": 2, "include_tip": False},
            faded_line_ratio=1,
        )
        plane.move_to(box.center)
        super().__init__(plane)
        self.plane = plane
        # Kept by reference through copies: an animation's copy of the plane must not copy
        # every label on it, nor start a registry of its own.
        self._placed = live_source([])
        self._arrows = live_source([])
        self._marks = live_source({})   # arrow_boxes' last answer, by the arrows' points

    @property
    def placed_labels(self) -> list:
        """Every label placed on this plane (static tip labels and live ones): what a live
        label settles clear of (:meth:`settle_live`)."""
        return self._placed()

    def frame_box(self) -> tuple[float, float, float, float]:
        """(left, right, bottom, top) of the drawn grid."""
        return box_of(self.plane)

    def register_labels(self, *mobs) -> None:
        """Note labels placed on the plane, for the live labels to keep clear of."""
        for m in mobs:
            if not any(m is o for o in self.placed_labels):
                self.placed_labels.append(m)

    def label_boxes(self, *but) -> list[tuple[float, float, float, float]]:
        """Boxes of the labels placed on the plane (except those in ``but``)."""
        return [box_of(m) for m in self.placed_labels
                if not any(m is b for b in but) and any(x.has_points() for x in m.get_family())]

    def register_arrows(self, *arrows) -> None:
        """Note arrows drawn on the plane (manim ``Arrow`` or
        :class:`QuickArrow`/:class:`FastArrow`), for the live labels to keep off their
        shafts and heads (:meth:`settle_live`); arrows not noted are not avoided."""
        for a in arrows:
            if not any(a is o for o in self._arrows()):
                self._arrows().append(a)

    def arrow_boxes(self) -> tuple[list[tuple], list[tuple]]:
        """The marks along the shafts and the head boxes of the arrows noted on the plane
        (:func:`scenes.widgets.placement.arrow_marks`), where they are drawn now.

        Every live label asks on every frame; the marks are worked out again only when an
        arrow has moved (they follow from the arrows' points alone).
        """
        arrows = self._arrows()
        key = tuple((id(a), *(m.points.tobytes() for m in a.get_family())) for a in arrows)
        memo = self._marks()
        if memo.get("key") != key:
            memo["key"], memo["marks"] = key, arrow_marks(arrows)
        return memo["marks"]

    def live_state(self, mob) -> dict:
        """Register the live label ``mob`` and return its state for :meth:`settle_live`."""
        self.register_labels(mob)
        return {"label": mob}

    def settle_live(self, mob, wish: np.ndarray, state: dict,
                    box: tuple[float, float, float, float] | None = None) -> None:
        """Put the live label ``mob`` at ``wish`` (its centre), or at the free spot nearest
        it, clear of the plane's other labels and off the shafts and heads of the arrows
        noted on it (:meth:`register_arrows`; the shared placement pass,
        :func:`scenes.widgets.placement.place_labels`), inside ``box`` (the safe area when
        omitted). Call on every frame with the same ``state`` dict, made by
        :meth:`live_state` for the label as registered (an animation's copy of ``mob``
        settles clear of the others, not of its original).

        A label pushed aside keeps its offset from the wish while that spot stays free and
        eases back toward the wish (:data:`EASE_BACK`), so it never hops between frames.
        A spot is free when it keeps :data:`~scenes.widgets.placement.LABEL_GAP` from the
        other labels and does not lie on an arrow
        (:func:`~scenes.widgets.placement.on_lines`, within
        :data:`~scenes.widgets.placement.LINE_REACH` of a shaft); a label pushed off an
        arrow keeps the gap from it too.
        """
        wish = np.asarray(wish, float)
        others = self.label_boxes(mob, state.get("label"))
        lines, heads = self.arrow_boxes()
        off = state.get("off")
        if off is None or not (others or lines or heads):
            off = np.zeros(3)
        nearer = EASE_BACK * off if np.linalg.norm(off) > SNAP_BACK else np.zeros(3)
        tries = [nearer, off] if np.any(off) else [off]
        within = style.safe_box() if box is None else box

        # as arrays once: free() is asked several times a frame
        line_array, head_array = (np.asarray(x, float).reshape(-1, 4) for x in (lines, heads))

        def free(b) -> bool:
            return (is_clear(b, others, within=within)
                    and not on_lines(b, line_array, head_array, LINE_REACH))

        for o in tries:
            mob.move_to(wish + o)
            if free(box_of(mob)):
                state["off"] = o
                return
        # The old spot is taken. Pushed straight off the label or arrow in the way, just
        # clear of it, when that frees it: the push grows with the overlap, so the label
        # slides.
        a = np.array(box_of(mob))
        blocking = [*others, *(h for h in heads if on_lines(tuple(a), heads=[h])),
                    *(m for m in lines if on_lines(tuple(a), lines=[m], reach=LINE_REACH))]
        for dx, dy in sorted(_pushes(a, blocking), key=lambda p: abs(p[0]) + abs(p[1])):
            if free(tuple(a + np.array([dx, dx, dy, dy]))):
                mob.shift(np.array([dx, dy, 0.0]))
                state["off"] = mob.get_center() - wish
                return
        # Else the free spot nearest it, then back along the way to it as far as stays
        # free (the pass's candidate rings are RINGS apart; stepping by them would shudder).
        start = mob.get_center().copy()
        place_labels([mob], box=within, obstacles=[*others, *heads, *lines])
        if not is_clear(box_of(mob), others, within=within):
            # No spot near is clear of both (the pass weighs a word over a word less than
            # a word across a shaft): clear of the labels then, a word over a word reads
            # as neither.
            mob.move_to(start)
            place_labels([mob], box=within, obstacles=others)
        free_at = mob.get_center().copy()
        lo, hi = 0.0, 1.0
        for _ in range(PUSH_STEPS):
            mid = (lo + hi) / 2
            mob.move_to(start + mid * (free_at - start))
            if free(box_of(mob)):
                hi = mid
            else:
                lo = mid
        mob.move_to(start + hi * (free_at - start))
        state["off"] = mob.get_center() - wish

    def c2p(self, v) -> np.ndarray:
        """Screen point of the data vector ``v`` (2 numbers)."""
        return self.plane.c2p(float(v[0]), float(v[1]))

    @property
    def origin(self) -> np.ndarray:
        return self.c2p((0.0, 0.0))

    def axis_marks(self) -> list[tuple[float, float, float, float]]:
        """Marks along both axes across the drawn grid
        (:func:`scenes.widgets.placement.line_marks`): for a label that should not read
        across an axis."""
        l, r, b, t = self.frame_box()
        o = self.origin
        return [*line_marks((l, o[1]), (r, o[1])), *line_marks((o[0], b), (o[0], t))]

    # ------------------------------------------------------------ drawn things

    def arrow(self, v, color: str, stroke: float = 5) -> Arrow:
        """A static arrow from the origin to ``v``."""
        return Arrow(self.origin, self.c2p(v), buff=0, color=color, stroke_width=stroke,
                     max_tip_length_to_length_ratio=HEAD_RATIO,
                     max_stroke_width_to_length_ratio=STROKE_RATIO, tip_length=HEAD_LENGTH)

    def live_arrow(self, get: Vec, color: str, stroke: float = 5) -> FastArrow:
        """An arrow from the origin that follows ``get()`` every frame (points rewritten in place)."""
        return FastArrow(self, get, color, stroke)

    def labelled_arrow(self, get: Vec, color: str, text: str, size: float = style.LABEL_SIZE):
        """A live arrow with its tip label: ``VGroup(arrow, label)``."""
        return VGroup(self.live_arrow(get, color), live_tip_label(self, text, get, color, size))

    def dot(self, v, color: str, radius: float = 0.07) -> Dot:
        return Dot(self.c2p(v), radius=radius, color=color)

    def live_dot(self, get: Vec, color: str, radius: float = 0.07) -> Dot:
        d = Dot(self.c2p(get()), radius=radius, color=color)
        d.add_updater(lambda m: m.move_to(self.c2p(get())))
        return d

    def line_through(self, direction, color: str, opacity: float = 0.5) -> Line:
        """The full line through the origin along ``direction``, clipped to the plane."""
        d = np.asarray(direction, float)
        d = d / np.linalg.norm(d)
        x0, x1 = self.plane.x_range[:2]
        y0, y1 = self.plane.y_range[:2]
        ts = []
        for lo, hi, c in ((x0, x1, d[0]), (y0, y1, d[1])):
            if abs(c) > 1e-9:
                ts += sorted([lo / c, hi / c])
        t_lo = max(t for t in ts[::2]) if ts else -1
        t_hi = min(t for t in ts[1::2]) if ts else 1
        return Line(self.c2p(t_lo * d), self.c2p(t_hi * d), color=color,
                    stroke_width=2, stroke_opacity=opacity)

    def segment(self, a, b, color: str, dashed: bool = False, stroke: float = 3) -> VMobject:
        cls = DashedLine if dashed else Line
        return cls(self.c2p(a), self.c2p(b), color=color, stroke_width=stroke)
