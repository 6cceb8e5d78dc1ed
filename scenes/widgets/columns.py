"""Column charts: one column per token across a span, a value axis, a bar per column, the
numbers at the bars' ends and the token names under them.

Every vertical bar chart of the film is a configuration of the one core here,
:class:`ColumnChart`:

- :class:`scenes.widgets.bars_simple.RowBars` (sections 15 and 16): weights on a fixed
  0..1 axis, names under the baseline, resized on demand;
- :class:`scenes.widgets.weights.WeightBars` (sections 11 to 13, 18, 19, 22): live weights
  over a strip of token chips, a live (rescaling) axis, stacking, masks, moving columns;
- :class:`scenes.widgets.score_columns.ScoreColumns` (sections 6 and 7): signed live scores
  on a fixed axis, numbers above a positive bar and below a negative one.

A chart sets its :class:`ColumnSlots` (where column k stands) and says how its axis reads
(:meth:`ColumnChart.value_axis`, a :class:`ValueAxis`); the core maps columns to x and values
to y, draws a bar between two heights (:func:`set_bar`, on :func:`set_rect`, which
:class:`scenes.widgets.cost_bars.CostBars` uses for its horizontal bars), puts a number
past a bar's end (:func:`place_past`), draws the baseline and lines across the columns, and
lays the token names under the columns (:func:`line_up_labels`). One rule sizes the numbers
at the bars' ends (:func:`number_size`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from manim import UP, DashedLine, Line, VGroup, VMobject

from .. import style
from .live_number import LiveNumber
from .placement import LABEL_GAP
from .text import baseline, label
from .tokens import READABLE_SIZE

__all__ = ["CROWDED", "MIN_NAME_SIZE", "NUMBER_FILL", "NUMBER_GAP", "ColumnChart", "ColumnSlots",
           "ValueAxis", "line_up_labels", "number_size", "place_past", "set_bar", "set_rect"]

#: Gap between a bar's end and the number past it.
NUMBER_GAP = style.TIGHT
#: Past this many columns the numbers at the bars' ends take the smaller size: at the usual
#: one a row of them reads as one line of digits.
CROWDED = 8
#: The most of a column's pitch a number at a bar's end may take (and it leaves
#: :data:`~scenes.widgets.placement.LABEL_GAP` to its neighbour's: two bars of nearly one
#: height put their numbers side by side, a little apart in height).
NUMBER_FILL = 0.94
#: The smallest font size token names under columns shrink to (15 px per em at 720p); past
#: it they stagger on two lines, then shrink to the floor (the captions keep the whole word).
MIN_NAME_SIZE = style.TINY_SIZE
#: Step of the search for the largest scale at which the names fit.
_SCALE_STEP = 0.02


@dataclass(frozen=True)
class ColumnSlots:
    """Where the columns of a chart stand: column ``k`` is centred at ``first + k * pitch``.

    Attributes
    ----------
    first
        x of column 0's centre.
    pitch
        Distance between neighbouring columns' centres.
    n
        Number of columns.
    """

    first: float
    pitch: float
    n: int

    @classmethod
    def across(cls, left: float, right: float, n: int) -> ColumnSlots:
        """``n`` columns dividing ``left``..``right`` into equal slots."""
        pitch = (right - left) / n
        return cls(left + 0.5 * pitch, pitch, n)

    def x(self, k: float) -> float:
        """x of column ``k``'s centre (fractional columns allowed: a column on the move)."""
        return self.first + float(k) * self.pitch

    @property
    def xs(self) -> np.ndarray:
        """x of every column's centre, in order."""
        return np.array([self.x(k) for k in range(self.n)])

    @property
    def span(self) -> tuple[float, float]:
        """(left, right): the outer edges of the first and last slots."""
        return self.x(0) - self.pitch / 2, self.x(self.n - 1) + self.pitch / 2


@dataclass(frozen=True)
class ValueAxis:
    """How a value maps to a height: ``lo`` at y ``bottom``, ``hi`` at y ``top``."""

    lo: float
    hi: float
    bottom: float
    top: float

    def y(self, value: float) -> float:
        """Screen y of ``value``."""
        height = self.top - self.bottom
        return self.bottom + (float(value) - self.lo) / (self.hi - self.lo) * height


