"""The score matrix as a grid of squares, and the small live readouts beside it.

Sections 8, 9, 10, 17 and 25 (and the small matrix of section 24) draw the
``n x n`` matrix of a head the same way:

- **score mode**: each cell holds a square whose side is proportional to the
  score's size and whose colour and style are its sign (:func:`scenes.style.sign_mark`:
  positive solid, negative hollow), so the picture reads without digits or colour;
- **weight mode**: each cell is shaded in the weight colour by its weight
  (0 to 1), optionally with the weight printed in the cell; the darkest shade leaves the
  printed weight WCAG's 4.5:1 (:data:`NUMBER_RATIO`).

Rows are queries (labels on the left, query colour), columns are keys (labels on
top, key colour). The grid lays itself out in a box (cell size from the space
available and the number of tokens), so a 12-token sentence fits where a 6-token one
does. Labels stay upright and readable: tokens are drawn through
:func:`~scenes.widgets.text.screen_label` (a long one abbreviated, shorter still when that
keeps the column labels on one line), and column labels too wide for their cells are
staggered into up to :data:`MAX_TIERS` tiers. Panels beside the grid name cells with the
grid's own strings (:attr:`ScoreGrid.row_texts`), so a word has one abbreviation on screen.

Typical use::

    grid = ScoreGrid(story.S, story.labels, box=style.left_panel(), filled=False,
                     corner=f"/ √{story.d}")
    self.add(grid)
    for i in range(story.n):
        self.play(grid.fill_row(i))                 # squares grow, row by row
    hl = grid.row_highlight(row_tracker)            # follows a ValueTracker
    self.play(grid.fold())                          # reflect over the diagonal
    self.play(grid.discard(0, 5))                   # square -> dashed outline

    wmap = ScoreGrid(story.Wc, story.labels, box=..., mode="weight")
    wmap.add_numbers()                              # live numbers in every cell
    wmap.bind(lambda: Wc + t.get_value() * (W - Wc))  # values follow a tracker

Everything that changes on screen (sizes, shades, numbers) is updated in place:
no mobject is rebuilt per frame.

Beside the grid: :class:`CostBars` (two bars following a callable); the readouts of a row, a
cell or a count (:class:`~scenes.widgets.readouts.RowReadout`,
:class:`~scenes.widgets.readouts.CellReadout`, :class:`~scenes.widgets.readouts.LabeledNumber`)
are in :mod:`scenes.widgets.readouts`.

Callables given to these widgets are stored on mobjects, which manim deep-copies
(``FadeIn``, ``Transform``): pass plain functions or lambdas, not bound methods of
the Scene (a bound method drags the whole scene into the copy, which fails).
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

import numpy as np
from manim import (
    PI, Animation, AnimationGroup, DashedVMobject, LaggedStart, Line, Mobject,
    Rectangle, Square, Transform, VGroup, VMobject,
    rotation_matrix, smooth,
)

from .. import contrast, style
from .columns import set_rect
from .live_number import EM_PER_FONT_SIZE, LiveNumber
from .redrawn import Redrawn
from .placement import LABEL_GAP
from .text import TOKEN_CELLS, baseline, baseline_drop, cells, label, screen_label, screen_labels
from .tokens import CUT_STEPS

Box = tuple[float, float, float, float]

#: Fraction of a cell the largest square (score mode) or the shaded tile (weight mode) fills.
INSET = 0.9
#: Smallest side of a discarded (dashed) square, as a fraction of the cell, so it stays visible.
DASH_MIN = 0.45
#: Column labels too wide to stand side by side are staggered into at most this many tiers.
MAX_TIERS = 3
#: Least space between two neighbouring labels of one tier, in ems of the label font.
TIER_SPACE_EM = 1.25
#: The grid cuts long tokens step by step like the token strip (:data:`.tokens.CUT_STEPS`)
#: but never under this many half-em cells: a short word ("chased") stays whole. Only to
#: avoid turning the column labels does a token longer than this go shorter (the steps of
#: ``CUT_STEPS`` under it), and then alone: the short words around it stay whole.
MIN_CELLS = 7
#: Labels shrink to this font size (no lower) before long tokens are cut, when the cells
#: they fit at the given size are too small for the rows to keep :data:`LABEL_GAP`.
MIN_LABEL_SIZE = style.TINY_SIZE
#: Weight mode: shade = weight ** WEIGHT_GAMMA (a perceptual curve; small weights stay visible).
WEIGHT_GAMMA = 0.5
#: Weight mode: the least contrast a number in a cell keeps against its shaded tile; the
#: tile's densest shade is the one that leaves it (``contrast.densest_tint``), so one text
#: colour reads on every shade (no text colour reaches WCAG's 4.5:1 on every shade between
#: the background and the full weight colour). A tenth over 4.5 spares cairo's rounding.
NUMBER_RATIO = contrast.TEXT_RATIO + 0.1


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


def _cut_labels(tokens: Sequence[str], cut: int) -> list[str]:
    """Tokens as a grid draws them at a cut of ``cut`` half-em cells: :func:`screen_labels`,
    except that under :data:`MIN_CELLS` only the tokens longer than that are cut (to ``cut``),
    so the short words around a very long one stay whole."""
    if cut >= MIN_CELLS:
        return screen_labels(tokens, cut)
    return [screen_label(x, cut) if sum(map(cells, x)) > MIN_CELLS else screen_label(x)
            for x in tokens]


def _unit_square() -> np.ndarray:
    """Bezier points of a square of side 1 centred on the origin (drawn once, reused)."""
    return Square(side_length=1.0).points.copy()


#: The largest cell side (units) a grid takes when its box leaves room.
MAX_PITCH = 1.1


def opening_pitch(n: int) -> float:
    """The cell cap of a grid that opens a section alone: its cells may grow until it spans
    what a three-token grid spans at :data:`MAX_PITCH`, so a two-token grid is not a small
    block in a corner (the layout probe's opening rule); from three tokens on, the usual cap."""
    return 3 * MAX_PITCH / min(n, 3)


class ScoreGrid(VGroup):
    """An ``n x m`` matrix drawn as a grid of cells with token labels.

    Parameters
    ----------
    values
        ``(n, m)`` array: scores (``mode="score"``) or weights in [0, 1] (``mode="weight"``).
        Rows are queries, columns are keys.
    row_labels, col_labels
        Tokens of rows and columns, in full (``col_labels`` defaults to ``row_labels``); the
        grid abbreviates them for the screen (see :attr:`row_texts`).
    box
        ``(left, right, bottom, top)`` in frame units; the grid and its labels are
        centred in it at the largest cell size that fits (capped by ``max_pitch``).
        Defaults to :func:`style.content_box`.
    mode
        ``"score"`` (square side = \\|value\\| / ``scale``, colour = sign) or ``"weight"``.
    scale
        Score mode: the \\|value\\| whose square fills :data:`INSET` of a cell (default: the
        largest \\|value\\|). Keep it fixed when values change, so sizes stay comparable.
    filled
        If False, squares start at size zero; grow them with :meth:`fill_row` / :meth:`fill_all`.
    corner
        Optional small text in the corner between row and column labels (e.g. ``"/ √2"``).
    label_size
        Font size of the token labels (default: from the number of tokens).
    max_pitch
        Largest cell size in frame units (keeps a 2-token grid from filling the screen).

    Attributes
    ----------
    n, m, pitch
        Rows, columns, cell size (frame units).
    squares
        ``VGroup`` of the ``n * m`` cell shapes, data-indexed (``i * m + j``); see :meth:`square`.
    row_labels, col_labels
        ``VGroup`` of label texts at the left and top (swapped by :meth:`fold`).
    row_texts, col_texts
        The label strings as drawn (abbreviated tokens), by data row and column; readouts
        beside the grid use them.
    cut
        The half-em cells rows and columns were cut to (see
        :func:`scenes.widgets.tokens.one_cut`).
    col_tiers
        Tiers the column labels are staggered into (1: side by side).
    lines
        The faint cell frame.
    transposed
        True after an odd number of :meth:`fold` calls: data cell ``(i, j)`` is then drawn
        at screen row ``j``, column ``i``.

    Notes
    -----
    The main methods, by use:

    - filling: :meth:`fill_row` (an animation), :meth:`fill_cell`, :meth:`fill_all`;
    - changing values: :meth:`set_values`, :meth:`set_presence`, :meth:`bind` (follow a
      callable every frame, e.g. a blend driven by a ValueTracker), :meth:`unbind`;
    - numbers in cells: :meth:`numbers_fit`, :meth:`add_numbers`, :meth:`number`;
    - pointing: :meth:`row_highlight` (static or following a tracker), :meth:`cell_marker`,
      :meth:`square_center`, :meth:`cell_center`, :meth:`grid_rect`;
    - the mask: :meth:`discard` (square -> dashed outline), :meth:`upper_cells`,
      :meth:`mask_boundary` (the staircase), :meth:`upper_region` (the future as one shape),
      :meth:`dashed_cells`;
    - the transpose: :meth:`fold` (do not :meth:`bind` while folding).
    """

    def __init__(self, values, row_labels: Sequence[str], col_labels: Sequence[str] | None = None,
                 box: Box | None = None, *, mode: str = "score", scale: float | None = None,
                 filled: bool = True, corner: str | None = None, label_size: float | None = None,
                 max_pitch: float = MAX_PITCH):
        if mode not in ("score", "weight"):
            raise ValueError(f"mode must be 'score' or 'weight', not {mode!r}")
        t = style.theme()
        self.theme = t
        self.mode = mode
        self.values = np.array(values, dtype=float)
        self.n, self.m = self.values.shape
        col_labels = list(row_labels) if col_labels is None else list(col_labels)
        if len(row_labels) != self.n or len(col_labels) != self.m:
            raise ValueError("labels do not match the shape of values")
        self.scale_value = float(scale) if scale is not None else float(
            np.max(np.abs(self.values)) or 1.0)
        self.transposed = False
        self.presence = np.ones((self.n, self.m))           # 0..1 per cell (weight mode: cut cells)
        self.discarded = np.zeros((self.n, self.m), bool)    # turned into dashed outlines
        self._grown = np.full((self.n, self.m), bool(filled))
        self.numbers: dict[tuple[int, int], LiveNumber] = {}
        #: Weight mode: the fill opacity of a weight of 1 (see :data:`NUMBER_RATIO`).
        self.full_shade = contrast.densest_tint(t.weight, t.background, t.fg, NUMBER_RATIO)

        size = label_size or self.auto_label_size(max(self.n, self.m))
        rows, cols = self._layout(box or style.content_box(), list(row_labels), col_labels,
                                  size, max_pitch, corner)
        size = self.label_size             # the size the labels fit at (may be smaller)

        # ---- cell frame (n + 1 and m + 1 lines: cheaper than n * m rectangles)
        p, (x0, y0) = self.pitch, self.origin
        lines = [Line([x0, y0 - r * p, 0], [x0 + self.m * p, y0 - r * p, 0]) for r in range(self.n + 1)]
        lines += [Line([x0 + c * p, y0, 0], [x0 + c * p, y0 - self.n * p, 0]) for c in range(self.m + 1)]
        self.lines = VGroup(*lines).set_stroke(t.grid, width=1.5)

        # ---- labels
        self._drop = baseline_drop(size)
        for r, mob in enumerate(rows):
            self._place_left(mob, r, self.row_texts[r])
        for c, mob in enumerate(cols):
            if self.col_rotated:
                mob.rotate(PI / 2)
            self._place_top(mob, c, self.col_texts[c])
        self._row_strings, self._col_strings = list(self.row_texts), list(self.col_texts)
        self.row_labels, self.col_labels = VGroup(*rows), VGroup(*cols)

        # ---- cells
        self._unit = _unit_square()
        sq = []
        for i in range(self.n):
            for j in range(self.m):
                s = VMobject(stroke_width=0)
                s.set_points(self._unit * 1e-4 + self.square_center(i, j))
                sq.append(s)
        self.squares = VGroup(*sq)
        parts = [self.lines, self.squares, self.row_labels, self.col_labels]
        self.corner = None
        if corner:
            self.corner = self._corner_label(corner)
            parts.append(self.corner)
        super().__init__(*parts)
        self._redraw()

    # ------------------------------------------------------------ layout

    @staticmethod
    def auto_label_size(n: int) -> float:
        """Label font size for ``n`` tokens: full size up to 6, down to 17 at 12."""
        if n <= 6:
            return style.LABEL_SIZE
        return max(17.0, style.LABEL_SIZE - (n - 6) * (style.LABEL_SIZE - 17.0) / 6.0)

    def _layout(self, box: Box, row_strings: list[str], col_strings: list[str], size: float,
                max_pitch: float, corner: str | None) -> tuple[list, list]:
        """Choose how the labels are drawn, their font size and the cell size; returns the
        (unplaced) row and column label mobjects.

        In order of preference: column labels upright side by side; the same with long tokens
        cut shorter, step by step (the token strip's :data:`.tokens.CUT_STEPS`, not under
        :data:`MIN_CELLS`); then staggered into 2, then :data:`MAX_TIERS` tiers (again long
        tokens cut step by step before another tier). Every layout keeps its rows far enough
        apart for their labels (:meth:`_row_pitch`). If none fits at ``size``, the same at
        :data:`MIN_LABEL_SIZE`; then the tokens longer than :data:`MIN_CELLS` alone are cut
        shorter. Vertical labels are the last resort. Rows and columns always share one cut,
        so a word has one abbreviation.
        """
        self.buff = 0.14
        th = self.theme
        corner_mob = label(corner, style.TINY_SIZE) if corner else None
        made: dict[tuple[float, int], tuple] = {}

        def mobs(sz: float, cut: int):
            if (sz, cut) not in made:
                rs, cs = _cut_labels(row_strings, cut), _cut_labels(col_strings, cut)
                rows = [label(x, sz, th.query) for x in rs]
                cols = [label(x, sz, th.key) for x in cs]
                need = self._row_pitch(rows, rs)
                if self.n == self.m:     # after a fold the column labels stand in the rows
                    need = max(need, self._row_pitch(cols, cs))
                made[(sz, cut)] = (rs, cs, rows, cols, need)
            return made[(sz, cut)]

        sizes = [size] + ([MIN_LABEL_SIZE] if size > MIN_LABEL_SIZE else [])
        usual = [c for c in CUT_STEPS if c >= MIN_CELLS]
        shorter = [c for c in CUT_STEPS if c < MIN_CELLS]
        tries = [(sz, tiers, cut) for cuts in (usual, shorter) for sz in sizes
                 for tiers in range(1, MAX_TIERS + 1) for cut in cuts]
        every = row_strings + col_strings
        for sz, tiers, cut in tries:
            if cut < MIN_CELLS and _cut_labels(every, cut) == _cut_labels(every, MIN_CELLS):
                continue                       # no token longer than MIN_CELLS: nothing new
            self.label_size = sz
            rs, cs, rows, cols, need = mobs(sz, cut)
            geo = self._fit(box, rows, cols, tiers, max_pitch, corner_mob, need)
            if geo is not None:
                self.col_rotated, self.cut = False, cut
                break
        else:
            self.label_size = size
            rs, cs, rows, cols, _ = mobs(size, TOKEN_CELLS)
            geo = self._fit(box, rows, cols, 1, max_pitch, None, rotated=True)
            self.col_rotated, self.cut = True, TOKEN_CELLS
        self.row_texts, self.col_texts = rs, cs
        self.col_tiers, self.tier_step, pitch, over_l, over_r, top_h = geo
        rw = max(m.width for m in rows)
        l, r, b, t = box
        self.pitch = float(pitch)
        self.left_w, self.top_h = rw + self.buff, top_h
        block_w = over_l + self.left_w + self.m * pitch + over_r
        block_h = top_h + self.n * pitch
        cx, cy = (l + r) / 2, (b + t) / 2
        # origin = top-left corner of the cell block
        self.origin = (cx - block_w / 2 + over_l + self.left_w, cy + block_h / 2 - top_h)
        return rows, cols

    def _fit(self, box: Box, rows, cols, tiers: int, max_pitch: float, corner,
             need: float = 0.0, rotated: bool = False):
        """Geometry of a layout with column labels in ``tiers`` tiers, or None if they would
        not fit (or the cells would be smaller than ``need``, the least row pitch):
        ``(tiers, tier step, pitch, left overhang, right overhang, top height)``."""
        l, r, b, t = box
        buff, m = self.buff, self.m
        rw = max(x.width for x in rows)
        widths = np.array([x.width for x in cols])
        ch = max(x.height for x in cols)
        if rotated:
            top_h = float(widths.max()) + buff
            pitch = min((r - l - rw - buff) / m, (t - b - top_h) / self.n, max_pitch)
            return 1, 0.0, pitch, 0.0, 0.0, top_h
        step = ch + LABEL_GAP
        top_h = ch + (tiers - 1) * step + buff
        pitch = min((r - l - rw - buff) / m, (t - b - top_h) / self.n, max_pitch)
        if pitch < need:
            return None
        if tiers == 1:
            return (1, step, pitch, 0.0, 0.0, top_h) if widths.max() <= 0.92 * pitch else None
        centres = np.arange(m) + 0.5
        over_l = over_r = 0.0
        for _ in range(3):   # labels past the cell block take room from the cells
            over_r = max(0.0, float(np.max(centres * pitch + widths / 2)) - m * pitch)
            over_l = max(0.0, float(np.max(widths / 2 - centres * pitch)) - rw - buff)
            pitch = min(pitch, (r - l - rw - buff - over_l - over_r) / m)
        if pitch < need:
            return None
        # Neighbours in a tier are a word space apart at least, so that a tier does not read
        # as a phrase ("old chased red").
        space = max(LABEL_GAP, TIER_SPACE_EM * self.label_size * EM_PER_FONT_SIZE)
        if any((widths[c] + widths[c + tiers]) / 2 + space > tiers * pitch
               for c in range(m - tiers)):
            return None
        if corner is not None:  # the corner text sits left of the first column, in tier 0
            for c in range(m):
                if self.tier_of(c, tiers) == 0 and (c + 0.5) * pitch - widths[c] / 2 < LABEL_GAP - buff:
                    return None
        return tiers, step, pitch, over_l, over_r, top_h

    @staticmethod
    def _row_pitch(mobs, strings) -> float:
        """The least cell size at which these labels, one per row on a common baseline (as
        :meth:`_place_left` sets them), keep :data:`LABEL_GAP` between neighbours."""
        asc, desc = [], []
        for mob, s in zip(mobs, strings):
            base = baseline(mob, s)
            asc.append(mob.get_top()[1] - base)
            desc.append(base - mob.get_bottom()[1])
        pairs = [desc[k] + asc[k + 1] for k in range(len(mobs) - 1)]
        return max(pairs, default=0.0) + LABEL_GAP

    def min_pitch(self, beside: Iterable[Mobject] = ()) -> float:
        """The smallest cell size at which the row labels (and texts drawn one per row
        ``beside`` the grid, e.g. a column of results) keep :data:`LABEL_GAP` between rows."""
        return max(m.height for m in [*self.row_labels, *beside]) + LABEL_GAP

    @staticmethod
    def tier_of(c: int, tiers: int) -> int:
        """Tier of screen column ``c``'s label (0 next to the grid); the first column is
        highest, clear of the corner text."""
        return tiers - 1 - c % tiers

    def _place_left(self, mob, r: int, s: str | None = None) -> None:
        """Right-align a (horizontal) label to the left of screen row ``r``, on a common baseline."""
        s = s if s is not None else ""
        y = self.cell_center(r, 0)[1]
        mob.move_to([self.origin[0] - self.buff - mob.width / 2, y, 0])
        if s:
            mob.shift([0, y - self._drop - baseline(mob, s), 0])

    def _place_top(self, mob, c: int, s: str | None = None, rotated: bool | None = None) -> None:
        """Put a label above screen column ``c`` (vertical when the columns are narrow)."""
        rotated = self.col_rotated if rotated is None else rotated
        x = self.cell_center(0, c)[0]
        y0 = self.origin[1] + self.buff + self.tier_of(c, self.col_tiers) * self.tier_step
        mob.move_to([x, y0 + mob.height / 2, 0])      # vertical labels: bottoms on the grid
        if s and not rotated:  # horizontal ones: baselines on one line just above the grid
            mob.shift([0, y0 + 0.06 - baseline(mob, s), 0])

    def _corner_label(self, text: str):
        t = self.theme
        mob = label(text, style.TINY_SIZE, t.muted)
        room_w, room_h = self.left_w - self.buff, self.top_h - self.buff
        if mob.width > room_w or mob.height > room_h:
            mob.scale(max(0.6, min(room_w / mob.width, room_h / mob.height)))
        mob.move_to([self.origin[0] - self.buff - mob.width / 2,
                     self.origin[1] + self.buff + mob.height / 2, 0])
        return mob

    # ------------------------------------------------------------ geometry

    def cell_center(self, r: int | float, c: int | float) -> np.ndarray:
        """Screen centre of screen row ``r``, column ``c`` (fractional values interpolate)."""
        x0, y0 = self.origin
        return np.array([x0 + (c + 0.5) * self.pitch, y0 - (r + 0.5) * self.pitch, 0.0])

    def screen_cell(self, i: int, j: int) -> tuple[int, int]:
        """Screen (row, column) where data cell ``(i, j)`` is drawn (swapped after a fold)."""
        return (j, i) if self.transposed else (i, j)

    def square_center(self, i: int, j: int) -> np.ndarray:
        """Screen centre of data cell ``(i, j)``."""
        return self.cell_center(*self.screen_cell(i, j))

    def square(self, i: int, j: int) -> VMobject:
        """The shape of data cell ``(i, j)`` (query ``i``, key ``j``), wherever it is drawn."""
        return self.squares[i * self.m + j]

    def grid_rect(self) -> tuple[float, float, float, float]:
        """(left, right, bottom, top) of the cell block, labels excluded."""
        x0, y0 = self.origin
        return x0, x0 + self.m * self.pitch, y0 - self.n * self.pitch, y0

    def side(self, v: float) -> float:
        """Score mode: side of the square of a score ``v`` (frame units)."""
        return INSET * self.pitch * min(1.0, abs(float(v)) / self.scale_value)

    def shade(self, w: float) -> float:
        """Weight mode: fill opacity of a cell of weight ``w``."""
        return self.full_shade * float(np.clip(w, 0.0, 1.0)) ** WEIGHT_GAMMA

    # ------------------------------------------------------------ values

    def _target_points(self, i: int, j: int, v: float | None = None) -> np.ndarray:
        v = self.values[i, j] if v is None else v
        side = self.side(v) if self.mode == "score" else INSET * self.pitch
        return self._unit * max(side, 1e-4) + self.square_center(i, j)

    def _style_cell(self, i: int, j: int, s: VMobject | None = None) -> None:
        """Colour data cell ``(i, j)``'s shape (or ``s``, a copy of it at its target size)."""
        s, v = s if s is not None else self.square(i, j), self.values[i, j]
        if self.mode == "score":
            style.sign_mark(s, v, opacity=self.presence[i, j])
        else:
            s.set_fill(self.theme.weight, opacity=self.shade(v) * self.presence[i, j])

    def _redraw(self) -> None:
        for i in range(self.n):
            for j in range(self.m):
                if self.discarded[i, j]:
                    continue
                s = self.square(i, j)
                if self._grown[i, j]:
                    s.set_points(self._target_points(i, j))
                self._style_cell(i, j)
        for (i, j), num in self.numbers.items():
            self._update_number(i, j, num)

    def set_values(self, values) -> "ScoreGrid":
        """Show new values in place (sizes, colours, shades, numbers); returns ``self``."""
        self.values = np.array(values, dtype=float).reshape(self.n, self.m)
        self._redraw()
        return self

    def set_presence(self, presence) -> "ScoreGrid":
        """Per-cell visibility in [0, 1] (a scalar or an ``(n, m)`` array): fades fills and numbers."""
        self.presence = np.broadcast_to(np.asarray(presence, float), (self.n, self.m)).copy()
        self._redraw()
        return self

    def bind(self, get_values: Callable[[], np.ndarray],
             get_presence: Callable[[], np.ndarray | float] | None = None) -> "ScoreGrid":
        """Follow ``get_values()`` (and ``get_presence()``) on every frame, e.g. a tracker's blend."""
        def follow(_):
            if get_presence is not None:
                self.presence = np.broadcast_to(np.asarray(get_presence(), float),
                                                (self.n, self.m)).copy()
            self.set_values(get_values())

        self.unbind()
        self._binding = follow
        self.add_updater(follow)
        return self

    def unbind(self) -> "ScoreGrid":
        """Remove the updater added by :meth:`bind`."""
        f = getattr(self, "_binding", None)
        if f is not None:
            self.remove_updater(f)
            self._binding = None
        return self

    # ------------------------------------------------------------ filling

    def fill_cell(self, i: int, j: int) -> Animation:
        """The square of data cell ``(i, j)`` grows from its centre."""
        self._grown[i, j] = True
        s = self.square(i, j)
        target = s.copy().set_points(self._target_points(i, j))
        self._style_cell(i, j, target)          # the sign's outline is sized to the target
        return Transform(s, target)

    def fill_row(self, i: int, run_time: float = 1.0, lag_ratio: float = 0.25) -> Animation:
        """Grow the squares of row ``i`` left to right."""
        return LaggedStart(*[self.fill_cell(i, j) for j in range(self.m)],
                           lag_ratio=lag_ratio, run_time=run_time)

    def fill_all(self) -> "ScoreGrid":
        """Show every square at once (no animation)."""
        self._grown[:] = True
        self._redraw()
        return self

    # ------------------------------------------------------------ numbers in cells

    def number_size(self, decimals: int = 2) -> float:
        """Font size at which a number with ``decimals`` fits in a cell (may be under 16)."""
        probe = label("0." + "0" * decimals, style.SMALL_SIZE)
        return float(min(style.SMALL_SIZE, style.SMALL_SIZE * 0.8 * self.pitch / probe.width))

    def numbers_fit(self, decimals: int = 2, min_size: float = style.TINY_SIZE) -> bool:
        """Whether numbers in cells would be readable (font size at least ``min_size``)."""
        return self.number_size(decimals) >= min_size

    def add_numbers(self, cells: Iterable[tuple[int, int]] | None = None,
                    decimals: int = 2) -> VGroup:
        """Put a live number in each of ``cells`` (default: all); they follow :meth:`set_values`.

        Returns the new numbers as a ``VGroup`` (already part of the grid).
        """
        cells = list(cells) if cells is not None else [(i, j) for i in range(self.n)
                                                        for j in range(self.m)]
        size = self.number_size(decimals)
        new = []
        for i, j in cells:
            num = LiveNumber(self.values[i, j], decimals=decimals, font_size=size,
                             color=self.theme.fg)
            num.move_to(self.square_center(i, j))
            self.numbers[(i, j)] = num
            self._update_number(i, j, num)
            new.append(num)
        group = VGroup(*new)
        self.add(group)
        return group

    def number(self, i: int, j: int) -> LiveNumber:
        return self.numbers[(i, j)]

    def _update_number(self, i: int, j: int, num: LiveNumber) -> None:
        v = self.values[i, j]
        num.set_value(v)
        num.set_fill(self.theme.fg,
                     opacity=self.presence[i, j] if not self.discarded[i, j] else 0.0)

    # ------------------------------------------------------------ highlights

    def row_highlight(self, row: float | Mobject = 0, color: str | None = None,
                      fill_opacity: float = 0.08) -> Rectangle:
        """A frame around a screen row, labels included.

        ``row`` is a row index, or a ValueTracker whose (fractional) value the frame
        follows on every frame, so it slides smoothly from row to row.
        """
        l, r, _, _ = self.grid_rect()
        left = l - self.left_w
        rect = Rectangle(width=r - left + 0.12, height=self.pitch,
                         stroke_color=color or self.theme.highlight, stroke_width=3,
                         fill_color=color or self.theme.highlight, fill_opacity=fill_opacity)
        x = (left + r) / 2

        def place(m):
            rr = row.get_value() if hasattr(row, "get_value") else row
            m.move_to([x, self.cell_center(rr, 0)[1], 0])

        place(rect)
        if hasattr(row, "get_value"):
            rect.add_updater(place)
        return rect

    def cell_marker(self, i: int, j: int, color: str | None = None, stroke: float = 4) -> Square:
        """An outline around data cell ``(i, j)`` at its current screen place."""
        sq = Square(side_length=self.pitch, stroke_color=color or self.theme.amber,
                    stroke_width=stroke, fill_opacity=0)
        return sq.move_to(self.square_center(i, j))

    def dashed_cells(self, cells: Iterable[tuple[int, int]], color: str | None = None) -> VGroup:
        """Dashed outlines of whole cells (e.g. the masked future of a weight map)."""
        color = color or self.theme.muted
        return VGroup(*[dashed_square(self.square_center(i, j), INSET * self.pitch, color)
                        for i, j in cells])

    # ------------------------------------------------------------ the mask

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

    # ------------------------------------------------------------ the fold

    def fold(self, run_time: float = 2.5) -> Animation:
        """Reflect the matrix over its diagonal (square matrices): the squares flip about the
        diagonal like a page, row labels travel to the top and column labels to the left.

        Numbers in cells ride with their squares. At the end :attr:`transposed` toggles,
        so data cell ``(i, j)`` is drawn at screen ``(j, i)``; fold again to undo.
        """
        if self.n != self.m:
            raise ValueError("only a square matrix can be folded over its diagonal")
        l, r, b, t = self.grid_rect()
        center = np.array([(l + r) / 2, (b + t) / 2, 0.0])
        axis = np.array([1.0, -1.0, 0.0]) / np.sqrt(2.0)
        # Every piece with points (a discarded cell is a group of dashes) turns with the page.
        pieces = [sm for s in self.squares for sm in s.family_members_with_points()]
        home = [sm.points.copy() for sm in pieces]
        moving_numbers = {k: v.get_center() for k, v in self.numbers.items()}
        # Labels: rows go on top, columns to the left (keeping their own text upright).
        rows_old, cols_old = self.row_labels, self.col_labels
        starts = [m.copy() for m in list(rows_old) + list(cols_old)]
        targets = []
        for k, m in enumerate(rows_old):
            tgt = m.copy()
            if self.col_rotated:
                tgt.rotate(PI / 2)
            self._place_top(tgt, k, self._row_strings[k])
            targets.append(tgt)
        for k, m in enumerate(cols_old):
            tgt = m.copy()
            if self.col_rotated:
                tgt.rotate(-PI / 2)
            self._place_left(tgt, k, self._col_strings[k])
            targets.append(tgt)
        movers = list(rows_old) + list(cols_old)

        flip = rotation_matrix(PI, axis)
        done = [False]

        def update(_, a: float) -> None:
            if done[0]:
                return
            R = rotation_matrix(PI * a, axis)
            for sm, p in zip(pieces, home):
                sm.points = (p - center) @ R.T + center
            for key, num in self.numbers.items():
                c0 = moving_numbers[key]
                c1 = (c0 - center) @ flip.T + center
                num.move_to(c0 + (c1 - c0) * a)
            # Labels fade while they cross the corner, so the crowd mid-fold stays quiet.
            opacity = 1.0 - 0.75 * np.sin(PI * a)
            for mob, s0, s1 in zip(movers, starts, targets):
                for sm, f0, f1 in zip(mob.family_members_with_points(),
                                      s0.family_members_with_points(),
                                      s1.family_members_with_points()):
                    sm.interpolate(f0, f1, a)
                    sm.set_fill(opacity=opacity)
            if a >= 1.0:
                done[0] = True
                self._finish_fold()

        return _Driven(self, update, run_time=run_time, rate_func=smooth)

    def _finish_fold(self) -> None:
        self.transposed = not self.transposed
        self.row_labels, self.col_labels = self.col_labels, self.row_labels
        self._row_strings, self._col_strings = self._col_strings, self._row_strings
        for i in range(self.n):
            for j in range(self.m):
                if not self.discarded[i, j] and self._grown[i, j]:
                    self.square(i, j).set_points(self._target_points(i, j))


class _Driven(Animation):
    """Calls ``update(mobject, alpha)`` each frame without copying the (large) mobject.

    Unlike ``UpdateFromAlphaFunc`` it does not deep-copy the grid at the start, and the grid
    is one of the animation's mobjects, so the renderer redraws it every frame.
    """

    def __init__(self, mobject, update, **kwargs):
        self._update = update
        super().__init__(mobject, suspend_mobject_updating=False, **kwargs)

    def create_starting_mobject(self):
        return Mobject()

    def interpolate_mobject(self, alpha: float) -> None:
        self._update(self.mobject, self.rate_func(alpha))


class CostBars(Redrawn, VGroup):
    """Two horizontal bars whose lengths follow ``get()`` -> ``(a, b)`` (fractions of ``width``).

    Used by section 8 to compare the projections' cost with the square's as the context grows.

    Not a configuration of :class:`scenes.widgets.columns.ColumnChart`, though both draw bars
    with :func:`~scenes.widgets.columns.set_rect`: a column chart stands one bar per token
    in slots of one pitch on a value axis, with numbers past the bars' ends and names under
    a baseline; these are two progress bars, each a fraction of its own track under its own
    title (a row as tall as its title, not a slot of a common pitch), with no axis, numbers
    or names, and they read their position from the group (the scene moves it).

    Parameters
    ----------
    names
        The two bar titles (localised by the caller), drawn above each bar.
    colors
        The two bar colours (theme roles).
    get
        Callable returning the two lengths as fractions of ``width`` (clipped to [0, 1]).
    """

    def __init__(self, names: Sequence[str], colors: Sequence[str],
                 get: Callable[[], tuple[float, float]], *, width: float = 4.0,
                 size: float = style.SMALL_SIZE, bar_h: float = 0.26):
        t = style.theme()
        self.get, self.width_units, self.bar_h = get, width, bar_h
        parts, self.bars, self.tracks = [], [], []
        y = 0.0
        for name, color in zip(names, colors):
            title = label(name, size, t.fg)
            title.move_to([title.width / 2, y - title.height / 2, 0])
            y -= title.height + 0.1
            bar = Rectangle(width=width, height=bar_h, fill_color=color, fill_opacity=1,
                            stroke_width=0)
            bar.move_to([width / 2, y - bar_h / 2, 0])
            track = Line([0, y - bar_h / 2, 0], [width, y - bar_h / 2, 0]).set_stroke(t.grid, 2)
            self.bars.append((bar, y - bar_h / 2))
            self.tracks.append(track)
            parts += [track, bar, title]
            y -= bar_h + 0.28
        super().__init__(*parts)
        self.redraw_every_frame()

    def redraw(self) -> None:
        fractions = self.get()
        x0 = self.tracks[0].get_start()[0]
        for (bar, _), f in zip(self.bars, fractions):
            w = max(1e-3, self.width_units * float(np.clip(f, 0.0, 1.0)))
            y = bar.get_center()[1]          # where the bar is now: the scene moves the group
            set_rect(bar, x0, x0 + w, y - self.bar_h / 2, y + self.bar_h / 2)
