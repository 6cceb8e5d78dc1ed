"""Scores as columns: one query's row as n bars, and every row as a grid of squares.

- :class:`ScoreColumns`: n bars on a zero line, one per key, heights live from a callable,
  each bar in its sign's colour and style (:func:`scenes.style.sign_mark`), the live number
  above a positive bar or below a negative one, the key's label at the foot. The vertical
  scale is fixed (``lo``..``hi``) so that heights can be compared across rows and across time.
- :class:`ScoreSquares`: the whole score matrix as squares whose *area* is the score's size and
  whose colour and style are its sign, with each row's largest score outlined (live): who
  wins each row.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import (
    UP,
    Line,
    Polygon,
    Rectangle,
    Square,
    VGroup,
    VMobject,
)

from .. import style
from ..layout import fit_width
from .columns import (
    NUMBER_GAP,
    ColumnChart,
    ColumnSlots,
    ValueAxis,
    line_up_labels,
    place_past,
    set_bar,
)
from .columns import number_size as columns_number_size
from .live_number import LiveNumber
from .placement import LABEL_GAP
from .redrawn import Redrawn, live_source
from .score_grid import ScoreGrid
from .text import label

__all__ = ["TICK_CLEAR", "ScoreColumns", "ScoreSquares"]

Scores = Callable[[], np.ndarray]

#: Gap a live number keeps from a tick (high- or low-water mark) across its column: the
#: line's half width and a little air.
TICK_CLEAR = style.NUDGE



class ScoreColumns(Redrawn, ColumnChart):
    """A row of n score columns on a zero line, live from ``get_scores()``.

    Parameters
    ----------
    labels
        One label per column (the keys' tokens), drawn under the chart.
    get_scores
        Zero-argument callable returning the n current scores.
    box
        (left, right, bottom, top) in frame units: labels, bars and numbers all fit inside.
    lo, hi
        The score range the vertical axis must hold (``lo <= 0 <= hi`` is enforced); fixed,
        so that heights compare across rows.
    decimals
        Decimals of the live numbers.
    label_color
        Colour of the column labels (default: the key colour).
    bar_ratio
        Bar width as a fraction of the column pitch.
    label_size
        Largest font size of the labels, laid out by
        :func:`scenes.widgets.columns.line_up_labels`; the numbers are sized by
        :func:`scenes.widgets.columns.number_size` (the widest is ``−max(|lo|, |hi|)``).

    Attributes
    ----------
    bars, numbers, labels, zero_line
        The parts; ``bars[j]`` is a polygon redrawn every frame, ``numbers[j]`` a LiveNumber.
    """

    #: Lines across score columns are dashed (section 7's score to beat), as they always were.
    LEVEL_DASHED = True

    def __init__(self, labels: Sequence[str], get_scores: Scores, box, lo: float, hi: float,
                 decimals: int = 2, label_color: str | None = None, bar_ratio: float = 0.56,
                 label_size: float = style.SMALL_SIZE):
        t = style.theme()
        self.get_scores = live_source(get_scores)
        n = len(labels)
        l, r, b, top = box
        self.slots = ColumnSlots.across(l, r, n)
        self.bar_w = bar_ratio * self.pitch
        lo, hi = min(lo, 0.0), max(hi, 0.0)
        if hi - lo < 1e-9:
            hi = lo + 1.0
        self.lo, self.hi = lo, hi

        widest = -max(abs(lo), abs(hi))          # the widest sign and digits
        self.number_size = number_size = columns_number_size(n, self.pitch, widest, decimals)
        probe = LiveNumber(widest, decimals=decimals, font_size=number_size)
        self._num_h = probe.height + style.CLOSE

        names = line_up_labels(labels, self.xs, (l, r), label_size, label_color or t.key)
        # Bars live between y0 (lo) and y1 (hi); numbers outside that, labels at the foot.
        self.y0 = b + names.height + style.NEAR + self._num_h
        self.y1 = top - self._num_h
        names.shift((b - names.get_bottom()[1]) * UP)
        self.labels = names

        self.zero_line = self.axis_line(self.y_of(0.0))
        self.bars = VGroup(*[VMobject(stroke_width=0, fill_opacity=0.9) for _ in range(n)])
        self.numbers = VGroup(*[
            LiveNumber(0.0, decimals=decimals, font_size=number_size, color=t.fg)
            for _ in range(n)
        ])
        self._ticks: dict[int, list[float]] = {}
        super().__init__(self.zero_line, self.bars, self.numbers, self.labels)
        self.redraw_every_frame()

    # ------------------------------------------------------------ geometry

    def value_axis(self) -> ValueAxis:
        """The fixed score axis: ``lo`` at ``y0``, ``hi`` at ``y1``."""
        return ValueAxis(self.lo, self.hi, self.y0, self.y1)

    def tip(self, j: int) -> np.ndarray:
        """Screen point at the free end of bar ``j`` (its top if positive, bottom if negative)."""
        return np.array([self.column_x(j), self.y_of(float(self.get_scores()[j])), 0.0])

    def scores(self) -> np.ndarray:
        return np.asarray(self.get_scores(), float)

    # ------------------------------------------------------------ markers

    def frame(self, j: int, color: str | None = None) -> VMobject:
        """An outline around column ``j``'s whole height (numbers and label included).

        A staggered label wider than its column (or pulled off its centre at the chart's end)
        gets a foot as wide as the label, so the outline goes round the word instead of
        through it (the column above keeps its width).
        """
        t = style.theme()
        top = self.y1 + self._num_h + style.NUDGE
        bottom = self.labels.get_bottom()[1] - style.NUDGE
        hw = 0.48 * self.pitch
        tx = self.labels[j]
        x = self.column_x(j)
        # The foot reaches round the label, which may sit off centre (pulled inside the chart).
        fl = min(tx.get_left()[0] - style.NUDGE - x, -hw)
        fr = max(tx.get_right()[0] + style.NUDGE - x, hw)
        if fl >= -hw and fr <= hw:
            rect = Rectangle(width=2 * hw, height=top - bottom,
                             stroke_color=color or t.amber, stroke_width=3, fill_opacity=0)
            rect.move_to(np.array([x, (top + bottom) / 2, 0.0]))
            return rect
        foot_top = tx.get_top()[1] + style.NUDGE
        foot_bottom = tx.get_bottom()[1] - style.NUDGE
        corners = [(-hw, top), (-hw, foot_top), (fl, foot_top), (fl, foot_bottom),
                   (fr, foot_bottom), (fr, foot_top), (hw, foot_top), (hw, top)]
        return Polygon(*[np.array([x + dx, y, 0.0]) for dx, y in corners],
                       stroke_color=color or t.amber, stroke_width=3, fill_opacity=0)

    def live_frame(self, pick: Callable[[], int], color: str | None = None) -> VMobject:
        """A :meth:`frame` that jumps to column ``pick()`` every frame (e.g. the row's argmax)."""
        state = {"j": int(pick())}
        rect = self.frame(state["j"], color)

        def jump(m):
            j = int(pick())
            if j != state["j"]:
                state["j"] = j
                m.set_points(self.frame(j, color).points)

        rect.add_updater(jump)
        return rect

    def tick(self, j: int, value: float, color: str | None = None) -> Line:
        """A short mark across column ``j`` at score ``value`` (a high- or low-water mark).

        From then on the column's live number keeps clear of the mark: when the bar's end
        comes so near it that the number would sit on the line, the number goes past it.
        """
        t = style.theme()
        w = 0.5 * (self.pitch + self.bar_w)
        y = self.y_of(value)
        self._ticks.setdefault(j, []).append(y)
        x = self.column_x(j)
        return Line(np.array([x - w / 2, y, 0]), np.array([x + w / 2, y, 0]),
                    color=color or t.amber, stroke_width=4)

    # ------------------------------------------------------------ drawing

    def redraw(self) -> None:
        s = self.scores()
        axis = self.value_axis()
        y0 = axis.y(0.0)
        for j in range(self.n):
            v = float(s[j])
            y = axis.y(v)
            x = self.column_x(j)
            # A score of 0 still draws a hair-thin bar, never a degenerate one.
            bar = set_bar(self.bars[j], x, y0, y, self.bar_w, min_height=1e-3)
            style.sign_mark(bar, v, opacity=0.9)
            num = self.numbers[j]
            num.set_value(v)
            num.set_fill(style.score_text_color(v, num.decimals))
            # Above a positive bar, below a negative one; centred on the column; past a
            # tick the number would sit on.
            up = 1.0 if v >= 0 else -1.0
            near = (max(y, y0) if v >= 0 else min(y, y0)) + up * NUMBER_GAP
            for tick_y in sorted(self._ticks.get(j, ()), key=lambda ty: up * ty):
                if -TICK_CLEAR < up * (tick_y - near) < num.height + TICK_CLEAR:
                    near = tick_y + up * TICK_CLEAR
            place_past(num, x, near, v >= 0)


class ScoreSquares(Redrawn, VGroup):
    """The score matrix as an n x n grid of squares, live from ``get_matrix()``.

    Not :class:`scenes.widgets.score_grid.ScoreGrid` (the score matrix written out in numbers):
    this map draws each score as an area, to show at a glance which key leads each row while
    section 7 stretches one key.

    A square's *area* is proportional to ``|score| / vmax`` (so small scores stay
    visible next to large ones), its colour and style are the sign. Each row's largest score
    is outlined in amber and the outline jumps when another column takes the lead.

    Parameters
    ----------
    labels
        Token labels; rows are queries (left, query colour), columns keys (top, key colour).
    get_matrix
        Zero-argument callable returning the n x n scores.
    box
        (left, right, bottom, top) in frame units; the grid is square and centred in it.
    vmax
        The score that fills a whole cell (fixed, so sizes compare over time).
    label_size
        Font size of the labels while they stand upright side by side with the rows clear
        of each other; when they do not (many or long tokens), the labels and the cell size
        are :class:`~scenes.widgets.score_grid.ScoreGrid`'s for the same box (a smaller font,
        staggered tiers).

    Attributes
    ----------
    cells, winners, row_labels, col_labels
        ``cells[i][j]`` squares, ``winners[i]`` the outline on row i's leader.
    texts
        The label strings as drawn (rows and columns alike).
    """

    def __init__(self, labels: Sequence[str], get_matrix: Scores, box, vmax: float,
                 label_size: float = style.SMALL_SIZE):
        t = style.theme()
        self.get_matrix = live_source(get_matrix)
        n = len(labels)
        self.n = n
        self.vmax = max(float(vmax), 1e-9)
        l, r, b, top = box
        rows_txt = [label(s, label_size, t.query) for s in labels]
        cols_txt = [label(s, label_size, t.key) for s in labels]
        lab_w = max(tx.width for tx in rows_txt) + style.NEAR
        avail_w = (r - l) - lab_w
        cell = min(avail_w / n, ((top - b) - 0.5) / n)
        col_h = max(tx.height for tx in cols_txt)
        cell = min(cell, ((top - b) - col_h - style.CLOSE) / n)
        heights = [tx.height for tx in rows_txt]
        rows_clear = all(cell - (h0 + h1) / 2 >= LABEL_GAP for h0, h1 in zip(heights, heights[1:]))
        if max(tx.width for tx in cols_txt) <= 0.95 * cell and rows_clear:
            # Upright labels side by side, rows clear of each other: the plain layout.
            self.texts = list(labels)
            self._plain_layout(rows_txt, cols_txt, lab_w, cell, col_h, box)
        else:
            # Crowded (many or long tokens): the score grid's label layout (a smaller
            # font, staggered tiers, rows a label's height apart), so both grids read alike.
            self._grid_layout(labels, box, label_size)
        cell, n = self.cell, self.n
        x0, y_top = self.centers[0][0][0] - cell / 2, self.centers[0][0][1] + cell / 2
        border = Rectangle(width=n * cell, height=n * cell, stroke_color=t.grid, stroke_width=1.5)
        border.move_to(np.array([x0 + n * cell / 2, y_top - n * cell / 2, 0]))
        lines = VGroup()
        for k in range(1, n):
            lines.add(Line(np.array([x0 + k * cell, y_top, 0]),
                           np.array([x0 + k * cell, y_top - n * cell, 0]),
                           color=t.grid, stroke_width=1))
            lines.add(Line(np.array([x0, y_top - k * cell, 0]),
                           np.array([x0 + n * cell, y_top - k * cell, 0]),
                           color=t.grid, stroke_width=1))
        self.cells = VGroup(*[VGroup(*[Square(side_length=cell, stroke_width=0, fill_opacity=0.9)
                                       for _ in range(n)]) for _ in range(n)])
        self.winners = VGroup(*[Square(side_length=cell * 0.96, stroke_color=t.amber,
                                       stroke_width=3.5, fill_opacity=0) for _ in range(n)])
        super().__init__(border, lines, self.cells, self.winners, self.row_labels,
                         self.col_labels)
        self.redraw_every_frame()

    def _plain_layout(self, rows_txt, cols_txt, lab_w: float, cell: float, col_h: float,
                      box) -> None:
        """Labels at ``label_size``, upright, rows centred on their cells."""
        n = self.n
        l, r, b, top = box
        self.cell = cell
        gw = lab_w + n * cell
        gh = col_h + style.CLOSE + n * cell
        x0 = (l + r) / 2 - gw / 2 + lab_w
        y_top = (b + top) / 2 + gh / 2 - col_h - style.CLOSE
        self.centers = np.array([[[x0 + (j + 0.5) * cell, y_top - (i + 0.5) * cell, 0.0]
                                  for j in range(n)] for i in range(n)])
        for i, tx in enumerate(rows_txt):
            fit_width(tx, lab_w - style.TIGHT)
            tx.move_to(self.centers[i][0]).set_x(x0 - style.CLOSE - tx.width / 2)
        for j, tx in enumerate(cols_txt):
            tx.move_to(self.centers[0][j]).set_y(y_top + style.TIGHT + tx.height / 2)
        self.row_labels, self.col_labels = VGroup(*rows_txt), VGroup(*cols_txt)

    def _grid_layout(self, labels: Sequence[str], box, label_size: float) -> None:
        """Cell size and labels as :class:`~scenes.widgets.score_grid.ScoreGrid` lays them out
        in ``box`` (the grid's own drawing is not used)."""
        n = self.n
        size = min(label_size, ScoreGrid.auto_label_size(n))
        g = ScoreGrid(np.zeros((n, n)), list(labels), box=box, label_size=size,
                      max_pitch=float("inf"))
        self.cell = g.pitch
        self.texts = list(g.row_texts)
        self.centers = np.array([[g.cell_center(i, j) for j in range(n)] for i in range(n)])
        self.row_labels, self.col_labels = g.row_labels, g.col_labels

    def column_frame(self, j: int, color: str | None = None) -> VMobject:
        """An outline around column ``j`` (its label included).

        A label wider than its column gets a head as wide as the label, so the outline goes
        round the word instead of through it.
        """
        t = style.theme()
        tx = self.col_labels[j]
        x = self.centers[0][j][0]
        top = tx.get_top()[1] + style.NUDGE
        bottom = self.centers[-1][j][1] - self.cell / 2 - style.NUDGE
        hw = self.cell * 0.52
        lw = tx.width / 2 + style.NUDGE
        if tx.width / 2 <= hw:
            rect = Rectangle(width=2 * hw, height=top - bottom,
                             stroke_color=color or t.key, stroke_width=3, fill_opacity=0)
            rect.move_to(np.array([x, (top + bottom) / 2, 0]))
            return rect
        grid_top = self.centers[0][j][1] + self.cell / 2
        neck = max(tx.get_bottom()[1] - style.NUDGE, grid_top + style.HAIR)
        corners = [(-hw, bottom), (-hw, neck), (-lw, neck), (-lw, top), (lw, top), (lw, neck),
                   (hw, neck), (hw, bottom)]
        return Polygon(*[np.array([x + dx, y, 0.0]) for dx, y in corners],
                       stroke_color=color or t.key, stroke_width=3, fill_opacity=0)

    def redraw(self) -> None:
        M = np.asarray(self.get_matrix(), float)
        for i in range(self.n):
            for j in range(self.n):
                v = float(M[i, j])
                side = self.cell * 0.9 * min(1.0, np.sqrt(abs(v) / self.vmax))
                sq = self.cells[i][j]
                c = self.centers[i][j]
                h = max(side, 1e-3) / 2
                sq.set_points_as_corners([c + np.array([-h, -h, 0]), c + np.array([h, -h, 0]),
                                          c + np.array([h, h, 0]), c + np.array([-h, h, 0]),
                                          c + np.array([-h, -h, 0])])
                style.sign_mark(sq, v, opacity=0.9)
            self.winners[i].move_to(self.centers[i][int(np.argmax(M[i]))])
