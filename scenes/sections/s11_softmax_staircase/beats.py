"""Section 11's beat plan: the caption each of its slots shows, in order, for a story.

Each variant declares in :data:`VARIANTS` the condition under which it is true, on the
figures as displayed (:mod:`attn_math.claims`); the plan shows the first that holds.
"""

from __future__ import annotations

from attn_math.beats import Beat, Figures, variant_beats
from attn_math.claims import Alike, Both, Differ, Not, Prints, Sole, Variants, decimals_of
from attn_math.story import Story
from scenes.sections.s11_softmax_staircase.figures import figures

__all__ = ["VARIANTS", "plan"]

def _row(s: Story) -> tuple:
    """The followed row's weights and the decimals its bars print with."""
    return s.W[s.follow], s.sum_places[11].parts


#: "the most" and "the least" name one token each only when no other bar prints the same.
SOLE_MOST = Sole("the followed row's weights", _row, "max")
SOLE_LEAST = Sole("the followed row's weights", _row, "min")

#: "the least goes to more than one token": a tie even at the decimals the caption prints
#: the least with (which may be more than the bars').
SOLE_LEAST_AS_QUOTED = Sole("the followed row's weights at the quoted decimals",
                            lambda s: (s.W[s.follow], decimals_of(s.figures_of(figures)["w_follow_min"].text)), "min")

VARIANTS: Variants = {
    "soft": (("soft_uniform", Alike("w_follow_max", "w_follow_min")),
             ("soft", Both(Differ("w_follow_max", "w_follow_min"), SOLE_MOST, SOLE_LEAST,
                           Not(Prints("w_ratio", "1.0")))),
             ("soft_top", Both(Differ("w_follow_max", "w_follow_min"), SOLE_MOST,
                               Not(SOLE_LEAST_AS_QUOTED))),
             ("soft_range", Differ("w_follow_max", "w_follow_min"))),
}


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: the figures it shows), in order."""
    return variant_beats(s, figs, VARIANTS, "scores", "exp", "divide", "stair", "soft")
