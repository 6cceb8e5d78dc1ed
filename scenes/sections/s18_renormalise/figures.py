"""Section 18's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from attn_math.fmt import fmt
from attn_math.story import Figure, Story, figure_table

__all__ = ["figures"]


def figures(s: Story) -> dict[str, Figure]:
    """Renormalise."""
    f, cw = s.follow, s.causal_winner
    d = s.sum_places[18].parts        # the bars' decimals
    return figure_table(("wc_first", s.Wc[0, 0], fmt(s.Wc[0, 0], d)),
                        ("wc_follow_winner", s.Wc[f, cw], fmt(s.Wc[f, cw], d)),
                        ("follow_candidates", f + 1, str(f + 1)))
