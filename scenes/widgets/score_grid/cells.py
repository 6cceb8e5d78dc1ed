"""Where a score grid's cells are on screen, and the marks that point at them."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from manim import Mobject, Rectangle, Square, VGroup, VMobject

from ... import style
from .mask import dashed_square
from .shading import INSET

__all__ = ["GridCells"]


class GridCells:
    """Cell geometry of :class:`~scenes.widgets.score_grid.ScoreGrid` (screen rows and
    columns, data cells wherever a fold put them) and highlights on it."""

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

    def row_highlight(self, row: float | Mobject = 0, color: str | None = None,
                      fill_opacity: float = 0.08) -> Rectangle:
        """A frame around a screen row, labels included.

        ``row`` is a row index, or a ValueTracker whose (fractional) value the frame
        follows on every frame, so it slides smoothly from row to row.
        """
        l, r, _, _ = self.grid_rect()
        left = l - self.left_w
        rect = Rectangle(width=r - left + style.CLOSE, height=self.pitch,
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
