"""What only section 19 derives from the story: the future the bug row should not see."""

from __future__ import annotations

from attn_math.story import Story

__all__ = ["bug_future"]


def bug_future(s: Story) -> list[int]:
    """The tokens after the bug row (the ones its buggy weights leak to)."""
    return list(range(s.bug_row + 1, s.n))
