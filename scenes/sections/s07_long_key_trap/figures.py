"""Section 7's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

import numpy as np

from attn_math.fmt import fmt
from attn_math.story import Figure, Story, figure_table

__all__ = ["BORROWS", "figures"]

#: The slider moves in tenths.
STRETCH_STEP = 0.1

#: Figures of other sections (by slug) that this section's captions quote.
BORROWS = {"which-key": ("R_follow_winner",)}


def figures(s: Story) -> dict[str, Figure]:
    """The long-key trap."""
    cross = s.stretch_cross
    lo = (np.floor(cross / STRETCH_STEP) * STRETCH_STEP if s.stretch_overtakes
          else s.stretch_max)
    hi = lo + STRETCH_STEP
    base = s.R[s.follow, s.long_key]
    end = s.stretch_max * base
    return figure_table(("stretch_cross", cross, fmt(cross, 2) if s.stretch_overtakes else "∞"),
                        ("stretch_lo", lo, fmt(lo, 1)),
                        ("stretch_hi", hi, fmt(hi, 1)),
                        ("stretch_max", s.stretch_max, fmt(s.stretch_max, 1)),
                        ("R_follow_long", base, fmt(base)),
                        ("R_follow_long_end", end, fmt(end)),
                        # the rows whose leader the stretched key takes (the rerun, every row)
                        ("rows_taken", s.rows_taken, str(len(s.rows_taken))))
