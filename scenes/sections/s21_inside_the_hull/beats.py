"""Section 21's beat plan: the caption each of its slots shows, in order, for a story.

Every comparison is between the numbers as displayed.

- s21 ``pull``: ``pull`` when the hull token's value is a corner of the hull, else
  ``pull_inner``; ``halt``: ``halt_rounded`` when the weight prints as 1.000,
  ``halt_same`` when the output prints like the value, else ``halt``.
"""

from __future__ import annotations

import numpy as np

from attn_math import core
from attn_math.beats import Beat, Figures, fixed
from attn_math.fmt import fmt
from attn_math.story import Story

__all__ = ["plan", "hull_token_is_corner"]


def hull_token_is_corner(s: Story) -> bool:
    """Whether the hull token's value is a corner of the values' hull."""
    H = core.convex_hull(s.V)
    return bool(np.any(np.linalg.norm(H - s.V[s.hull_token], axis=1) <= 1e-9))


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: its own figures), in order."""
    if figs["w_hull_pulled"].text == fmt(1.0, 3):
        halt = "halt_rounded"
    else:
        halt = "halt" if s.hull_gap_visible else "halt_same"
    pull = "pull" if hull_token_is_corner(s) else "pull_inner"
    return fixed("convex") + [Beat("pull", pull), Beat("halt", halt)] + fixed("average", "mlp")
