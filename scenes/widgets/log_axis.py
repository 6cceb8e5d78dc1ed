"""A chart with a logarithmic x axis, its curves, a marker that slides along it, live byte counts.

Its readouts are :class:`scenes.widgets.readouts.ReadoutPanel` tables.

Sections 14 to 16 put the head width d on it (ticks 1, 4, 16, 64, 256: each tick x4);
section 23 puts the context length on it (1 to 131,072 tokens) with a logarithmic byte axis.
Nothing here knows about attention: curves are plain callables, the marker follows a
``ValueTracker``, and every number is drawn by :class:`~scenes.widgets.live_number.LiveNumber`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import (
    LEFT,
    RIGHT,
    UP,
    DashedVMobject,
    Dot,
    Line,
    ValueTracker,
    VGroup,
    VMobject,
)

from attn_math.fmt import bytes_in_unit, fmt

from .. import style
from ..layout import Box
from .live_number import LiveNumber
from .placement import LABEL_GAP, box_of, least_cost
from .redrawn import Redrawn
from .text import baseline, label

__all__ = ["ORIGIN3", "WEIGHT_TICKS", "AxisMarker", "LiveBytes", "LiveCurve", "LogAxis",
           "ease_apart", "weight_width_axis"]

Fn = Callable[[float], float]


def ease_apart(labels: Sequence[VMobject], gap: float, iterations: int = 50) -> None:
    """Move a column of labels (in place, vertically) just far enough apart that each keeps
    ``gap`` from its neighbours, every label staying as near its own spot as it can.

    On a linear axis the ticks of small values (1, 2 and 4 of the spreads 1 to 16) sit closer
    than a label is tall; each crowded pair is pushed apart symmetrically, so a label moves
    off its tick by at most half the shortfall and the column keeps its order.
    """
    mobs = sorted(labels, key=lambda m: m.get_center()[1])
    if len(mobs) < 2:
        return
    ys = np.array([m.get_center()[1] for m in mobs], float)
    half = np.array([m.height / 2 for m in mobs], float)
    want = ys.copy()
    for _ in range(iterations):
        moved = False
        for i in range(len(ys) - 1):
            short = (ys[i] + half[i] + gap) - (ys[i + 1] - half[i + 1])
            if short > 1e-6:
                ys[i] -= short / 2
                ys[i + 1] += short / 2
                moved = True
        if not moved:
            break
    for m, y, w in zip(mobs, ys, want):
        m.shift((y - w) * UP)


class LogAxis(VGroup):
    """Axes fitted into a screen box: logarithmic x, linear or logarithmic y.

    Tick labels and axis titles are placed inside ``box`` too, so the whole chart
    (labels included) never leaves it.

    Parameters
    ----------
    box
        (left, right, bottom, top) in frame units, e.g. :func:`style.left_panel`.
    x_range
        (lo, hi) data range of the x axis, both > 0; drawn logarithmically.
    x_ticks
        Data values that get a tick, a faint grid line and a label.
    y_range
        (lo, hi) data range of the y axis (both > 0 when ``y_log``).
    y_ticks
        Data values that get a tick, a faint grid line and a label.
    x_labels, y_labels
        Tick label strings (default: the values, via ``str``); same length as the ticks.
    y_log
        Draw the y axis logarithmically.
    x_minor
        Data values that get only a faint grid line (no label), e.g. every power of 2.
    x_title, y_title
        Axis names: the x title sits under the tick labels at the right end, the y title
        above the y axis, both horizontal so they read at a glance.
    size
        Font size of tick labels and titles.
    """

    def __init__(self, box, x_range: tuple[float, float], x_ticks: Sequence[float],
                 y_range: tuple[float, float], y_ticks: Sequence[float] = (), *,
                 x_labels: Sequence[str] | None = None, y_labels: Sequence[str] | None = None,
                 y_log: bool = False, x_title: str = "", y_title: str = "",
                 x_minor: Sequence[float] = (), size: float = style.SMALL_SIZE):
        super().__init__()
        t = style.theme()
        self.x_lo, self.x_hi = map(float, x_range)
        self.y_lo, self.y_hi = map(float, y_range)
        self.y_log = y_log
        box = Box(*box)
        x_labels = list(x_labels) if x_labels is not None else [str(v) for v in x_ticks]
        y_labels = list(y_labels) if y_labels is not None else [str(v) for v in y_ticks]
        xl = [label(s, size, t.muted) for s in x_labels]
        yl = [label(s, size, t.muted) for s in y_labels]
        xt = label(x_title, size, t.fg) if x_title else None
        yt = label(y_title, size, t.fg) if y_title else None

        gap = style.NEAR
        # Plot area: room for y labels on the left, x labels (and title) below, y title above.
        y_lab_w = max((m.width for m in yl), default=0.0)
        x_lab_h = max((m.height for m in xl), default=0.0)
        self.left = box.l + y_lab_w + 2 * gap
        self.right = box.r - (max((m.width for m in xl), default=0.0) / 2 if xl else 0.0)
        self.bottom = box.b + x_lab_h + 2 * gap + ((xt.height + gap) if xt else 0.0)
        y_lab_h = max((m.height for m in yl), default=0.0)
        self.top = box.t - y_lab_h / 2 - ((yt.height + 2 * gap) if yt else gap)

        grid = VGroup()
        for v in x_minor:
            x = self.x_to_sx(v)
            grid.add(Line([x, self.bottom, 0], [x, self.top, 0], color=t.grid, stroke_width=0.8,
                          stroke_opacity=0.6))
        for v in x_ticks:
            x = self.x_to_sx(v)
            grid.add(Line([x, self.bottom, 0], [x, self.top, 0], color=t.grid, stroke_width=1.2))
        for v in y_ticks:
            y = self.y_to_sy(v)
            grid.add(Line([self.left, y, 0], [self.right, y, 0], color=t.grid, stroke_width=1.2))
        x_axis = Line([self.left, self.bottom, 0], [self.right, self.bottom, 0],
                      color=t.muted, stroke_width=2)
        y_axis = Line([self.left, self.bottom, 0], [self.left, self.top, 0],
                      color=t.muted, stroke_width=2)
        ticks = VGroup()
        # All x labels on one baseline (digits and commas would otherwise bob).
        ref = label("0", size)
        drop = ref.get_center()[1] - baseline(ref, "0")
        base_y = self.bottom - gap - ref.height
        for v, m, s in zip(x_ticks, xl, x_labels):
            x = self.x_to_sx(v)
            ticks.add(Line([x, self.bottom, 0], [x, self.bottom - 0.08, 0], color=t.muted,
                           stroke_width=2))
            m.move_to([x, 0, 0])
            m.shift((base_y - baseline(m, s)) * UP)
        for v, m in zip(y_ticks, yl):
            y = self.y_to_sy(v)
            ticks.add(Line([self.left, y, 0], [self.left - 0.08, y, 0], color=t.muted,
                           stroke_width=2))
            m.move_to([self.left - gap, y, 0], aligned_edge=RIGHT)
            m.shift((y - (baseline(m, "0") + drop)) * UP)  # centre digits on the tick
        ease_apart(yl, LABEL_GAP)
        self.add(grid, x_axis, y_axis, ticks, *xl, *yl)
        self.grid, self.x_axis, self.y_axis = grid, x_axis, y_axis
        self.x_tick_labels, self.y_tick_labels = VGroup(*xl), VGroup(*yl)
        if xt is not None:
            xt.move_to([self.right, 0, 0], aligned_edge=RIGHT)
            xt.shift((base_y - ref.height - gap - baseline(xt, x_title) - 0.05) * UP)
            self.add(xt)
        if yt is not None:
            yt.next_to([self.left, self.top + y_lab_h / 2, 0], UP, buff=gap)
            yt.align_to([box.l, 0, 0], LEFT)
            self.add(yt)
        self.x_title, self.y_title = xt, yt

    # ------------------------------------------------------------ coordinates

    def x_fraction(self, x: float) -> float:
        """Where ``x`` sits between the ends of the x axis (0 to 1, logarithmic)."""
        return float((np.log(x) - np.log(self.x_lo)) / (np.log(self.x_hi) - np.log(self.x_lo)))

    def y_fraction(self, y: float) -> float:
        if self.y_log:
            return float((np.log(y) - np.log(self.y_lo)) / (np.log(self.y_hi) - np.log(self.y_lo)))
        return float((y - self.y_lo) / (self.y_hi - self.y_lo))

    def x_to_sx(self, x: float) -> float:
        return self.left + self.x_fraction(x) * (self.right - self.left)

    def y_to_sy(self, y: float) -> float:
        return self.bottom + self.y_fraction(y) * (self.top - self.bottom)

    def c2p(self, x: float, y: float) -> np.ndarray:
        """Screen point of the data point (x, y)."""
        return np.array([self.x_to_sx(x), self.y_to_sy(y), 0.0])

    def x_at_fraction(self, a: float) -> float:
        """The data x at fraction ``a`` of the axis (inverse of :meth:`x_fraction`)."""
        return float(np.exp(np.log(self.x_lo) + a * (np.log(self.x_hi) - np.log(self.x_lo))))

    # ------------------------------------------------------------ drawn things

    def plot(self, fn: Fn, color: str, x_range: tuple[float, float] | None = None,
             samples: int = 160, stroke: float = 4, dashed: bool = False) -> VMobject:
        """The curve ``y = fn(x)``, sampled evenly in log x (not added to the axis).

        Values outside the y range are clipped to it, so a curve leaves through the
        top of the chart rather than the frame.
        """
        lo, hi = x_range or (self.x_lo, self.x_hi)
        xs = np.exp(np.linspace(np.log(lo), np.log(hi), samples))
        pts = [self.c2p(x, float(np.clip(fn(x), self.y_lo, self.y_hi))) for x in xs]
        curve = VMobject(color=color, stroke_width=stroke)
        curve.set_points_as_corners(pts)
        if dashed:
            return DashedVMobject(curve, num_dashes=int(samples / 3), dashed_ratio=0.55)
        return curve

    def x_step_labels(self, text: str, color: str | None = None,
                      size: float = style.TINY_SIZE) -> VGroup:
        """``text`` (e.g. ``"×4"``) halfway between consecutive x ticks, on the tick labels' line.

        Not added to the axis: animate it in when the step is being explained.
        """
        t = style.theme()
        xs = [m.get_center()[0] for m in self.x_tick_labels]
        y = self.x_tick_labels.get_center()[1] if len(self.x_tick_labels) else self.bottom - 0.3
        group = VGroup()
        for a, b in zip(xs, xs[1:]):
            group.add(label(text, size, color or t.muted).move_to([(a + b) / 2, y, 0]))
        return group

    def tag_curve(self, mob: VMobject, fn: Fn, avoid: Sequence[Fn] = (),
                  fractions: Sequence[float] = (0.02, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7),
                  buff: float = style.TIGHT) -> VMobject:
        """Put the name ``mob`` next to the curve ``fn`` where it touches no curve.

        Tries the spots just under, then just over, the curve at each fraction of the axis
        (left edge of the name there) and keeps the first one that stays inside the plot
        and clear of ``fn`` and of every curve in ``avoid``; falls back to the first spot.
        """
        width = self.right - self.left
        h = mob.height

        def spots():
            """``(fractions under the name, bottom, top, where its top left goes)``, in order."""
            for f in fractions:
                a0, a1 = f, f + (mob.width + buff) / width
                if a1 > 1:
                    return
                under = np.linspace(a0, a1, 16)
                ys = [self.y_to_sy(float(np.clip(fn(self.x_at_fraction(a)), self.y_lo,
                                                 self.y_hi))) for a in under]
                below, above = min(ys) - buff, max(ys) + buff      # the name's top, bottom
                for bottom, top in ((below - h, below), (above, above + h)):
                    yield under, bottom, top, np.array([self.left + f * width, top, 0.0])

        def blocked(spot) -> float:
            under, bottom, top, _ = spot
            inside = not (bottom < self.bottom + 0.03 or top > self.top)
            return 0.0 if inside and not self.crossed(avoid, under, bottom - buff / 2,
                                                      top + buff / 2) else 1.0

        tried = list(spots())
        spot, cost = least_cost(tried, blocked)
        if spot is None:
            return mob
        return mob.move_to(spot[3] if not cost else tried[0][3], aligned_edge=LEFT + UP)

    def crossed(self, fns: Sequence[Fn], fractions, lo: float, hi: float) -> bool:
        """Whether any of the curves ``fns`` runs between the screen heights ``lo`` and
        ``hi`` at any of the ``fractions`` of the axis (each curve clipped to the plot)."""
        return any(lo <= self.y_to_sy(float(np.clip(g(self.x_at_fraction(a)), self.y_lo,
                                                    self.y_hi))) <= hi
                   for g in fns for a in fractions)

    def clear_of_curves(self, mob: VMobject, fns: Sequence[Fn], buff: float = style.NUDGE,
                        floor: float = 0.03, headroom: float = 0.5,
                        samples: int = 24) -> bool:
        """Whether ``mob`` sits inside the plot (``floor`` above its x axis, at most
        ``headroom`` over its top) and no curve of ``fns`` comes within ``buff`` of it
        (sampled at ``samples`` points across its width): a spot for a curve's name."""
        l, r, bottom, top = box_of(mob)
        if bottom < self.bottom + floor or top > self.top + headroom or r > self.right + 0.01:
            return False
        fracs = np.clip((np.linspace(l, r, samples) - self.left) / (self.right - self.left),
                        0.0, 1.0)
        return not self.crossed(fns, fracs, bottom - buff, top + buff)

    def hline(self, y: float, color: str, stroke: float = 3, dashed: bool = False) -> VMobject:
        """A horizontal reference line across the plot at data height ``y``."""
        line = Line(self.c2p(self.x_lo, y), self.c2p(self.x_hi, y), color=color,
                    stroke_width=stroke)
        return DashedVMobject(line, num_dashes=40, dashed_ratio=0.55) if dashed else line


