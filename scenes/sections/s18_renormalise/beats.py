"""Section 18's beat plan: the caption each of its slots shows, in order, for a story.

Each variant declares in :data:`VARIANTS` the condition under which it is true, on the
figures as displayed (:mod:`attn_math.claims`); the plan shows the first that holds.
"""

from __future__ import annotations

from attn_math.beats import Beat, Figures, variant_beats
from attn_math.claims import Fact, Variants
from attn_math.story import Story
from scenes.sections.s18_renormalise.figures import causal_tied

__all__ = ["VARIANTS", "plan"]

VARIANTS: Variants = {
    "follow": (("follow_first", Fact("the followed token is the first", lambda s: s.follow == 0)),
               ("follow_tie", Fact("several candidates print the largest weight",
                                   lambda s: len(causal_tied(s)) > 1)),
               ("follow", Fact("one candidate prints the largest weight",
                               lambda s: len(causal_tied(s)) == 1))),
}


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: the figures it shows), in order."""
    return variant_beats(s, figs, VARIANTS, "intro", "first", "walk", "follow")
