"""Section 17's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from attn_math import cost
from attn_math.fmt import fmt_int
from attn_math.story import Figure, Story, figure_table

__all__ = ["figures"]


def figures(s: Story) -> dict[str, Figure]:
    """The causal mask."""
    dis, kept, comp = cost.causal_counts(s.n)
    return figure_table(("discarded", dis, fmt_int(dis)), ("kept", kept, fmt_int(kept)),
                        ("computed", comp, fmt_int(comp)))
