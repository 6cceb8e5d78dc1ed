"""Section 14's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from attn_math import core
from attn_math.fmt import fmt
from attn_math.story import REAL_HEAD_WIDTH, WIDTHS, Figure, Story, figure_table

__all__ = ["figures"]


def figures(s: Story) -> dict[str, Figure]:
    """Spread grows as sqrt(d)."""
    spread = core.dot_product_spread(REAL_HEAD_WIDTH)
    out = figure_table(("spread_real", spread, fmt(spread, 2)),
                       ("d_real", REAL_HEAD_WIDTH, str(REAL_HEAD_WIDTH)),
                       ("widths", list(WIDTHS), ", ".join(map(str, WIDTHS))))
    # The width axis' step between ticks (the log axis is evenly spaced: each tick x4).
    step = WIDTHS[1] // WIDTHS[0]
    out["width_step"] = Figure(step, str(step))
    # The spread axis' tick labels, one at each width's spread (whole numbers: 1, 2, 4, ...).
    for i, w in enumerate(WIDTHS):
        v = core.dot_product_spread(w)
        out[f"spread_tick_{i}"] = Figure(v, fmt(v, 0))
    return out
