"""What only section 3 derives from the story: each query's pick by shadow length."""

from __future__ import annotations

from attn_math import core
from attn_math.story import Story

__all__ = ["shadow_winners"]


def _shadow_winners(s: Story) -> list[int]:
    return [core.longest_shadow_key(s.K, q) for q in s.Q]


def shadow_winners(s: Story) -> list[int]:
    """Each query's key with the longest shadow on it (its pick by score is
    ``s.row_winners``)."""
    return s.derived(_shadow_winners)
