"""Section 15's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from attn_math import core
from attn_math.fmt import fmt
from attn_math.story import WIDTHS, Figure, Story, figure_table

__all__ = ["BORROWS", "figures"]

#: The widths this section quotes (narrow and wide).
SATURATION_WIDTHS = (16, 64)

#: Figures of other sections (by slug) that this section's captions quote.
BORROWS = {"spread-sqrt-d": ("d_real",), "the-divisor": ("divisor_real",)}


def figures(s: Story) -> dict[str, Figure]:
    """Saturation: the width row, standardised, at growing width, no divisor."""
    z = s.width_z
    out = {"top_d1": Figure(core.top_weight_unscaled(z, 1), fmt(core.top_weight_unscaled(z, 1), 3))}
    for dd in SATURATION_WIDTHS:
        t = core.top_weight_unscaled(z, dd)
        out[f"top_d{dd}"] = Figure(t, fmt(t, 3))
    ratio = core.lead_ratio(core.weights_divided(z, WIDTHS[0], 0.0))
    out.update(figure_table(("width_lo", SATURATION_WIDTHS[0], str(SATURATION_WIDTHS[0])),
                            ("width_hi", SATURATION_WIDTHS[1], str(SATURATION_WIDTHS[1])),
                            # The leader's lead over the runner-up at the narrowest width, raised
                            # to the power sqrt(d) as the width grows.
                            ("lead_ratio_d1", ratio, fmt(ratio, 2))))
    return out
