"""Live numbers written in a score grid's cells."""

from __future__ import annotations

from collections.abc import Iterable

from manim import VGroup

from ... import style
from ..live_number import LiveNumber
from ..text import label

__all__ = ["GridNumbers"]


class GridNumbers:
    """Numbers in the cells of :class:`~scenes.widgets.score_grid.ScoreGrid`, sized to the
    cells and following the values (``fg`` on every shade: see :data:`~.shading.NUMBER_RATIO`)."""

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
