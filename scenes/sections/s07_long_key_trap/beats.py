"""Section 7's beat plan: the caption each of its slots shows, in order, for a story.

Every comparison is between the numbers as displayed.

- s07: ``rising`` + ``overtakes`` when the stretched key overtakes, else
  ``never_overtakes``.
"""

from __future__ import annotations

from attn_math.beats import Beat, Figures, fixed
from attn_math.story import Story

__all__ = ["plan"]


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: its own figures), in order."""
    stretch = fixed("rising", "overtakes") if s.stretch_overtakes else fixed("never_overtakes")
    return fixed("intro") + stretch + fixed("every_row", "remedies")
