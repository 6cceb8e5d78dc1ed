"""Section 6's beat plan: the caption each of its slots shows, in order, for a story.

Each variant declares in :data:`VARIANTS` the condition under which it is true, on the
figures as displayed (:mod:`attn_math.claims`); the plan shows the first that holds.
"""

from __future__ import annotations

from attn_math.beats import Beat, Figures, variant_beats
from attn_math.claims import ALWAYS, ONE_WORD, TWO_TOKENS, Alike, Both, Differ, Fact, Not, Variants
from attn_math.story import Story
from scenes.sections.s06_one_query_six_numbers.derived import extreme_cells

__all__ = ["VARIANTS", "plan", "extremes_order"]


def extremes_order(s: Story) -> list[str]:
    """``"max"`` and ``"min"`` in the order the walk reaches them (the maximum first within
    one row)."""
    return ["max", "min"] if extreme_cells(s).max_cell[0] <= extreme_cells(s).min_cell[0] else ["min", "max"]


MAX_FIRST = Fact("the walk reaches the maximum first", lambda s: extremes_order(s)[0] == "max")
MAX_ON_SELF = Fact("the maximum sits on the diagonal", lambda s: extreme_cells(s).max_cell[0] == extreme_cells(s).max_cell[1])

#: The first extreme said opens with "no ceiling"/"no floor", the second with "nor".
VARIANTS: Variants = {
    "intro": (("intro_two", TWO_TOKENS), ("intro", Not(TWO_TOKENS))),
    "max": (("flat", Both(Alike("R_max", "R_min"), ONE_WORD)),
            ("peak_self", Both(MAX_FIRST, MAX_ON_SELF)),
            ("peak", MAX_FIRST),
            ("ceiling_self", MAX_ON_SELF),
            ("ceiling", ALWAYS)),
    "min": ((None, Alike("R_max", "R_min")),
            ("bottom", Both(MAX_FIRST, Differ("R_max", "R_min"))),
            ("floor", Differ("R_max", "R_min"))),
}


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: the figures it shows), in order."""
    return variant_beats(s, figs, VARIANTS, "intro", "walk", *extremes_order(s), "no_scale")
