"""Section 7's beat plan: the caption each of its slots shows, in order, for a story.

Each variant declares in :data:`VARIANTS` the condition under which it is true, on the
figures as displayed (:mod:`attn_math.claims`); the plan shows the first that holds.
"""

from __future__ import annotations

from attn_math.beats import Beat, Figures, variant_beats
from attn_math.claims import Above, Alike, AtLeast, Both, Fact, Prints, Variants
from attn_math.story import Story
from scenes.sections.s07_long_key_trap.derived import long_key_trap

__all__ = ["VARIANTS", "plan"]

VARIANTS: Variants = {
    "rising": (("rising", Above("R_follow_long", "0")),),
    "overtakes": (("overtakes", Fact("the crossing lies between the two stretches shown",
                                     lambda s: long_key_trap(s).stretch_overtakes)),),
    "never_overtakes": (("never_overtakes", Above("R_follow_winner", "R_follow_long_end")),
                        ("already_level", Both(Alike("R_follow_long", "R_follow_winner"),
                                               Above("R_follow_long_end", "R_follow_winner")))),
    "every_row": (("every_row", AtLeast("rows_taken", 2)),
                  ("every_row_one", Prints("rows_taken", "1")),
                  ("every_row_none", Prints("rows_taken", "0"))),
}


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: the figures it shows), in order:
    ``rising`` + ``overtakes`` when the stretched key overtakes within the slider, else
    ``never_overtakes``."""
    stretch = ("rising", "overtakes") if long_key_trap(s).stretch_overtakes else ("never_overtakes",)
    return variant_beats(s, figs, VARIANTS, "intro", *stretch, "every_row", "remedies")