def set_rect(mob: VMobject, left: float, right: float, bottom: float, top: float) -> VMobject:
    """Make ``mob`` the axis-aligned rectangle with these edges, in place (closed, from the
    bottom left, anticlockwise): a bar redrawn every frame without building a mobject."""
    mob.set_points_as_corners([
        np.array([left, bottom, 0.0]), np.array([right, bottom, 0.0]),
        np.array([right, top, 0.0]), np.array([left, top, 0.0]),
        np.array([left, bottom, 0.0]),
    ])
    return mob


def set_bar(bar: VMobject, x: float, y_from: float, y_to: float, width: float,
            min_height: float = 0.0) -> VMobject:
    """Make ``bar`` the rectangle from ``y_from`` (its foot) to ``y_to`` (its end) on ``x``.

    ``min_height`` keeps the end at least that far from the foot (in the end's direction), so
    that a bar at value 0 is a hair-thin rectangle, not a degenerate one. Cheap enough for
    every frame.
    """
    if abs(y_to - y_from) < min_height:
        y_to = y_from + (min_height if y_to >= y_from else -min_height)
    return set_rect(bar, x - width / 2, x + width / 2, min(y_from, y_to), max(y_from, y_to))


def number_size(n: int, pitch: float, widest: float, decimals: int = 2, **number_kw) -> float:
    """Font size of the numbers at the ends of ``n`` columns ``pitch`` apart (and of any row
    of numbers over those columns): the small text size, a little smaller past
    :data:`CROWDED` columns, and smaller still when the widest number, ``widest`` written
    with ``decimals`` (and ``number_kw``, as :class:`LiveNumber` takes them), would take more
    than :data:`NUMBER_FILL` of a column or come within ``LABEL_GAP`` of the next; never
    under :data:`scenes.style.FLOOR_SIZE` (a crowded chart's numbers then fill more of their
    columns: the layout probe checks that neighbours keep clear)."""
    size = style.SMALL_SIZE if n <= CROWDED else style.TINY_SIZE + 2
    probe = LiveNumber(widest, decimals=decimals, font_size=style.SMALL_SIZE, **number_kw)
    room = min(NUMBER_FILL * pitch, pitch - LABEL_GAP)
    if probe.width > room:
        size = min(size, style.SMALL_SIZE * (room / probe.width))
    return max(size, style.FLOOR_SIZE)


def place_past(mob: VMobject, x: float, edge_y: float, up: bool) -> VMobject:
    """Centre ``mob`` on ``x`` with its near side at ``edge_y``: above ``edge_y`` when ``up``,
    below it otherwise (a number past the end of a rising or a falling bar)."""
    side = 1.0 if up else -1.0
    return mob.move_to(np.array([x, edge_y + side * mob.height / 2, 0.0]))


class ColumnChart(VGroup):
    """A chart of one column per token: the geometry its bars, numbers and lines share.

    A subclass sets :attr:`slots` before using the geometry and implements
    :meth:`value_axis` (a fixed axis, or one read from a live range every call).

    Attributes
    ----------
    slots
        The :class:`ColumnSlots` of the chart's columns.
    """

    slots: ColumnSlots
    #: Whether :meth:`level_line` draws dashed unless told: a chart's own convention.
    LEVEL_DASHED = False

    def value_axis(self) -> ValueAxis:
        """The axis the bars are drawn on now."""
        raise NotImplementedError

    @property
    def n(self) -> int:
        """Number of columns."""
        return self.slots.n

    @property
    def pitch(self) -> float:
        """Distance between neighbouring columns' centres."""
        return self.slots.pitch

    @property
    def xs(self) -> np.ndarray:
        """x of every column's centre, in order."""
        return self.slots.xs

    def column_x(self, k: float) -> float:
        """Screen x of column ``k`` (fractional columns allowed)."""
        return self.slots.x(k)

    def y_of(self, value: float) -> float:
        """Screen y of ``value`` on the current axis."""
        return self.value_axis().y(value)

    def axis_line(self, y: float, span: tuple[float, float] | None = None) -> Line:
        """The baseline the bars stand on, at height ``y`` across ``span`` (default: the
        columns' slots)."""
        l, r = span or self.slots.span
        return Line(np.array([l, y, 0.0]), np.array([r, y, 0.0]), color=style.theme().muted,
                    stroke_width=2)

    def level_line(self, value: float, color: str, stroke: float = 2.5,
                   dashed: bool | None = None,
                   span: tuple[float, float] | None = None) -> VMobject:
        """A horizontal line at ``value`` (a score to beat, the uniform weight 1/n) across
        ``span`` (default: the columns' slots); dashed as ``dashed`` says, else as the chart's
        :attr:`LEVEL_DASHED`."""
        l, r = span or self.slots.span
        y = self.y_of(value)
        cls = DashedLine if (self.LEVEL_DASHED if dashed is None else dashed) else Line
        return cls(np.array([l, y, 0.0]), np.array([r, y, 0.0]), color=color, stroke_width=stroke)


