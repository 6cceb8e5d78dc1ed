"""Section 20's beat plan: the caption each of its slots shows, in order, for a story.

Each variant declares in :data:`VARIANTS` the condition under which it is true, on the
figures as displayed (:mod:`attn_math.claims`); the plan shows the first that holds.
"""

from __future__ import annotations

import numpy as np

from attn_math import core
from attn_math.beats import Beat, Figures, variant_beats
from attn_math.claims import ALWAYS, Fact, Variants
from attn_math.story import Story

__all__ = ["VARIANTS", "plan", "values_on_one_side"]


def values_on_one_side(s: Story) -> bool:
    """Whether the values lie on one side of a line through the origin."""
    return not core.in_convex_hull(np.zeros(2), s.V)


VARIANTS: Variants = {
    "step": (("never_back", Fact("the values lie on one side of a line through the origin",
                                 values_on_one_side)),
             ("never_flipped", ALWAYS)),
}


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: the figures it shows), in order."""
    return variant_beats(s, figs, VARIANTS, "values", "chain", "step", "output")
