"""Section 19's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from attn_math.fmt import fmt
from attn_math.story import Figure, Story, figure_table
from attn_math.sums import SumPlaces, sum_decimals
from scenes.sections.s19_silent_bug.derived import bug_future

__all__ = ["SUM_PLACES", "caption_context", "figures", "places", "summed_rows"]

#: The decimals its parts and its total are shown with, unless the parts as shown would not
#: add up to the total (:func:`attn_math.sums.sum_decimals` coarsens the total then).
SUM_PLACES = SumPlaces(3, 3)


def summed_rows(s: Story) -> list[np.ndarray]:
    """The future's weights under × 0 beside their sum, the leak (under + (−∞) they are exact
    zeros); its weights are small, hence three places."""
    return [s.Wbug[s.bug_row, s.bug_row + 1:]]


def places(s: Story) -> SumPlaces:
    """The decimals its parts and its total take for story ``s`` (``s.sum_places`` of this
    section)."""
    return sum_decimals(summed_rows(s), *SUM_PLACES)


def figures(s: Story) -> dict[str, Figure]:
    """The silent bug, computed by the wrong code path."""
    br = s.bug_row
    leak = float(s.Wbug[br, br + 1:].sum())
    correct = float(s.Wc[br, br + 1:].sum())
    d = places(s).total               # the leak readout's decimals
    return figure_table(("bug_leak", leak, fmt(leak, d)), ("bug_leak_correct", correct, fmt(correct, d)))


def caption_context(s: Story, figs: Mapping[str, Figure], lang: str | None) -> dict[str, str]:  # noqa: ARG001
    """The future the bug row leaks to, listed, and its size."""
    future = bug_future(s)
    return {"bug_future": s.token_names(future, lang), "n_future": str(len(future))}
