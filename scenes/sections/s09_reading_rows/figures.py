"""Section 9's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from attn_math.fmt import fmt
from attn_math.story import Figure, Story, figure_table

__all__ = ["figures"]


def figures(s: Story) -> dict[str, Figure]:
    """Reading rows."""
    f, w, fr = s.follow, s.winner, s.flattest_row
    # The range is read off the row's displayed numbers, so "max − min" agrees with the
    # two values on screen (the exact range can round the other way).
    return figure_table(("S_follow_winner", s.S[f, w], fmt(s.S[f, w])),
                        ("flattest_range", s.S[fr].max() - s.S[fr].min(), fmt(s.shown_range(fr))))
