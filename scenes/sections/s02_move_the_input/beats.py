"""Section 2's beat plan: the caption each of its slots shows, in order, for a story.

Every comparison is between the numbers as displayed.

- s02 ``verdict``: ``sweep`` when the query turned further than the value,
  ``sweep_same`` when both angles print alike, else ``sweep_other``.
"""

from __future__ import annotations

from attn_math.beats import Beat, Figures, fixed
from attn_math.story import Story

__all__ = ["plan"]


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: its own figures), in order."""
    q, v = figs["q_sweep_deg"].text, figs["v_sweep_deg"].text
    if q == v:
        verdict = "sweep_same"
    elif figs["q_sweep_deg"].value > figs["v_sweep_deg"].value:
        verdict = "sweep"
    else:
        verdict = "sweep_other"
    return fixed("wander", "push") + [Beat("verdict", verdict)] + fixed("moral")
