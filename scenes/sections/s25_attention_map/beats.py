"""Section 25's beat plan: the caption each of its slots shows, in order, for a story.

Each variant declares in :data:`VARIANTS` the condition under which it is true, on the
figures as displayed (:mod:`attn_math.claims`); the plan shows the first that holds.
"""

from __future__ import annotations

from attn_math.beats import Beat, Figures, variant_beats
from attn_math.claims import Alike, Both, Differ, Fact, Not, Variants, decimals_of
from attn_math.story import Story
from scenes.sections.s25_attention_map.figures import figures

__all__ = ["VARIANTS", "plan"]

#: The masked row's top weight is one token's alone at the decimals this section prints
#: (the same rule as section 18's tie, at this screen's precision).
SOLE_CAUSAL = Fact("one causal candidate alone prints the largest masked weight",
                   lambda s: len(s.tied_at(decimals_of(s.figures_of(figures)["wc_follow_winner"].text))) == 1)

VARIANTS: Variants = {
    "row": (("row", Both(SOLE_CAUSAL, Differ("wc_follow_winner", "w_follow_cwinner"))),
            ("row_same", Both(SOLE_CAUSAL, Alike("wc_follow_winner", "w_follow_cwinner"))),
            ("row_tied", Not(SOLE_CAUSAL))),
}


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: the figures it shows), in order."""
    return variant_beats(s, figs, VARIANTS, "intro", "lift", "row", "bugs")
