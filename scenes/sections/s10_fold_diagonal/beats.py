"""Section 10's beat plan: the caption each of its slots shows, in order, for a story.

Every comparison is between the numbers as displayed.

- s04 ``two_maps``, s10 ``pair``/``fold``/``why``: the ``*_same`` variants when the
  asymmetric pair's two scores print alike (a sentence of one repeated word).
"""

from __future__ import annotations

from attn_math.beats import Beat, Figures, fixed
from attn_math.story import Story
from scenes.sections.s04_two_maps.beats import asymmetry_shown

__all__ = ["plan"]


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: its own figures), in order."""
    if asymmetry_shown(figs):
        return fixed("intro", "pair", "fold", "why")
    return fixed("intro") + [Beat("pair", "pair_same"), Beat("fold", "fold_same"), Beat("why", "why_same")]
