"""What only section 2 derives from the story: the path of the pushed input."""

from __future__ import annotations

import numpy as np

from attn_math.story import Story

__all__ = ["PUSH_UP_DISTANCE", "push_path"]

#: How far the followed input is pushed straight up (a choice of presentation).
PUSH_UP_DISTANCE = 2.0


def push_path(s: Story, steps: int = 121) -> np.ndarray:
    """The followed input pushed straight up by :data:`PUSH_UP_DISTANCE`, ``(steps, 2)``."""
    t = np.linspace(0.0, PUSH_UP_DISTANCE, steps)
    return s.X[s.follow] + np.outer(t, [0.0, 1.0])
