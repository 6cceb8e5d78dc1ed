"""Section 18's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from attn_math.fmt import fmt
from attn_math.story import Figure, Story, figure_table
from attn_math.sums import SumPlaces, sum_decimals

__all__ = ["SUM_PLACES", "caption_context", "causal_tied", "figures", "places", "summed_rows"]

#: The decimals its parts and its total are shown with, unless the parts as shown would not
#: add up to the total (:func:`attn_math.sums.sum_decimals` coarsens the total then).
SUM_PLACES = SumPlaces(2, 2)


def summed_rows(s: Story) -> list[np.ndarray]:
    """The causal rows the walk settles on: the first position, the last, the followed token."""
    return [s.Wc[i, :i + 1] for i in sorted({0, s.n - 1, s.follow})]


def places(s: Story) -> SumPlaces:
    """The decimals its parts and its total take for story ``s`` (``s.sum_places`` of this
    section)."""
    return sum_decimals(summed_rows(s), *SUM_PLACES)


def causal_tied(s: Story) -> list[int]:
    """The followed row's causal candidates whose weight prints like the largest here (the
    silent-bug section may show the same row to more decimals and tell them apart: a tie is
    a claim about what this section's screen shows)."""
    return s.tied_at(places(s).parts)


def caption_context(s: Story, figs: Mapping[str, Figure], lang: str | None) -> dict[str, str]:
    """``{causal_tied}``: the tokens tied for the largest weight, as a caption lists them."""
    return {"causal_tied": s.token_names(causal_tied(s), lang)}


def figures(s: Story) -> dict[str, Figure]:
    """Renormalise."""
    f, cw = s.follow, s.causal_winner
    d = places(s).parts               # the bars' decimals
    return figure_table(("wc_first", s.Wc[0, 0], fmt(s.Wc[0, 0], d)),
                        ("wc_follow_winner", s.Wc[f, cw], fmt(s.Wc[f, cw], d)),
                        ("follow_candidates", f + 1, str(f + 1)))
