"""Section 20's beat plan: the caption each of its slots shows, in order, for a story.

Every comparison is between the numbers as displayed.

- s20 ``step``: ``never_back`` when the values lie on one side of a line through the
  origin, else ``never_flipped``.
"""

from __future__ import annotations

import numpy as np

from attn_math import core
from attn_math.beats import Beat, Figures, fixed
from attn_math.story import Story

__all__ = ["plan", "values_on_one_side"]


def values_on_one_side(s: Story) -> bool:
    """Whether the values lie on one side of a line through the origin."""
    return not core.in_convex_hull(np.zeros(2), s.V)


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: its own figures), in order."""
    step = "never_back" if values_on_one_side(s) else "never_flipped"
    return fixed("values", "chain") + [Beat("step", step)] + fixed("output")
