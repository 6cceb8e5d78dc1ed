"""Section 20's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from attn_math.fmt import fmt_vec
from attn_math.story import Figure, Story, figure_table

__all__ = ["figures"]


def figures(s: Story) -> dict[str, Figure]:
    """The mixing chain."""
    return figure_table(("out_follow", s.O[s.follow], fmt_vec(s.O[s.follow])))