class LiveCurve(Redrawn, VMobject):
    """The curve ``y = fn(x)`` drawn from the axis' left end up to ``x = tracker``.

    The curve traces itself behind a marker as the tracker slides. Points are rewritten in
    place, and only when the drawn stretch changes (or every frame with ``volatile``); no
    mobject is created per frame.

    Parameters
    ----------
    axis
        The :class:`LogAxis` to draw on.
    fn
        The curve's function.
    tracker
        The ValueTracker holding the right end of the drawn part (data x).
    color, stroke
        Stroke style.
    samples
        Points per drawn curve (evenly spaced in log x).
    trace
        Draw only the stretch of x the tracker has visited since the curve was made (a trail
        that grows both ways), instead of everything left of the tracker.
    volatile
        ``fn`` reads other trackers too: re-evaluate it on every frame.
    """

    def __init__(self, axis: LogAxis, fn: Fn, tracker: ValueTracker, color: str,
                 stroke: float = 4, samples: int = 120, trace: bool = False,
                 volatile: bool = False):
        super().__init__(color=color, stroke_width=stroke)
        self.axis, self.fn, self.tracker, self.samples = axis, fn, tracker, samples
        self.trace, self.volatile = trace, volatile
        self._drawn: tuple[float, float] | None = None
        self.seen = (tracker.get_value(), tracker.get_value())
        self.redraw_every_frame()

    def redraw(self) -> LiveCurve:
        a = self.axis
        x = self.tracker.get_value()
        if self.trace:
            self.seen = (min(self.seen[0], x), max(self.seen[1], x))
            lo, hi = self.seen
        else:
            lo, hi = a.x_lo, x
        hi = max(hi, lo * (1 + 1e-9))
        if not self.volatile and self._drawn == (lo, hi):
            return self
        self._drawn = (lo, hi)
        xs = np.exp(np.linspace(np.log(lo), np.log(hi), self.samples))
        self.set_points_as_corners(
            [a.c2p(x, float(np.clip(self.fn(x), a.y_lo, a.y_hi))) for x in xs])
        return self


