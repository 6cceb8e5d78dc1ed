"""Section 5's beat plan: the caption each of its slots shows, in order, for a story.

Each variant declares in :data:`VARIANTS` the condition under which it is true, on the
figures as displayed (:mod:`attn_math.claims`); the plan shows the first that holds.
"""

from __future__ import annotations

from attn_math.beats import Beat, Figures, variant_beats
from attn_math.claims import ALWAYS, Fact, Variants, shown_value
from attn_math.fmt import fmt
from attn_math.story import Story
from scenes.sections.s05_dot_product_shadow.figures import figures

__all__ = ["VARIANTS", "plan"]


def shown_product_agrees(s: Story) -> bool:
    """The recap's arithmetic: the shadow and the key length as shown multiply to the score
    as shown (each is rounded on its own, so they need not)."""
    a, b, c = (s.figures_of(figures)[k].text for k in ("shadow_len", "key_len", "shadow_score"))
    return fmt(shown_value(a) * shown_value(b), len(c.partition(".")[2])) == c


VARIANTS: Variants = {
    "recap": (("recap", Fact("shadow × key length as shown gives the score as shown",
                             shown_product_agrees)),
              ("recap_rounded", ALWAYS)),
}


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: the figures it shows), in order."""
    return variant_beats(s, figs, VARIANTS, "arithmetic", "shadow", "sweep", "zero", "negative", "recap")
