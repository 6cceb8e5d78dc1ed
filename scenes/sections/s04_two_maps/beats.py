"""Section 4's beat plan: the caption each of its slots shows, in order, for a story.

Each variant declares in :data:`VARIANTS` the condition under which it is true, on the
figures as displayed (:mod:`attn_math.claims`); the plan shows the first that holds.
"""

from __future__ import annotations

from attn_math.beats import Beat, Figures, variant_beats
from attn_math.claims import PAIR_ONE_WORD, TWO_TOKENS, Alike, Both, Differ, Variants
from attn_math.story import Story

__all__ = ["VARIANTS", "plan"]

VARIANTS: Variants = {
    "two_maps": (("two_maps", Differ("S_asym_fwd", "S_asym_bwd")),
                 ("two_maps_same", Both(Alike("S_asym_fwd", "S_asym_bwd"), PAIR_ONE_WORD)),
                 # S[a, b] - S[b, a] is |x_a| |x_b| sin θ times a constant of W_Q and W_K: two
                 # different words print alike only when their inputs lie nearly on one line
                 ("two_maps_close", Alike("S_asym_fwd", "S_asym_bwd"))),
    # "has become a mere similarity" only of a pair that was directed before blending
    "merged": (("merged", Differ("S_asym_fwd", "S_asym_bwd")),
               ("merged_two", Both(Alike("S_asym_fwd", "S_asym_bwd"), TWO_TOKENS)),
               ("merged_same", Alike("S_asym_fwd", "S_asym_bwd"))),
}


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: the figures it shows), in order."""
    return variant_beats(s, figs, VARIANTS, "two_maps", "blend", "merged", "why")
