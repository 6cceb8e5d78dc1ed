"""Section 16's beat plan: the caption each of its slots shows, in order, for a story.

Each variant declares in :data:`VARIANTS` the condition under which it is true, on the
figures as displayed (:mod:`attn_math.claims`); the plan shows the first that holds.
"""

from __future__ import annotations

from attn_math.beats import Beat, Figures, variant_beats
from attn_math.claims import Above, Alike, Both, Fact, Level, Not, Variants
from attn_math.story import Story
from scenes.sections.s15_saturation.figures import figures as saturation

__all__ = ["VARIANTS", "plan"]

#: The width row has no spread (every score equal): dividing keeps no spread of 1.
FLAT_ROW = Fact("every score of the width row is equal", lambda s: not s.width_z.any())

#: Section 15 showed the top weight level without the divisor too: dividing changed nothing.
LEVEL_BEFORE = Fact("section 15's top weights print alike at d = 1, 16, 64",
                    lambda s: len({s.figures_of(saturation)[k].text for k in ("top_d1", "top_d16", "top_d64")}) == 1)

VARIANTS: Variants = {
    "flat": (("flat_level", LEVEL_BEFORE), ("flat", Not(LEVEL_BEFORE))),
    "divide": (("divide_flat", FLAT_ROW), ("divide", Not(FLAT_ROW))),
    "over_d": (("over_d", Both(Above("top_scaled", "top_over_d_max"), Above("top_over_d_max", "uniform"))),
               ("over_d_reached", Both(Above("top_scaled", "top_over_d_max"), Alike("top_over_d_max", "uniform"))),
               ("over_d_flat", Level("top_scaled", "top_over_d_max", "uniform"))),
}


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: the figures it shows), in order."""
    return variant_beats(s, figs, VARIANTS, "divide", "flat", "over_d", "divisor")
