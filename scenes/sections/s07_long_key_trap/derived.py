"""What only section 7 derives from the story: the long key, and the stretch that makes it win.

- **long key**: among function words (determiners, conjunctions) other than the followed
  token and the winner whose score in the followed row is positive, the one whose key needs
  the smallest stretch to overtake the winner; if there is none, the same rule over every
  other token with a positive score; if still none, the other token with the highest score
  (its stretch then never overtakes). The head's ``[roles] long_key`` overrides it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_math import core, lexicon
from attn_math.story import Story

__all__ = ["STRETCH_CAP", "STRETCH_MAX_DEFAULT", "LongKeyTrap", "long_key_trap"]

#: The slider's range, widened to fit a crossing ...
STRETCH_MAX_DEFAULT = 6.0
#: ... but never past this (a longer stretch counts as never overtaking).
STRETCH_CAP = 20.0


@dataclass(frozen=True)
class LongKeyTrap:
    """The long key and its stretch."""

    #: The token whose key is stretched.
    long_key: int
    #: The stretch at which its score overtakes the winner's (``inf`` if it never can).
    stretch_cross: float
    #: Whether it overtakes within the slider (``1 < stretch_cross <= STRETCH_CAP``).
    stretch_overtakes: bool
    #: The slider's end.
    stretch_max: float
    #: The rows whose leader (section 3's pick, first of a tie) becomes the long key once it
    #: is stretched all the way.
    rows_taken: list[int]


def _pick_long_key(s: Story) -> int:
    f, w = s.follow, s.winner
    row = s.R[f]
    others = [j for j in range(s.n) if j not in (f, w)] or [j for j in range(s.n) if j != w]
    for pool in ([j for j in others if s.input_classes[j] in (lexicon.DETERMINER, lexicon.CONJUNCTION)],
                 others):
        pos = [j for j in pool if row[j] > 0]
        if pos:
            return min(pos, key=lambda j: row[w] / row[j])
    return max(others, key=lambda j: row[j])


def _long_key_trap(s: Story) -> LongKeyTrap:
    roles = s.head.roles
    long_key = int(roles["long_key"]) if "long_key" in roles else _pick_long_key(s)
    base = s.R[s.follow, long_key]
    cross = s.R[s.follow, s.winner] / base if base > 0 else float("inf")
    # Past STRETCH_CAP the slider would be absurd: treat it as never overtaking.
    overtakes = bool(np.isfinite(cross) and 1 < cross <= STRETCH_CAP)
    stretch_max = STRETCH_MAX_DEFAULT
    if overtakes:
        stretch_max = max(STRETCH_MAX_DEFAULT, float(np.ceil(cross + 1.0)))
    stretched = s.K.copy()
    stretched[long_key] *= stretch_max
    rows_taken = [i for i in range(s.n)
                  if core.best_key(stretched, s.Q[i]) == long_key != s.row_winners[i]]
    return LongKeyTrap(long_key, cross, overtakes, stretch_max, rows_taken)


def long_key_trap(s: Story) -> LongKeyTrap:
    """The long key of ``s`` and its stretch (computed once per story)."""
    return s.derived(_long_key_trap)