class AxisMarker(Redrawn, VGroup):
    """A dot riding the curve ``fn`` at ``x = tracker``, with guides to both axes.

    Parameters
    ----------
    axis
        The :class:`LogAxis` to ride.
    tracker
        The ValueTracker holding the data x (animate the tracker, not the marker).
    fn
        The curve's function; the dot sits at ``(x, fn(x))``.
    color
        The dot's colour; the guides are drawn muted.
    guides
        ``True`` (or ``"both"``): a vertical guide down to the x axis and a horizontal one to
        the y axis; ``"x"``: the vertical one only; ``False``: none.
    """

    def __init__(self, axis: LogAxis, tracker: ValueTracker, fn: Fn, color: str,
                 radius: float = 0.09, guides: bool | str = True):
        t = style.theme()
        self.axis, self.tracker, self.fn = axis, tracker, fn
        dot = Dot(radius=radius, color=color)
        parts = [dot]
        self.v_guide = self.h_guide = None
        if guides:
            self.v_guide = Line(ORIGIN3, RIGHT, color=t.muted, stroke_width=2, stroke_opacity=0.8)
            parts = [self.v_guide, dot]
        if guides and guides != "x":
            self.h_guide = Line(ORIGIN3, RIGHT, color=t.muted, stroke_width=2, stroke_opacity=0.8)
            parts = [self.v_guide, self.h_guide, dot]
        super().__init__(*parts)
        self.dot = dot
        self.redraw_every_frame()

    def point(self) -> np.ndarray:
        x = self.tracker.get_value()
        y = float(np.clip(self.fn(x), self.axis.y_lo, self.axis.y_hi))
        return self.axis.c2p(x, y)

    def redraw(self) -> AxisMarker:
        """Move the dot and guides to the tracker's current value."""
        p = self.point()
        self.dot.move_to(p)
        a = self.axis
        if self.v_guide is not None:
            self.v_guide.put_start_and_end_on(np.array([p[0], a.bottom, 0]), p + 1e-4 * UP)
        if self.h_guide is not None:
            self.h_guide.put_start_and_end_on(np.array([a.left, p[1], 0]), p + 1e-4 * RIGHT)
        return self


