"""Section 10's beat plan: the caption each of its slots shows, in order, for a story.

Each variant declares in :data:`VARIANTS` the condition under which it is true, on the
figures as displayed (:mod:`attn_math.claims`); the plan shows the first that holds.
"""

from __future__ import annotations

from attn_math.beats import Beat, Figures, variant_beats
from attn_math.claims import ONE_WORD, Alike, Both, Differ, Fact, Not, Variants
from attn_math.fmt import fmt
from attn_math.story import Story

__all__ = ["VARIANTS", "plan"]

#: The square reads the same folded: every scaled score prints like its mirror image.
SYMMETRIC_AS_SHOWN = Fact("every scaled score prints like its mirror image",
                          lambda s: all(fmt(s.S[i, j]) == fmt(s.S[j, i])
                                        for i in range(s.n) for j in range(i)))

VARIANTS: Variants = {
    "pair": (("pair", Differ("S_asym_fwd", "S_asym_bwd")),
             ("pair_same", Alike("S_asym_fwd", "S_asym_bwd"))),
    "fold": (("fold", Not(SYMMETRIC_AS_SHOWN)),
             ("fold_same", Both(SYMMETRIC_AS_SHOWN, ONE_WORD)),
             ("fold_close", SYMMETRIC_AS_SHOWN)),
    "why": (("why", Differ("S_asym_fwd", "S_asym_bwd")),
            ("why_same", Alike("S_asym_fwd", "S_asym_bwd"))),
}


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: the figures it shows), in order."""
    return variant_beats(s, figs, VARIANTS, "intro", "pair", "fold", "why")
