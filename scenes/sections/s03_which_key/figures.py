"""Section 3's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from attn_math.fmt import fmt
from attn_math.story import Figure, Story, figure_table
from scenes.sections.s03_which_key.derived import shadow_winners

__all__ = ["figures"]


def figures(s: Story) -> dict[str, Figure]:
    """Which key does each query pick?"""
    f, w = s.follow, s.winner
    differ = [i for i in range(s.n) if s.row_winners[i] != shadow_winners(s)[i]]
    return figure_table(("R_follow_winner", s.R[f, w], fmt(s.R[f, w])),
                        ("R_follow_self", s.R[f, f], fmt(s.R[f, f])),
                        ("rows_where_shadow_differs", differ, str(len(differ))))
