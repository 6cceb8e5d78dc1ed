"""Section 13's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

import numpy as np

from attn_math.fmt import fmt, fmt_sci
from attn_math.story import Figure, Story, figure_table
from scenes.sections.s13_never_zero.derived import FLOOR_SCORE

__all__ = ["figures"]


def figures(s: Story) -> dict[str, Figure]:
    """Never zero: the winner's score lowered to the floor, then to −∞."""
    w = s.winner
    w_floor = s.dragged_weights(FLOOR_SCORE)[w]
    w_inf = s.dragged_weights(-np.inf)[w]
    return figure_table(("floor_score", FLOOR_SCORE, fmt(FLOOR_SCORE, 0)),
                        ("w_floor", w_floor, fmt_sci(w_floor, 1)),
                        ("w_minus_inf", w_inf, "0" if w_inf == 0 else fmt_sci(w_inf, 1)))
