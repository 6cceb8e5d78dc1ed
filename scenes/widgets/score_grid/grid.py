"""The score grid: its parts put together (labels, cells, shading, numbers, mask, fold)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import PI, Line, VGroup, VMobject

from ... import contrast, style
from ...geometry import Box
from ..live_number import LiveNumber
from ..text import baseline_drop
from .cells import GridCells
from .fold import GridFold
from .label_tiers import MAX_PITCH, GridLabels
from .mask import GridMask
from .numbers import GridNumbers
from .shading import NUMBER_RATIO, GridShading, _unit_square

__all__ = ["ScoreGrid"]


class ScoreGrid(GridLabels, GridCells, GridShading, GridNumbers, GridMask, GridFold,
                VGroup):
    """An ``n x m`` matrix drawn as a grid of cells with token labels.

    Parameters
    ----------
    values
        ``(n, m)`` array: scores (``mode="score"``) or weights in [0, 1] (``mode="weight"``).
        Rows are queries, columns are keys.
    row_labels, col_labels
        Token names of rows and columns as the sentence shows them
        (:func:`scenes.widgets.tokens.shown_names`; ``col_labels`` defaults to ``row_labels``); the
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
        #: Weight mode: the fill opacity of a weight of 1 (see :data:`~.shading.NUMBER_RATIO`).
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
