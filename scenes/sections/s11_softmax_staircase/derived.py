"""What only section 11 derives from the story: the followed row's three stages, its
strongest and weakest weight."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_math import core
from attn_math.story import Story

__all__ = ["Staircase", "staircase"]


@dataclass(frozen=True)
class Staircase:
    """The followed row's softmax, stage by stage."""

    #: ``(3, n)``: scaled scores, their ``exp``, the weights
    #: (:func:`attn_math.core.softmax_stages`).
    stages: np.ndarray
    #: The sum of each stage (the ``Σ`` readout).
    sums: np.ndarray
    #: The token of the strongest and of the weakest weight (first of a tie).
    strong: int
    weak: int


def _staircase(s: Story) -> Staircase:
    stages = core.softmax_stages(s.S[s.follow])
    row = s.W[s.follow]
    return Staircase(stages, stages.sum(axis=1), int(np.argmax(row)), int(np.argmin(row)))


def staircase(s: Story) -> Staircase:
    """The staircase of ``s`` (computed once per story)."""
    return s.derived(_staircase)
