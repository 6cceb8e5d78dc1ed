"""Section 4's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from attn_math.fmt import fmt
from attn_math.story import Figure, Story, figure_table
from scenes.sections.s04_two_maps.derived import blended_scores

__all__ = ["figures"]


def figures(s: Story) -> dict[str, Figure]:
    """Two maps: blend W_Q into W_K."""
    a, b = s.asym
    S_mixed = blended_scores(s, 1.0)
    return figure_table(("S_asym_fwd", s.S[a, b], fmt(s.S[a, b])),
                        ("S_asym_bwd", s.S[b, a], fmt(s.S[b, a])),
                        ("S_asym_blend", S_mixed[a, b], fmt(S_mixed[a, b])))
