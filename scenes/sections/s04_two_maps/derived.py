"""What only section 4 derives from the story: W_Q blended into W_K, and the scores then."""

from __future__ import annotations

import numpy as np

from attn_math import core
from attn_math.story import Story

__all__ = ["blended_W_Q", "blended_scores"]


def blended_W_Q(s: Story, t: float) -> np.ndarray:
    """W_Q blended a fraction ``t`` of the way into W_K (the matrix chip)."""
    return core.blended_projection(s.head.W_Q, s.head.W_K, t)


def blended_scores(s: Story, t: float, scaled: bool = True) -> np.ndarray:
    """Scores with W_Q blended a fraction ``t`` of the way into W_K."""
    Qt = core.blended_queries(s.X, s.head.W_Q, s.head.W_K, t)
    return core.scaled_scores(Qt, s.K) if scaled else core.raw_scores(Qt, s.K)
