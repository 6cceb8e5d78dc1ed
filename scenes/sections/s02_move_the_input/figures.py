"""Section 2's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from attn_math import core
from attn_math.fmt import fmt
from attn_math.story import Figure, Story, figure_table
from scenes.sections.s02_move_the_input.derived import push_path

__all__ = ["figures"]


def figures(s: Story) -> dict[str, Figure]:
    """Move the input: push the followed input straight up."""
    path = push_path(s)
    q_sweep = core.swept_angle_deg(path @ s.head.W_Q)
    v_sweep = core.swept_angle_deg(path @ s.head.W_V)
    ratio = q_sweep / max(v_sweep, 1e-9)
    return figure_table(("q_sweep_deg", q_sweep, fmt(q_sweep, 0)),
                        ("v_sweep_deg", v_sweep, fmt(v_sweep, 0)),
                        ("sweep_ratio", ratio, fmt(ratio, 0)))
