"""Section 11's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from attn_math.fmt import fmt
from attn_math.story import Figure, Story, figure_table
from attn_math.sums import SumPlaces, ratio_decimals, sum_decimals
from scenes.sections.s11_softmax_staircase.derived import staircase

__all__ = ["SUM_PLACES", "caption_context", "figures", "places", "summed_rows"]

#: The decimals its parts and its total are shown with, unless the parts as shown would not
#: add up to the total (:func:`attn_math.sums.sum_decimals` coarsens the total then).
SUM_PLACES = SumPlaces(2, 2)


def summed_rows(s: Story) -> list[np.ndarray]:
    """The ``exp`` stage and the weights under the ``Σ`` readout."""
    return [staircase(s).stages[1], staircase(s).stages[2]]


def places(s: Story) -> SumPlaces:
    """The decimals its parts and its total take for story ``s`` (``s.sum_places`` of this
    section)."""
    return sum_decimals(summed_rows(s), *SUM_PLACES)


def figures(s: Story) -> dict[str, Figure]:
    """The softmax staircase."""
    wr = s.W[s.follow]
    hi, lo = wr[staircase(s).strong], wr[staircase(s).weak]
    bars, total = places(s)
    d = ratio_decimals(hi, lo, places=bars)
    return figure_table(("w_follow_max", hi, fmt(hi, d)), ("w_follow_min", lo, fmt(lo, d)),
                        ("w_ratio", hi / lo, fmt(hi / lo, 1)), ("w_sum", wr.sum(), fmt(wr.sum(), total)))


def caption_context(s: Story, figs: Mapping[str, Figure], lang: str | None) -> dict[str, str]:  # noqa: ARG001
    """The tokens of the strongest and the weakest weight, named."""
    stairs = staircase(s)
    return {"strong": s.token_name(stairs.strong, lang), "weak": s.token_name(stairs.weak, lang)}
