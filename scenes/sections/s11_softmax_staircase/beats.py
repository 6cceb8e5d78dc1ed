"""Section 11's beat plan: the caption each of its slots shows, in order, for a story.

Every comparison is between the numbers as displayed.

- s11 ``soft``: ``soft_uniform`` when the largest and smallest weight print alike.
"""

from __future__ import annotations

from attn_math.beats import Beat, Figures, fixed
from attn_math.story import Story

__all__ = ["plan"]


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: its own figures), in order."""
    soft = "soft_uniform" if figs["w_follow_max"].text == figs["w_follow_min"].text else "soft"
    return fixed("scores", "exp", "divide", "stair") + [Beat("soft", soft)]
