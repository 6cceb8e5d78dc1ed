"""Section 1's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from attn_math.fmt import fmt_vec
from attn_math.story import REAL_HEAD_WIDTH, Figure, Story, figure_table

__all__ = ["figures"]


def figures(s: Story) -> dict[str, Figure]:
    """Three projections."""
    x = s.X[s.follow]
    return figure_table(("n_tokens", s.n, str(s.n)), ("d_toy", s.d, str(s.d)),
                        ("d_real", REAL_HEAD_WIDTH, str(REAL_HEAD_WIDTH)),
                        # The followed token's input, under its chip.
                        ("x_follow", x, fmt_vec(x)))
