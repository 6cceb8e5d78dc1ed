"""Section 23's beat plan: the caption each of its slots shows, in order, for a story."""

from __future__ import annotations

from attn_math.beats import Beat, Figures, fixed
from attn_math.story import Story

__all__ = ["plan"]


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: its own figures), in order."""
    return fixed("pairs", "memory", "slide", "gpt2", "long", "flash")
