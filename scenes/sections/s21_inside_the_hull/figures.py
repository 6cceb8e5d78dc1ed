"""Section 21's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

import numpy as np

from attn_math.fmt import fmt, fmt_vec
from attn_math.story import HULL_PULL_SCORE, Figure, Story, figure_table

__all__ = ["BORROWS", "figures"]

#: Figures of other sections (by slug) that this section's captions quote.
BORROWS = {"mixing-chain": ("out_follow",)}


def figures(s: Story) -> dict[str, Figure]:
    """Inside the hull."""
    h = s.hull_token
    pulled = s.pulled_weights(HULL_PULL_SCORE)
    gap = float(np.linalg.norm(s.V[h] - s.out_pulled))
    return figure_table(("hull_score", HULL_PULL_SCORE, fmt(HULL_PULL_SCORE)),
                        ("out_pulled", s.out_pulled, fmt_vec(s.out_pulled)),
                        ("v_hull", s.V[h], fmt_vec(s.V[h])),
                        ("w_hull_pulled", pulled[h], fmt(pulled[h], 3)),
                        ("hull_gap", gap, fmt(gap, 3)))
