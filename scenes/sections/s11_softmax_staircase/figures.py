"""Section 11's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from attn_math.fmt import fmt
from attn_math.story import Figure, Story, figure_table
from attn_math.sums import ratio_decimals

__all__ = ["figures"]


def figures(s: Story) -> dict[str, Figure]:
    """The softmax staircase."""
    wr = s.W[s.follow]
    hi, lo = wr[s.strong], wr[s.weak]
    bars, total = s.sum_places[11]
    d = ratio_decimals(hi, lo, places=bars)
    return figure_table(("w_follow_max", hi, fmt(hi, d)), ("w_follow_min", lo, fmt(lo, d)),
                        ("w_ratio", hi / lo, fmt(hi / lo, 1)), ("w_sum", wr.sum(), fmt(wr.sum(), total)))
