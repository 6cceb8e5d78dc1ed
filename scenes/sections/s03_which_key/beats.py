"""Section 3's beat plan: the caption each of its slots shows, in order, for a story.

Each variant declares in :data:`VARIANTS` the condition under which it is true, on the
figures as displayed (:mod:`attn_math.claims`); the plan shows the first that holds.
"""

from __future__ import annotations

import numpy as np

from attn_math import lexicon
from attn_math.beats import Beat, Figures, variant_beats
from attn_math.claims import (
    ALWAYS,
    ONE_WORD,
    Above,
    Alike,
    AtLeast,
    Both,
    Fact,
    Not,
    Prints,
    Sole,
    Variants,
    decimals_of,
)
from attn_math.head import default_head
from attn_math.story import Story
from scenes.sections.s03_which_key.figures import figures

__all__ = ["VARIANTS", "plan", "fitted_matrices"]

def fitted_matrices(s: Story) -> bool:
    """Whether the story's W_Q, W_K, W_V are the shipped head's (fitted by tools/fit_head.py)."""
    base = default_head()
    return all(np.array_equal(a, b) for a, b in ((s.head.W_Q, base.W_Q), (s.head.W_K, base.W_K),
                                                 (s.head.W_V, base.W_V)))


def follow_row(s: Story) -> tuple:
    """The followed row's raw scores and the decimals they print with."""
    return s.R[s.follow], decimals_of(s.figures_of(figures)["R_follow_winner"].text)


#: One key alone prints the followed row's top raw score.
SOLE_TOP = Sole("the followed row's raw scores", follow_row)
FOLLOW_WINS = Fact("the followed token wins its own row", lambda s: s.winner == s.follow)

VARIANTS: Variants = {
    "shadow": (("shadow_level", ONE_WORD),
               ("shadow_differs", AtLeast("rows_where_shadow_differs", 1)),
               ("shadow_agrees", Prints("rows_where_shadow_differs", "0"))),
    "follow": (("follow_self", Both(FOLLOW_WINS, SOLE_TOP)),
               ("follow_self_shared", FOLLOW_WINS),
               ("follow_tie", Both(Alike("R_follow_winner", "R_follow_self"),
                                   Fact("the winner is the followed word again",
                                        lambda s: s.tokens[s.winner].lower() == s.tokens[s.follow].lower()))),
               ("follow_level", Alike("R_follow_winner", "R_follow_self")),
               ("follow_winner", Both(Above("R_follow_winner", "R_follow_self"), SOLE_TOP)),
               ("follow_shared", Both(Above("R_follow_winner", "R_follow_self"), Not(SOLE_TOP)))),
    # Classes as the lexicon knows them: an unknown word is no noun (lexicon.UNKNOWN); "this
    # toy head was fitted to show it" holds of the shipped matrices only, not of a --head file.
    "trained": (("trained", Fact("a known noun wins the row of a followed known pronoun, "
                                 "with the shipped (fitted) matrices",
                                 lambda s: s.winner != s.follow
                                 and s.classes[s.follow] == lexicon.PRONOUN
                                 and s.classes[s.winner] == lexicon.NOUN
                                 and fitted_matrices(s))),
                ("trained_generic", ALWAYS)),
}


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: the figures it shows), in order."""
    return variant_beats(s, figs, VARIANTS, "keys", "sweep", "shadow", "follow", "trained")
