"""Section 12's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from attn_math.fmt import fmt
from attn_math.story import Figure, Story, figure_table

__all__ = ["figures"]


def figures(s: Story) -> dict[str, Figure]:
    """One denominator."""
    wr = s.W[s.follow]
    return figure_table(("w_sum", wr.sum(), fmt(wr.sum(), s.sum_places[12].total)))
