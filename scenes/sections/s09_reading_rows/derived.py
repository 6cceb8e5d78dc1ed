"""What only section 9 derives from the story: the flattest row and its range as shown."""

from __future__ import annotations

import numpy as np

from attn_math.fmt import round_half_away
from attn_math.story import Story

__all__ = ["flattest_row", "shown_range"]


def flattest_row(s: Story) -> int:
    """The row of ``S`` with the smallest ``max - min`` (first of a tie)."""
    return int(np.argmin(s.S.max(axis=1) - s.S.min(axis=1)))


def shown_range(s: Story, row: int, decimals: int = 2) -> float:
    """``max - min`` of a scaled-score row as read off its displayed (rounded) numbers."""
    hi, lo = (float(round_half_away(x, decimals)) for x in (s.S[row].max(), s.S[row].min()))
    return hi - lo
