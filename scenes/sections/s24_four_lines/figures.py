"""Section 24's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from attn_math.fmt import fmt, fmt_vec
from attn_math.story import Figure, Story, figure_table

__all__ = ["figures"]


def figures(s: Story) -> dict[str, Figure]:
    """Four lines: the small matrix beside the code is this sentence's; per row, the causal
    weights' sum (line 3) and the output (line 4)."""
    out = figure_table(("n_tokens", s.n, str(s.n)))
    for i in range(s.n):
        total = float(s.Wc_sums[i])
        out[f"row_sum_{i}"] = Figure(total, fmt(total))
        out[f"out_causal_{i}"] = Figure(s.Oc[i], fmt_vec(s.Oc[i]))
    return out
