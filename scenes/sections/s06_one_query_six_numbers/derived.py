"""What only section 6 derives from the story: the largest and the smallest raw score."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_math.story import Story

__all__ = ["ExtremeCells", "extreme_cells"]


@dataclass(frozen=True)
class ExtremeCells:
    """The cells ``(row, column)`` of the largest and the smallest raw score (first of a tie)."""

    max_cell: tuple[int, int]
    min_cell: tuple[int, int]


def _extreme_cells(s: Story) -> ExtremeCells:
    hi = np.unravel_index(int(np.argmax(s.R)), s.R.shape)
    lo = np.unravel_index(int(np.argmin(s.R)), s.R.shape)
    return ExtremeCells((int(hi[0]), int(hi[1])), (int(lo[0]), int(lo[1])))


def extreme_cells(s: Story) -> ExtremeCells:
    """The extreme cells of ``s``'s raw scores (computed once per story)."""
    return s.derived(_extreme_cells)
