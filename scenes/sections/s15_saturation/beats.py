"""Section 15's beat plan: the caption each of its slots shows, in order, for a story.

Each variant declares in :data:`VARIANTS` the condition under which it is true, on the
figures as displayed (:mod:`attn_math.claims`); the plan shows the first that holds.
"""

from __future__ import annotations

from attn_math.beats import Beat, Figures, variant_beats
from attn_math.claims import Above, Both, Fact, Level, Not, Prints, Rises, Variants
from attn_math.story import Story

__all__ = ["VARIANTS", "plan"]

#: The width row has no spread (every score equal): no width changes its weights.
FLAT_ROW = Fact("every score of the width row is equal", lambda s: not s.width_z.any())

VARIANTS: Variants = {
    "row": (("row_flat", FLAT_ROW), ("row", Not(FLAT_ROW))),
    "power": (("power", Both(Above("lead_ratio_d1", "1"), Rises("top_d1", "top_d16"))),
              ("power_shared", Both(Prints("lead_ratio_d1", "1.00"), Rises("top_d1", "top_d16"))),
              ("power_flat", Both(Level("top_d1", "top_d16", "top_d64"), FLAT_ROW))),
    "climb": (("climb", Rises("top_d1", "top_d16", "top_d64")),
              ("climb_pinned", Both(Rises("top_d1", "top_d16"), Level("top_d16", "top_d64"))),
              ("climb_flat", Level("top_d1", "top_d16", "top_d64"))),
}


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: the figures it shows), in order."""
    return variant_beats(s, figs, VARIANTS, "row", "power", "climb", "gradient")
