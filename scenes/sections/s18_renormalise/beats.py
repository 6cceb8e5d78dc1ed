"""Section 18's beat plan: the caption each of its slots shows, in order, for a story.

Every comparison is between the numbers as displayed.

- s18 ``follow``: ``follow_first`` when the followed token is the first, ``follow_tie``
  when another candidate's weight prints like the largest (at the decimals this section
  shows, :func:`figures.causal_tied`), else ``follow``.
"""

from __future__ import annotations

from attn_math.beats import Beat, Figures, fixed
from attn_math.story import Story
from scenes.sections.s18_renormalise.figures import causal_tied

__all__ = ["plan"]


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: its own figures), in order."""
    f = s.follow
    if f == 0:
        follow = "follow_first"
    elif len(causal_tied(s)) > 1:
        follow = "follow_tie"
    else:
        follow = "follow"
    return fixed("intro", "first", "walk") + [Beat("follow", follow)]
