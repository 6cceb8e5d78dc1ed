"""Section 25's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from attn_math.fmt import fmt
from attn_math.story import Figure, Story, figure_table

__all__ = ["BORROWS", "figures"]

#: Figures of other sections (by slug) that this section's captions quote.
BORROWS = {"silent-bug": ("bug_leak",)}


def figures(s: Story) -> dict[str, Figure]:
    """The attention map."""
    f, cw = s.follow, s.causal_winner
    return figure_table(("wc_follow_winner", s.Wc[f, cw], fmt(s.Wc[f, cw])),
                        ("w_follow_cwinner", s.W[f, cw], fmt(s.W[f, cw])))
