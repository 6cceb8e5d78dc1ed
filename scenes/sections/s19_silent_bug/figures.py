"""Section 19's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from attn_math.fmt import fmt
from attn_math.story import Figure, Story, figure_table

__all__ = ["figures"]


def figures(s: Story) -> dict[str, Figure]:
    """The silent bug, computed by the wrong code path."""
    br = s.bug_row
    leak = float(s.Wbug[br, br + 1:].sum())
    correct = float(s.Wc[br, br + 1:].sum())
    d = s.sum_places[19].total        # the leak readout's decimals
    return figure_table(("bug_leak", leak, fmt(leak, d)), ("bug_leak_correct", correct, fmt(correct, d)))
