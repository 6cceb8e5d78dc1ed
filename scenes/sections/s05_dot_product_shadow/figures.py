"""Section 5's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from attn_math import core
from attn_math.fmt import fmt
from attn_math.story import Figure, Story, figure_table

__all__ = ["figures"]


def figures(s: Story) -> dict[str, Figure]:
    """The dot product is a shadow (the followed query against the winner's key)."""
    sh = core.shadow(s.Q[s.follow], s.K[s.winner])
    return figure_table(("shadow_len", sh["shadow"], fmt(sh["shadow"])),
                        ("key_len", sh["key_length"], fmt(sh["key_length"])),
                        ("shadow_score", sh["score"], fmt(sh["score"])))
