"""What only section 21 derives from the story: the hull token and the row pulled towards it.

- **hull token**: the winner (the head's ``[roles] hull_token`` overrides it); its score is
  pulled up to :data:`HULL_PULL_SCORE`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_math import core
from attn_math.story import Story

__all__ = ["HULL_PULL_SCORE", "Hull", "hull", "pulled_weights"]

#: The slider's end: the hull token's score is pulled up to here.
HULL_PULL_SCORE = 8.0


@dataclass(frozen=True)
class Hull:
    """The hull token and the followed output with its score pulled to the slider's end."""

    hull_token: int
    out_pulled: np.ndarray


def pulled_weights(s: Story, score: float) -> np.ndarray:
    """The followed row's weights with the hull token's score set to ``score``."""
    token = hull(s).hull_token
    return core.softmax(core.row_with_score(s.S[s.follow], token, score))


def _hull(s: Story) -> Hull:
    token = int(s.head.roles.get("hull_token", s.winner))
    row = core.softmax(core.row_with_score(s.S[s.follow], token, HULL_PULL_SCORE))
    return Hull(token, core.mix(row, s.V))


def hull(s: Story) -> Hull:
    """The hull of ``s`` (computed once per story)."""
    return s.derived(_hull)
