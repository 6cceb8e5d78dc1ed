"""Section 25's beat plan: the caption each of its slots shows, in order, for a story.

Every comparison is between the numbers as displayed.

- s25 ``row``: ``row_same`` when the weight prints alike with and without the mask.
"""

from __future__ import annotations

from attn_math.beats import Beat, Figures, fixed
from attn_math.story import Story

__all__ = ["plan"]


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: its own figures), in order."""
    same = figs["wc_follow_winner"].text == figs["w_follow_cwinner"].text
    return fixed("intro", "lift") + [Beat("row", "row_same" if same else "row")] + fixed("bugs")