ORIGIN3 = np.zeros(3)


class LiveBytes(LiveNumber):
    """A byte count in binary units (``2.0 MiB``, ``32.0 GiB``) cheap enough for every frame.

    The text is exactly :func:`attn_math.fmt.fmt_bytes`'s: :func:`attn_math.fmt.bytes_in_unit`
    picks the unit and scales the count, and :class:`LiveNumber` writes the scaled number with
    ``fmt`` (the same call ``fmt_bytes`` makes). The unit's glyphs are cached at construction and
    switched only when the unit changes, so no ``Text`` is built per frame.

    Parameters
    ----------
    n_bytes
        Initial byte count.
    decimals
        Decimals of the number, as for ``fmt_bytes``.
    **kwargs
        Passed to :class:`LiveNumber` (``font_size``, ``color``, ``align``...).
    """

    def __init__(self, n_bytes: float = 0, decimals: int = 1, **kwargs):
        num, unit = bytes_in_unit(n_bytes, decimals)
        kwargs.setdefault("extra_glyphs", "KMGTPiB ")
        super().__init__(num, decimals=decimals, unit=" " + unit, thousands=True, **kwargs)
        self.n_bytes = n_bytes

    def set_bytes(self, n_bytes: float) -> LiveBytes:
        """Show ``n_bytes`` in the unit ``fmt_bytes`` picks."""
        self.n_bytes = n_bytes
        num, unit = bytes_in_unit(n_bytes, self.decimals)
        if " " + unit != self.unit:
            self.unit = " " + unit          # the next set_value redraws with the new unit
            self._text = None
        return self.set_value(num)

    def follow_bytes(self, source: Callable[[], float]) -> LiveBytes:
        """Show ``source()`` bytes on every frame."""
        return self.follow(source, setter=LiveBytes.set_bytes)


#: The weight axis of sections 15 and 16: quarter ticks from 0 to 1.
WEIGHT_TICKS = (0.0, 0.25, 0.5, 0.75, 1.0)


def weight_width_axis(box, widths: Sequence[int], y_top: float, x_title: str,
                      y_title: str) -> LogAxis:
    """Sections 15 and 16's plot: a weight (0 to ``y_top``) against the head width on a log
    axis ticked at ``widths``; tick labels written by :func:`attn_math.fmt.fmt`."""
    return LogAxis(tuple(box), (widths[0], widths[-1]), list(widths), (0.0, y_top),
                   list(WEIGHT_TICKS), y_labels=[fmt(v, 2) for v in WEIGHT_TICKS],
                   x_title=x_title, y_title=y_title)
