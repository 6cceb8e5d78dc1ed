"""Section 22's beat plan: the caption each of its slots shows, in order, for a story.

Every comparison is between the numbers as displayed.

- s22 ``again``: only with a second shuffle (more than two tokens).
"""

from __future__ import annotations

from attn_math.beats import Beat, Figures, fixed
from attn_math.story import Story

__all__ = ["plan"]


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: its own figures), in order."""
    again = fixed("again") if len(s.permutations) > 1 else []
    return fixed("intro", "same") + again + fixed("equivariant", "positional")
