"""Section 12's beat plan: the caption each of its slots shows, in order, for a story.

Each variant declares in :data:`VARIANTS` the condition under which it is true, on the
figures as displayed (:mod:`attn_math.claims`); the plan shows the first that holds.
"""

from __future__ import annotations

from attn_math.beats import Beat, Figures, variant_beats
from attn_math.claims import TWO_TOKENS, Not, Variants
from attn_math.story import Story

__all__ = ["VARIANTS", "plan"]

#: "every other weight ... in step" needs two others at least.
VARIANTS: Variants = {
    "drag": (("drag_two", TWO_TOKENS), ("drag", Not(TWO_TOKENS))),
}


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: the figures it shows), in order."""
    return variant_beats(s, figs, VARIANTS, "drag", "sum", "invariant")
