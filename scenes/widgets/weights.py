"""One softmax row as a picture: weight bars over the token strip, the staircase, the score row.

Sections 11 to 13, 18, 19 and 22 all show one row of attention weights. They share the
vertical zones of :class:`RowLayout` (a header band, an optional score row, the bars, the
token strip) and these widgets:

- :class:`WeightBars`: one bar per token, labelled by the token's chip, heights following
  a callable every frame (live), a live number over each bar, empty dashed slots for masked
  positions, and a stacking switch that turns the bars into the softmax staircase;
- :class:`LevelLine`: the amber line at a value (1, where the staircase must land);
- :class:`ScoreRow`: the row of scores feeding softmax, one live cell per column;
- :class:`MaskToggle`: the two-state mask switch, ``+ (−∞)`` against ``× 0``.

Their header lines show :class:`scenes.widgets.readouts.Readout` lines.

Everything live reads a callable on every frame (usually of a ``ValueTracker``), so a scene
animates the tracker and every bar, number and line follows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    Circle,
    DashedVMobject,
    ManimColor,
    Rectangle,
    RoundedRectangle,
    ValueTracker,
    VGroup,
    VMobject,
)

from .. import style
from .columns import (
    NUMBER_GAP,
    ColumnChart,
    ColumnSlots,
    ValueAxis,
    number_size,
    place_past,
    set_bar,
)
from .live_number import LiveNumber
from .readouts import Readout
from .redrawn import Redrawn, live_source
from .slider import Slider
from .text import label
from .tokens import CROWDED_CHIP_PAD, READABLE_SIZE, TokenStrip

__all__ = ["CELL_TINT", "CHIP_GAP", "CHIP_HEIGHT", "DRAG_TRACK", "GUTTER", "HEADER_GAP", "HEADER_LINE",
           "MAX_PITCH", "MIN_TRACK", "NUMBER_ROOM", "RIGHT_ROOM", "ROW_NAME_GAP", "SCORE_ROW_HEIGHT",
           "DraggedScoreRow", "LevelLine", "MaskToggle", "RowLayout", "ScoreRow", "WeightBars"]

Values = Callable[[], Sequence[float]]

#: Widest column pitch (frame units): a short sentence is not stretched across the frame.
MAX_PITCH = 1.6
#: Room above the area for the numbers over the bars.
NUMBER_ROOM = 0.42
#: Width reserved on the left for row names ("w", "q·k / √2").
GUTTER = 1.5
#: Between a row name and the chart.
ROW_NAME_GAP = 0.25
#: Width kept free on the right for a level line's label ("1").
RIGHT_ROOM = 0.4
HEADER_LINE = 0.46
SCORE_ROW_HEIGHT = 0.44
#: Fill opacity of a score cell's sign colour (the digits stay in the text colour).
CELL_TINT = 0.28
CHIP_HEIGHT = 0.55
#: How much narrower a chip is than its column (the strip's gap between chips).
CHIP_GAP = style.CLOSE


@dataclass(frozen=True)
class RowLayout:
    """The vertical zones of a one-row softmax picture, cut from :func:`style.content_box`.

    From the top: ``header_lines`` lines of header (sliders, readouts, code), an optional
    score row, the bars' value area (with room above for numbers), the token strip.

    Attributes
    ----------
    left, right
        x extent available to the columns (the gutter for row names is left of ``left``).
    header_y
        Centre y of each header line, top first.
    score_y
        Centre y of the score row (``None`` when there is none).
    area
        ``(bottom, top)`` y of the value area: bars are drawn inside it.
    strip_y
        Centre y of the token strip.
    """

    left: float
    right: float
    header_y: tuple[float, ...]
    score_y: float | None
    area: tuple[float, float]
    strip_y: float

    @classmethod
    def make(cls, header_lines: int = 1, score_row: bool = False) -> RowLayout:
        """Zones for ``header_lines`` header lines and, if asked, a score row."""
        l, r, b, t = style.content_box()
        header_y = tuple(t - HEADER_LINE * (i + 0.5) for i in range(header_lines))
        y = t - HEADER_LINE * header_lines - 0.1
        score_y = None
        if score_row:
            score_y = y - SCORE_ROW_HEIGHT / 2 - 0.05
            y = score_y - SCORE_ROW_HEIGHT / 2 - 0.1
        strip_y = b + CHIP_HEIGHT / 2 + 0.02
        bottom = strip_y + CHIP_HEIGHT / 2 + style.NEAR
        return cls(l + GUTTER, r - RIGHT_ROOM, header_y, score_y, (bottom, y - NUMBER_ROOM),
                   strip_y)

    @property
    def center_x(self) -> float:
        return (self.left + self.right) / 2

    def header_left(self, line: int = 0) -> np.ndarray:
        """Left end of header line ``line`` (align a mobject's LEFT here)."""
        return np.array([style.safe_left(), self.header_y[line], 0.0])

    def header_right(self, line: int = 0) -> np.ndarray:
        """Right end of header line ``line`` (align a mobject's RIGHT here)."""
        return np.array([style.safe_right(), self.header_y[line], 0.0])


class WeightBars(Redrawn, ColumnChart):
    """One bar per token over its chip, heights following ``values()`` on every frame.

    A :class:`scenes.widgets.columns.ColumnChart` whose columns are the chips of a token
    strip and whose axis may rescale (``value_range`` read every frame).

    Parameters
    ----------
    labels
        Token labels (the chips under the bars), left to right in reading order.
    values
        Callable returning one number per token (weights, scores, exponentials...).
    layout
        The :class:`RowLayout` whose area and strip the bars occupy.
    value_range
        ``(lo, hi)`` mapped onto the area's bottom and top, or a callable returning it
        (animate it to rescale the axis). ``lo < 0`` leaves room for negative bars.
    colors
        Callable returning one colour per bar, or ``None`` for the weight teal.
    hollow
        Callable returning how far (0 to 1) the bars are signed scores: a negative bar is
        drawn that hollow (:func:`scenes.style.sign_mark`); ``None`` for solid bars.
    masked
        Callable returning one number in [0, 1] per token: 1 draws the position as an empty
        dashed slot (masked), with no bar number; ``None`` for never masked.
    slots
        Callable returning each token's (fractional) column: token j is drawn in column
        ``slots()[j]``; ``None`` for reading order. Chips move with their bars.
    lifts
        Callable returning a vertical offset per token (frame units) applied to its chip,
        bar and number while it moves; ``None`` for none.
    opacity
        Callable returning an opacity per bar (and its number), e.g. to see through bars
        that cross each other; ``None`` for opaque.
    numbers
        Show a live number over each bar.
    decimals, number_kw
        Format of those numbers (``number_kw`` goes to :class:`LiveNumber`, e.g.
        ``sci="auto"`` so that a vanishing weight reads ``1.2e−14``, not ``0.00``); their
        size is :func:`scenes.widgets.columns.number_size`'s for the widest end of the
        initial range.
    pitch
        Column pitch; default as wide as fits, at most :data:`MAX_PITCH`.

    Attributes
    ----------
    strip
        The :class:`~scenes.widgets.tokens.TokenStrip` of chips.
    bars, numbers, empties
        One bar / live number / dashed empty slot per token.
    stack
        ``ValueTracker`` in [0, 1]: 0 bars stand on the zero line, 1 they are stacked left
        to right into the softmax staircase (each bar starts where the previous one ends,
        bars widen to touch).
    """

    def __init__(self, labels: Sequence[str], values: Values, layout: RowLayout, *,
                 value_range=(0.0, 1.0), colors: Callable | None = None,
                 hollow: Callable[[], float] | None = None, masked: Values | None = None, slots: Values | None = None,
                 lifts: Values | None = None, opacity: Values | None = None,
                 numbers: bool = True, decimals: int = 2, number_kw: dict | None = None,
                 pitch: float | None = None, bar_frac: float = 0.56):
        t = style.theme()
        n = len(labels)
        self.layout = layout
        self.values_fn = live_source(values)
        self.range_fn = live_source(value_range)
        self.colors_fn, self.masked_fn, self.slots_fn, self.lifts_fn, self.opacity_fn = (
            live_source(x) for x in (colors, masked, slots, lifts, opacity))
        self.hollow_fn = live_source(hollow)
        self.bar_frac = bar_frac
        self.stack = ValueTracker(0.0)
        avail = layout.right - layout.left
        pitch = pitch or min(MAX_PITCH, avail / n)
        strip = TokenStrip(labels, width=avail, min_cell=pitch - CHIP_GAP, chip_height=CHIP_HEIGHT)
        strip.move_to(np.array([layout.center_x, layout.strip_y, 0.0]))
        self.strip = strip
        c = strip.centers()
        self.slots = ColumnSlots(float(c[0][0]), float(c[1][0] - c[0][0]) if n > 1 else pitch, n)
        self.cell_width = float(strip.cell_width)
        # each chip's own height (a staggered strip has two rows: the band's middle is chip_y)
        self.chip_ys = [float(y) for y in c[:, 1]]
        self.chip_y = self.chip_ys[0] if len(set(self.chip_ys)) == 1 else float(strip.get_center()[1])
        self.chart_left = float(strip.get_left()[0])
        self.chart_right = float(strip.get_right()[0])

        lo, hi = self.range_fn()
        widest = -max(abs(lo), abs(hi)) if lo < 0 else max(abs(lo), abs(hi))
        self.number_size = number_size(n, self.pitch, widest, decimals, **(number_kw or {}))
        self.zero_line = self.axis_line(0.0, (self.chart_left, self.chart_right))
        self.bars = VGroup(*[VMobject(fill_color=t.weight, fill_opacity=1.0, stroke_width=0)
                             for _ in range(n)])
        h = layout.area[1] - layout.area[0]
        self.empties = VGroup(*[
            DashedVMobject(Rectangle(width=self.cell_width * bar_frac, height=0.45 * h),
                           num_dashes=14, dashed_ratio=0.55).set_stroke(t.muted, 2, opacity=0.0)
            for _ in range(n)])
        self.numbers = VGroup(*[LiveNumber(0.0, decimals=decimals, font_size=self.number_size,
                                           color=t.fg, extra_glyphs="∞", **(number_kw or {}))
                                for _ in range(n)]) if numbers else VGroup()
        self._colors = [None] * n
        self._masked = np.zeros(n)
        self._word_colours = [ManimColor(chip[1].get_fill_color()) for chip in strip.chips]
        self._muted = ManimColor(t.muted)
        self._opacity = np.ones(n)
        self._last = {k: [None] * n for k in ("bar", "chip", "empty", "number")}
        parts = [self.empties, self.zero_line, self.bars, self.numbers, strip]
        super().__init__(*parts)
        self.redraw_every_frame()

    @staticmethod
    def name_room(n: int) -> float:
        """The tightest room any widget gives a token's name
        (:func:`~scenes.widgets.tokens.shown_names`): a chip of ``n`` columns across a whole
        :class:`RowLayout`, or the gutter where :meth:`row_name` writes ``name →``."""
        layout = RowLayout.make()
        pitch = min(MAX_PITCH, (layout.right - layout.left) / n)
        gutter = GUTTER - ROW_NAME_GAP - label(" →", READABLE_SIZE).width
        return min(pitch - CHIP_GAP - CROWDED_CHIP_PAD, gutter)

    # ------------------------------------------------------------ geometry

    def value_axis(self) -> ValueAxis:
        """The axis under the current range (read from ``value_range`` on every call)."""
        lo, hi = self.range_fn()
        b, top = self.layout.area
        # Negative bars carry their number below them: keep room for it above the chips
        # (eased in as the range dips below 0, so a rescaling axis moves continuously).
        b += NUMBER_ROOM * float(np.clip(-10.0 * lo / (hi - lo), 0.0, 1.0))
        return ValueAxis(lo, hi, b, top)

    # ------------------------------------------------------------ the per-frame update

    def redraw(self) -> None:
        n = self.n
        v = np.asarray(self.values_fn(), float)
        s = float(self.stack.get_value())
        slots = np.asarray(self.slots_fn(), float) if self.slots_fn else np.arange(n, dtype=float)
        lifts = np.asarray(self.lifts_fn(), float) if self.lifts_fn else np.zeros(n)
        masked = np.clip(np.asarray(self.masked_fn(), float), 0, 1) if self.masked_fn else np.zeros(n)
        opacity = np.asarray(self.opacity_fn(), float) if self.opacity_fn else np.ones(n)
        base = s * (np.cumsum(v) - v)          # the staircase: each bar starts where the last ends
        width = self.cell_width * self.bar_frac + s * (self.pitch - self.cell_width * self.bar_frac)
        axis = self.value_axis()
        y0 = axis.y(0.0)
        self.zero_line.set_y(y0)
        colors = self.colors_fn() if self.colors_fn else None
        hollow = float(self.hollow_fn()) if self.hollow_fn else None
        last = self._last                        # what each column was drawn with last frame
        for j in range(n):
            x = self.column_x(slots[j])
            ya, yb = axis.y(base[j]), axis.y(base[j] + v[j])
            lift = lifts[j]
            key = (x, ya, yb, width, lift)
            if last["bar"][j] != key:            # skip untouched columns: most frames move few
                set_bar(self.bars[j], x, ya + lift, yb + lift, width)
                last["bar"][j] = key
            bar = self.bars[j]
            if hollow is not None:               # signed scores: colour and style each frame
                style.sign_mark(bar, v[j], opacity[j], hollow=hollow,
                                color=colors[j] if colors is not None else None)
            else:
                if colors is not None and (self._colors[j] is None
                                           or colors[j] != self._colors[j]):
                    bar.set_fill(colors[j])
                    self._colors[j] = colors[j]
                if opacity[j] != self._opacity[j]:
                    bar.set_fill(opacity=opacity[j])
                    self._opacity[j] = opacity[j]
            if last["chip"][j] != (x, lift):
                self.strip.chips[j].move_to(np.array([x, self.chip_ys[j] + lift, 0.0]))
                last["chip"][j] = (x, lift)
            if masked[j] != self._masked[j]:     # a masked token's word steps back
                word = self.strip.chips[j][1]
                # to the muted colour, not to a lower opacity: it stays 4.5:1 on its chip
                word.set_fill(self._word_colours[j].interpolate(self._muted, masked[j]))
                self._masked[j] = masked[j]
            if last["empty"][j] != (x, y0, masked[j]):
                e = self.empties[j]
                e.move_to(np.array([x, y0 + e.height / 2, 0.0]))
                e.set_stroke(opacity=masked[j])
                last["empty"][j] = (x, y0, masked[j])
            if len(self.numbers):
                num = self.numbers[j]
                num.set_value(v[j])
                up = v[j] >= 0
                nkey = (num.text, x, max(ya, yb) if up else min(ya, yb), lift,
                        (1.0 - masked[j]) * opacity[j])
                if last["number"][j] != nkey:
                    place_past(num, x, nkey[2] + lift + (NUMBER_GAP if up else -NUMBER_GAP), up)
                    num.set_fill(opacity=nkey[4])
                    last["number"][j] = nkey

    # ------------------------------------------------------------ decorations

    def marker(self, j: int, color: str | None = None, follow: bool = True) -> RoundedRectangle:
        """A highlight outline around token j's chip; it follows the chip if ``follow``."""
        m = self.strip.mark(j, color)
        if follow:
            chip = self.strip.chips[j]
            m.add_updater(lambda mob: mob.move_to(chip[0]))
        return m

    def row_name(self, text: str, color: str, y: float | None = None,
                 size: float = style.LABEL_SIZE) -> VGroup:
        """A name in the gutter left of the chart, at height ``y`` (default: the chips)."""
        mob = label(text, size, color)
        room = self.chart_left - ROW_NAME_GAP - style.safe_left()
        if mob.width > room:                     # a long word: shrink rather than leave the frame
            mob.scale_to_fit_width(room)
        y = self.chip_y if y is None else y
        mob.move_to(np.array([self.chart_left - ROW_NAME_GAP, y, 0.0]), aligned_edge=RIGHT)
        return mob


class LevelLine(VGroup):
    """A horizontal line across a :class:`WeightBars` chart at value ``value``, labelled.

    It follows the chart's range, so it stays at ``value`` while the axis rescales.
    """

    def __init__(self, bars: WeightBars, value: float, text: str, color: str | None = None):
        t = style.theme()
        color = color or t.amber
        line = bars.level_line(value, color, stroke=3,
                               span=(bars.chart_left - 0.1, bars.chart_right + 0.1))
        tag = label(text, style.SMALL_SIZE, color)
        super().__init__(line, tag)

        def place(_):
            y = bars.y_of(value)
            line.set_y(y)
            tag.next_to(line, RIGHT, buff=style.CLOSE)

        place(self)
        self.add_updater(place)


class ScoreRow(Redrawn, VGroup):
    """The row of scores feeding softmax: one cell per column of ``bars``, live.

    Each cell is tinted with its score's sign colour (positive / negative), the digits
    stay in the text colour so they read in both themes.

    Parameters
    ----------
    bars
        The :class:`WeightBars` whose columns the cells sit over.
    scores
        Callable returning one score per token (``-inf`` shows as ``−∞``).
    y
        Centre y of the row (``RowLayout.score_y``).
    name, tag
        Gutter name (e.g. ``"q·k"``) and the small tag after it (``"/ √2"``).
    dragged
        Column whose score is being moved: its cell is outlined in the highlight colour.
    """

    def __init__(self, bars: WeightBars, scores: Values, y: float, name: str = "q·k",
                 tag: str = "", dragged: int | None = None, decimals: int = 2):
        t = style.theme()
        self.scores_fn, self.bars = live_source(scores), bars
        size = bars.number_size                 # the numbers over the bars' size
        cells, nums = VGroup(), VGroup()
        for j in range(bars.n):
            box = RoundedRectangle(corner_radius=0.08, width=bars.cell_width,
                                   height=SCORE_ROW_HEIGHT, fill_color=t.panel, fill_opacity=1.0,
                                   stroke_color=t.grid, stroke_width=1.5)
            box.move_to(np.array([bars.column_x(j), y, 0.0]))
            cells.add(box)
            nums.add(LiveNumber(0.0, decimals=decimals, font_size=size, color=t.fg,
                                extra_glyphs="∞"))
        self.cells, self.nums, self.y = cells, nums, y
        gutter = VGroup(label(name, style.SMALL_SIZE, t.fg))
        if tag:
            gutter.add(label(tag, style.TINY_SIZE, t.muted))
            gutter.arrange(RIGHT, buff=style.SNUG, aligned_edge=DOWN)
        gutter.move_to(np.array([bars.chart_left - 0.25, y, 0.0]), aligned_edge=RIGHT)
        self.gutter = gutter
        parts = [cells, nums, gutter]
        self.drag_mark = None
        if dragged is not None:
            self.drag_mark = cells[dragged].copy().set_fill(opacity=0).set_stroke(t.highlight, 3)
            parts.append(self.drag_mark)
        super().__init__(*parts)
        self._signs = [None] * bars.n
        self.redraw_every_frame()

    def redraw(self) -> None:
        t = style.theme()
        s = np.asarray(self.scores_fn(), float)
        for j, num in enumerate(self.nums):
            before = num.text
            num.set_value(s[j])
            if num.text != before or self._signs[j] is None:
                num.move_to(self.cells[j])
            sign = s[j] >= 0
            if sign != self._signs[j]:          # the cell takes the sign's colour
                c = t.positive if sign else t.negative
                self.cells[j].set_fill(c, opacity=CELL_TINT).set_stroke(c, opacity=0.8)
                self._signs[j] = sign


#: Least space (frame units) between two items of a header line (a slider and a readout).
HEADER_GAP = 0.4
#: Shortest slider track a header line may shrink to (frame units).
MIN_TRACK = 1.2
#: The dragged-score slider's track when the header line has room.
DRAG_TRACK = 3.2


@dataclass
class DraggedScoreRow:
    """Sections 12 and 13: the followed row's weights as bars over its scaled scores, with the
    winner's score on a slider in the header (its knob shows the score).

    Build with :meth:`make`; the scene adds the parts it wants (``bars``, ``row``, ``name``,
    ``mark``, ``slider``) and moves ``tracker``. A readout sharing the slider's header line
    is placed with :meth:`place_readout` (before the scene takes ``slider``).
    """

    bars: WeightBars
    row: ScoreRow
    name: VMobject
    mark: VMobject
    slider: Slider
    #: Builds the header slider with a given track length (see :meth:`place_readout`).
    slider_of: Callable[[float], Slider] | None = None
    #: The widest string the slider's number shows over the drag (its reading at lo or hi).
    knob_width: float = 0.0

    @classmethod
    def make(cls, story, names: Sequence[str], tracker: ValueTracker, scores: Values, weights: Values,
             layout: RowLayout, lo: float, hi: float, value_top: float | Callable[[], float],
             number_kw: dict | None = None) -> DraggedScoreRow:
        """The row of ``story``'s followed token, its winner dragged by ``tracker`` from ``lo``
        to ``hi``; bars scaled to ``value_top`` (a number, or a function read every frame to
        reframe the axis); ``number_kw`` formats the bars' numbers; ``names`` are the token
        names as the section draws them."""
        t = style.theme()
        f, w, labels = story.follow, story.winner, list(names)
        value_range = ((lambda: (0.0, value_top())) if callable(value_top)
                       else (0.0, value_top))
        bars = WeightBars(labels, weights, layout, value_range=value_range,
                          number_kw=number_kw)
        row = ScoreRow(bars, scores, layout.score_y, name="q·k", tag=f"/ √{story.d}",
                       dragged=w)
        name = bars.row_name(f"{labels[f]} →", t.query)
        mark = bars.marker(w)

        def knob(value: float) -> LiveNumber:
            return LiveNumber(value, decimals=2, font_size=style.SMALL_SIZE, color=t.fg,
                              align="left")

        def slider_of(width: float) -> Slider:
            slider = Slider(tracker, lo, hi, name=f"{labels[f]} → {labels[w]}", width=width,
                            readout=knob(tracker.get_value()), color=t.highlight)
            return slider.move_to(layout.header_left(0), aligned_edge=LEFT)

        return cls(bars, row, name, mark, slider_of(DRAG_TRACK), slider_of,
                   max(knob(lo).width, knob(hi).width))

    def place_readout(self, readout: Readout, right: np.ndarray,
                      gap: float = HEADER_GAP) -> Readout:
        """Put ``readout`` on the slider's header line, its widest string ending at ``right``.

        A long token name pushes the slider's track (and the number at its end) to the
        right; when that number, at its widest, would come within ``gap`` of the readout,
        the track is shortened (to :data:`MIN_TRACK` at least) and ``slider`` rebuilt.
        """
        readout.place_right(right)
        s = self.slider
        end = s.readout.get_left()[0] + self.knob_width
        short = end + gap - readout.get_left()[0]
        if short > 0 and self.slider_of is not None:
            self.slider = self.slider_of(max(MIN_TRACK, s.track.get_length() - short))
        return readout


class MaskToggle(VGroup):
    """The mask switch: ``left`` and ``right`` labels either side of a pill with a knob.

    ``tracker`` at 0 puts the knob on the left (the right way, ``+ (−∞)``), at 1 on the
    right (``× 0``); the active side is lit, the other in the muted colour (not faded: it
    still reads, at 4.5:1).
    """

    def __init__(self, tracker: ValueTracker, left: str, right: str,
                 left_color: str | None = None, right_color: str | None = None):
        t = style.theme()
        lc, rc = left_color or t.weight, right_color or t.bad
        pill = RoundedRectangle(corner_radius=0.17, width=0.9, height=0.34,
                                fill_color=t.panel, fill_opacity=1.0, stroke_color=t.muted,
                                stroke_width=2)
        knob = Circle(radius=0.13, fill_opacity=1.0, stroke_width=0)
        ll = label(left, style.LABEL_SIZE, lc, mono=True)
        rl = label(right, style.LABEL_SIZE, rc, mono=True)
        muted = ManimColor(t.muted)
        ll.next_to(pill, LEFT, buff=style.GAP)
        rl.next_to(pill, RIGHT, buff=style.GAP)
        super().__init__(pill, ll, rl, knob)
        self.tracker = tracker

        def follow(_):
            a = float(np.clip(tracker.get_value(), 0, 1))
            x0 = pill.get_left()[0] + 0.17
            x1 = pill.get_right()[0] - 0.17
            knob.move_to(np.array([x0 + a * (x1 - x0), pill.get_center()[1], 0.0]))
            knob.set_fill(ManimColor(lc).interpolate(ManimColor(rc), a))
            ll.set_fill(ManimColor(lc).interpolate(muted, a))
            rl.set_fill(muted.interpolate(ManimColor(rc), a))

        follow(self)
        knob.add_updater(follow)
