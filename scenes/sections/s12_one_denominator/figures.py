"""Section 12's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

import numpy as np

from attn_math.fmt import fmt
from attn_math.story import Figure, Story, figure_table
from attn_math.sums import SumPlaces, sum_decimals

__all__ = ["SUM_PLACES", "figures", "places", "summed_rows"]

#: The decimals its parts and its total are shown with, unless the parts as shown would not
#: add up to the total (:func:`attn_math.sums.sum_decimals` coarsens the total then).
SUM_PLACES = SumPlaces(2, 3)


def summed_rows(s: Story) -> list[np.ndarray]:
    """The followed row under ``Σ w`` (the drag ends where it began)."""
    return [s.W[s.follow]]


def places(s: Story) -> SumPlaces:
    """The decimals its parts and its total take for story ``s`` (``s.sum_places`` of this
    section)."""
    return sum_decimals(summed_rows(s), *SUM_PLACES)


def figures(s: Story) -> dict[str, Figure]:
    """One denominator."""
    wr = s.W[s.follow]
    return figure_table(("w_sum", wr.sum(), fmt(wr.sum(), places(s).total)))
