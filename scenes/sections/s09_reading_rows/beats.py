"""Section 9's beat plan: the caption each of its slots shows, in order, for a story.

Each variant declares in :data:`VARIANTS` the condition under which it is true, on the
figures as displayed (:mod:`attn_math.claims`); the plan shows the first that holds.
"""

from __future__ import annotations

from attn_math.beats import Beat, Figures, variant_beats
from attn_math.claims import Fact, Not, Variants
from attn_math.fmt import fmt
from attn_math.story import Story

__all__ = ["VARIANTS", "plan"]

#: Every square of the followed row prints alike (one repeated word): none is the largest.
ROW_LEVEL = Fact("every scaled score of the followed row prints alike",
                 lambda s: len({fmt(x) for x in s.S[s.follow]}) == 1)

VARIANTS: Variants = {
    "winner": (("winner_level", ROW_LEVEL), ("winner", Not(ROW_LEVEL))),
}


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: the figures it shows), in order."""
    return variant_beats(s, figs, VARIANTS, "intro", "walk", "winner", "flattest")
