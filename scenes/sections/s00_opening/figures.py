"""The opening card's figures: none of its own; its caption counts the sections."""

from __future__ import annotations

from collections.abc import Mapping

from attn_math.story import Figure, Story

__all__ = ["caption_context", "figures"]


def figures(s: Story) -> dict[str, Figure]:  # noqa: ARG001 - a card shows no figures
    """None: the card shows the sentence, not numbers."""
    return {}


def caption_context(s: Story, figs: Mapping[str, Figure], lang: str | None) -> dict[str, str]:  # noqa: ARG001
    """``{sections}``: how many sections the video walks through, those that can render here
    (in the story, not the scene, so the narration's lines are known before the card
    renders)."""
    from scenes.registry import available

    return {"sections": str(len(available()))}