def _fits(widths: Sequence[float], xs: Sequence[float], span: tuple[float, float],
          rows: int) -> list[float] | None:
    """Centres of names of ``widths`` wished at ``xs``, on ``rows`` alternating lines, pulled
    inside ``span``; None when two names of one line come closer than :data:`LABEL_GAP`."""
    lo, hi = span
    out = []
    for w, x in zip(widths, xs):
        if w > hi - lo:
            return None
        out.append(min(max(x, lo + w / 2), hi - w / 2))
    for j in range(rows, len(out)):
        i = j - rows
        if out[j] - widths[j] / 2 - (out[i] + widths[i] / 2) < LABEL_GAP:
            return None
    return out


def line_up_labels(names: Sequence[str], xs: Sequence[float], span: tuple[float, float],
                   size: float = style.SMALL_SIZE, color: str | None = None) -> VGroup:
    """Token names under a row of columns: name ``j`` centred under ``xs[j]``, all inside
    ``span`` (left, right).

    Each name is drawn as given (:func:`scenes.widgets.tokens.shown_names` cuts a sentence's
    long tokens once for every widget). The names take one line if they fit, shrunk down to
    :data:`MIN_NAME_SIZE` at most; otherwise they alternate between two lines (each may then
    spread under its neighbours' columns), again shrunk within that limit, and then further,
    down to :data:`scenes.widgets.tokens.READABLE_SIZE`. Names at the ends are pulled inside
    ``span``; names of one line keep :data:`~scenes.widgets.placement.LABEL_GAP` apart, and
    so do the two lines. Every line sits on one baseline (``the`` and ``ran`` on the same one).

    Returns the names as a VGroup, the first line's baseline at y = 0; ``rows`` (1 or 2),
    ``shown`` (the strings drawn) and ``line_height`` (one line, ascent to descent) are set on it.
    """
    color = color or style.theme().fg
    min_k = min(1.0, MIN_NAME_SIZE / size)
    within = [*np.arange(1.0, min_k, -_SCALE_STEP), min_k]      # 1.0 down to min_k
    floor_k = min(min_k, READABLE_SIZE / size)
    beyond = [*np.arange(min_k - _SCALE_STEP, floor_k, -_SCALE_STEP), floor_k]  # the last resort
    shown = list(names)
    texts = [label(s, size, color) for s in shown]
    widths = [m.width for m in texts]
    centres = None
    for rows, scales in ((1, within), (2, [*within, *beyond])):
        for k in scales:
            centres = _fits([k * w for w in widths], xs, span, rows)
            if centres is not None:
                break
        if centres is not None:
            break
    if centres is None:      # nothing fits: the smallest readable size, as wished
        centres, k = list(xs), floor_k
    for m in texts:
        if k < 1.0:
            m.scale(k)
    rise = max(m.get_top()[1] - baseline(m, s) for m, s in zip(texts, shown))
    drop = max(baseline(m, s) - m.get_bottom()[1] for m, s in zip(texts, shown))
    step = rise + drop + LABEL_GAP
    for j, (m, s, x) in enumerate(zip(texts, shown, centres)):
        m.move_to(np.array([x, 0.0, 0.0]))
        m.shift((-(j % rows) * step - baseline(m, s)) * UP)
    group = VGroup(*texts)
    group.rows, group.shown, group.line_height = rows, shown, rise + drop
    return group
