"""Section 16's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from attn_math import core
from attn_math.fmt import fmt
from attn_math.story import REAL_HEAD_WIDTH, WIDTHS, Figure, Story, figure_table

__all__ = ["BORROWS", "figures"]

#: Figures of other sections (by slug) that this section's captions quote.
BORROWS = {"three-projections": ("d_toy",), "spread-sqrt-d": ("d_real",)}


def figures(s: Story) -> dict[str, Figure]:
    """The divisor."""
    z = s.width_z
    tops = [core.top_weight_scaled(z, dd) for dd in range(1, WIDTHS[-1] + 1)]
    real = core.dot_product_spread(REAL_HEAD_WIDTH)
    t_over_d = core.top_weight_over_d(z, WIDTHS[-1])
    return figure_table(("top_scaled", tops[0], fmt(tops[0], 3)),
                        ("top_scaled_spread", max(tops) - min(tops), fmt(max(tops) - min(tops), 3)),
                        ("divisor_toy", s.divisor, fmt(s.divisor, 3)),
                        ("divisor_real", real, fmt(real, 0)),
                        ("d_max", WIDTHS[-1], str(WIDTHS[-1])),
                        ("top_over_d_max", t_over_d, fmt(t_over_d, 3)),
                        ("uniform", 1.0 / s.n, fmt(1.0 / s.n, 3)))
