"""Section 22's beat plan: the caption each of its slots shows, in order, for a story.

Each variant declares in :data:`VARIANTS` the condition under which it is true, on the
figures as displayed (:mod:`attn_math.claims`); the plan shows the first that holds.

- s22 ``again``: only with a second shuffle (more than two tokens).
"""

from __future__ import annotations

from attn_math.beats import Beat, Figures, fixed, variant_beats
from attn_math.claims import Fact, Not, Variants
from attn_math.story import Story
from scenes.sections.s22_order_does_not_exist.derived import reorderings

__all__ = ["VARIANTS", "plan", "shuffle_reads_alike"]


def shuffle_reads_alike(s: Story) -> bool:
    """Whether the first shuffle reads the same words in the same order (it only swaps
    repeats of one word): then no bar moves at all."""
    words = [t.lower() for t in s.tokens]
    return [words[i] for i in reorderings(s).permutations[0]] == words


SAME_WORDS = Fact("the shuffle reads the same words in the same order", shuffle_reads_alike)

VARIANTS: Variants = {
    "same": (("same_words", SAME_WORDS), ("same", Not(SAME_WORDS))),
}


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: the figures it shows), in order."""
    again = fixed("again") if len(reorderings(s).permutations) > 1 else []
    return (variant_beats(s, figs, VARIANTS, "intro", "same") + again
            + fixed("equivariant", "positional"))
