"""Section 4's beat plan: the caption each of its slots shows, in order, for a story.

Every comparison is between the numbers as displayed.

- s04 ``two_maps``, s10 ``pair``/``fold``/``why``: the ``*_same`` variants when the
  asymmetric pair's two scores print alike (a sentence of one repeated word).
"""

from __future__ import annotations

from attn_math.beats import Beat, Figures, fixed
from attn_math.story import Story

__all__ = ["plan", "asymmetry_shown"]


def asymmetry_shown(figs: Figures) -> bool:
    """Whether the asymmetric pair's two scaled scores print differently (this section and fold-diagonal)."""
    return figs["S_asym_fwd"].text != figs["S_asym_bwd"].text


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: its own figures), in order."""
    two = "two_maps" if asymmetry_shown(figs) else "two_maps_same"
    return [Beat("two_maps", two)] + fixed("blend", "merged", "why")
