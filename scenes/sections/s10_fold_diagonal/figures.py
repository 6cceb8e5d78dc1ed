"""Section 10's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from attn_math.story import Figure, Story
from scenes.sections.s04_two_maps.figures import figures as two_maps_figures

__all__ = ["figures"]


def figures(s: Story) -> dict[str, Figure]:
    """Fold on the diagonal: the asymmetric pair again."""
    four = two_maps_figures(s)
    return {k: four[k] for k in ("S_asym_fwd", "S_asym_bwd")}
