"""Section 2's beat plan: the caption each of its slots shows, in order, for a story.

Each variant declares in :data:`VARIANTS` the condition under which it is true, on the
figures as displayed (:mod:`attn_math.claims`); the plan shows the first that holds.
"""

from __future__ import annotations

from attn_math.beats import Beat, Figures, variant_beats
from attn_math.claims import Above, Alike, Variants
from attn_math.story import Story

__all__ = ["VARIANTS", "plan"]

VARIANTS: Variants = {
    "verdict": (("sweep_same", Alike("q_sweep_deg", "v_sweep_deg")),
                ("sweep", Above("q_sweep_deg", "v_sweep_deg")),
                ("sweep_other", Above("v_sweep_deg", "q_sweep_deg"))),
}


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: the figures it shows), in order."""
    return variant_beats(s, figs, VARIANTS, "wander", "push", "verdict", "moral")
