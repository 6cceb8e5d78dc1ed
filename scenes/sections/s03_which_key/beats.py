"""Section 3's beat plan: the caption each of its slots shows, in order, for a story.

Every comparison is between the numbers as displayed.

- s03 ``shadow``: ``shadow_differs`` when some row's longest shadow is not its winner,
  else ``shadow_agrees``. ``follow``: ``follow_self`` when the followed token wins its
  own row, ``follow_tie`` when the winner's score and its own print alike, else
  ``follow_winner``. ``trained``: ``trained`` for a pronoun whose row a noun wins, else
  ``trained_generic``.
"""

from __future__ import annotations

from attn_math import lexicon
from attn_math.beats import Beat, Figures, fixed
from attn_math.story import Story

__all__ = ["plan"]


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: its own figures), in order."""
    differs = any(s.row_winners[i] != s.shadow_winners[i] for i in range(s.n))
    if s.winner == s.follow:
        follow = "follow_self"
    elif figs["R_follow_winner"].text == figs["R_follow_self"].text:
        follow = "follow_tie"
    else:
        follow = "follow_winner"
    pronoun = s.classes[s.follow] == lexicon.PRONOUN
    noun = s.classes[s.winner] == lexicon.NOUN
    trained = "trained" if pronoun and noun and s.winner != s.follow else "trained_generic"
    return (fixed("keys", "sweep")
            + [Beat("shadow", "shadow_differs" if differs else "shadow_agrees"),
               Beat("follow", follow), Beat("trained", trained)])
