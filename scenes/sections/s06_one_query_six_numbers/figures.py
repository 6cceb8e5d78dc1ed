"""Section 6's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from attn_math.fmt import fmt
from attn_math.story import Figure, Story, figure_table

__all__ = ["figures"]


def figures(s: Story) -> dict[str, Figure]:
    """One query, six numbers: the extreme cells."""
    hi, lo = s.R[s.max_cell], s.R[s.min_cell]
    return figure_table(("R_max", hi, fmt(hi)), ("R_min", lo, fmt(lo)))
