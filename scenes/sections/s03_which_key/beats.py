"""Section 3's beat plan: the caption each of its slots shows, in order, for a story.

Each variant declares in :data:`VARIANTS` the condition under which it is true, on the
figures as displayed (:mod:`attn_math.claims`); the plan shows the first that holds.
"""

from __future__ import annotations

from attn_math import lexicon
from attn_math.beats import Beat, Figures, variant_beats
from attn_math.claims import ALWAYS, Above, Alike, AtLeast, Both, Fact, Prints, Variants
from attn_math.story import Story

__all__ = ["VARIANTS", "plan"]

VARIANTS: Variants = {
    "shadow": (("shadow_differs", AtLeast("rows_where_shadow_differs", 1)),
               ("shadow_agrees", Prints("rows_where_shadow_differs", "0"))),
    "follow": (("follow_self", Fact("the followed token wins its own row",
                                    lambda s: s.winner == s.follow)),
               ("follow_tie", Both(Alike("R_follow_winner", "R_follow_self"),
                                   Fact("the winner is the followed word again",
                                        lambda s: s.tokens[s.winner].lower() == s.tokens[s.follow].lower()))),
               ("follow_level", Alike("R_follow_winner", "R_follow_self")),
               ("follow_winner", Above("R_follow_winner", "R_follow_self"))),
    "trained": (("trained", Fact("a noun wins the row of a followed pronoun",
                                 lambda s: s.winner != s.follow
                                 and s.classes[s.follow] == lexicon.PRONOUN
                                 and s.classes[s.winner] == lexicon.NOUN)),
                ("trained_generic", ALWAYS)),
}


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: the figures it shows), in order."""
    return variant_beats(s, figs, VARIANTS, "keys", "sweep", "shadow", "follow", "trained")
