"""What only section 13 derives from the story: the floor the winner's score is pushed to."""

from __future__ import annotations

import numpy as np

from attn_math.story import Story

__all__ = ["FLOOR_SCORE", "w_floor_widest"]

#: The score the winner is pushed down to (a choice of presentation).
FLOOR_SCORE = -30.0


def w_floor_widest(s: Story) -> float:
    """The widest text the weight readout shows on the way down, a two-digit mantissa at the
    exponent the weight reaches at the floor: the readout is laid out for it."""
    w_floor = s.dragged_weights(FLOOR_SCORE)[s.winner]
    return 9.9 * 10.0 ** int(np.floor(np.log10(w_floor))) if w_floor > 0 else 9.9
