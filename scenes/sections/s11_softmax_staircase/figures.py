"""Section 11's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

import numpy as np

from attn_math.fmt import fmt
from attn_math.story import Figure, Story, figure_table
from attn_math.sums import SumPlaces, ratio_decimals, sum_decimals

__all__ = ["SUM_PLACES", "figures", "places", "summed_rows"]

#: The decimals its parts and its total are shown with, unless the parts as shown would not
#: add up to the total (:func:`attn_math.sums.sum_decimals` coarsens the total then).
SUM_PLACES = SumPlaces(2, 2)


def summed_rows(s: Story) -> list[np.ndarray]:
    """The ``exp`` stage and the weights under the ``Σ`` readout."""
    return [s.staircase[1], s.staircase[2]]


def places(s: Story) -> SumPlaces:
    """The decimals its parts and its total take for story ``s`` (``s.sum_places`` of this
    section)."""
    return sum_decimals(summed_rows(s), *SUM_PLACES)


def figures(s: Story) -> dict[str, Figure]:
    """The softmax staircase."""
    wr = s.W[s.follow]
    hi, lo = wr[s.strong], wr[s.weak]
    bars, total = places(s)
    d = ratio_decimals(hi, lo, places=bars)
    return figure_table(("w_follow_max", hi, fmt(hi, d)), ("w_follow_min", lo, fmt(lo, d)),
                        ("w_ratio", hi / lo, fmt(hi / lo, 1)), ("w_sum", wr.sum(), fmt(wr.sum(), total)))
