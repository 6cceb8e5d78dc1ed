"""Section 9's beat plan: the caption each of its slots shows, in order, for a story.

Each variant declares in :data:`VARIANTS` the condition under which it is true, on the
figures as displayed (:mod:`attn_math.claims`); the plan shows the first that holds.
"""

from __future__ import annotations

from attn_math.beats import Beat, Figures, variant_beats
from attn_math.claims import Both, Fact, Not, Sole, Variants, decimals_of
from attn_math.fmt import fmt
from attn_math.story import Story
from scenes.sections.s09_reading_rows.derived import shown_range
from scenes.sections.s09_reading_rows.figures import figures

__all__ = ["VARIANTS", "plan"]

#: Every square of the followed row prints alike (one repeated word): none is the largest.
ROW_LEVEL = Fact("every scaled score of the followed row prints alike",
                 lambda s: len({fmt(x) for x in s.S[s.follow]}) == 1)

#: One square alone is the followed row's largest, at the decimals it prints with.
SOLE_WINNER = Sole("the followed row's scaled scores",
                   lambda s: (s.S[s.follow], decimals_of(s.figures_of(figures)["S_follow_winner"].text)))
#: One row alone has the smallest max − min as read off the screen.
SOLE_FLATTEST = Sole("the rows' max − min as read off the screen",
                     lambda s: ([shown_range(s, i) for i in range(s.n)],
                                decimals_of(s.figures_of(figures)["flattest_range"].text)), end="min")

VARIANTS: Variants = {
    "winner": (("winner_level", ROW_LEVEL),
               ("winner", Both(Not(ROW_LEVEL), SOLE_WINNER)),
               ("winner_shared", Not(SOLE_WINNER))),
    "flattest": (("flattest", SOLE_FLATTEST), ("flattest_shared", Not(SOLE_FLATTEST))),
}


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: the figures it shows), in order."""
    return variant_beats(s, figs, VARIANTS, "intro", "walk", "winner", "flattest")
