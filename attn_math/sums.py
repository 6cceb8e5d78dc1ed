"""Numbers shown together must agree as shown: a ratio beside its two terms, a total beside
its parts.

Every number on screen is rounded right on its own, yet two rounded numbers need not
divide or add up, as shown, to the rounded result beside them ("0.13 / 0.04 ≈ 2.9";
"0.040 + 0.040" under "Σ = 0.079"). These choose the decimals that make them agree, or
say that they cannot (the "parts rounded" note).
"""

from __future__ import annotations

from decimal import Decimal
from typing import NamedTuple

import numpy as np

from .fmt import fmt, round_half_away

__all__ = ["MAX_RATIO_DECIMALS", "SumPlaces", "parts_add_up", "ratio_decimals", "sum_decimals"]


#: The most decimals :func:`ratio_decimals` gives two weights.
MAX_RATIO_DECIMALS = 4


def ratio_decimals(hi: float, lo: float, ratio_places: int = 1, places: int = 2) -> int:
    """Decimals for two weights shown beside their ratio ``hi / lo`` (itself shown with
    ``ratio_places`` decimals).

    ``places`` (two) decimals, unless dividing the two numbers as shown gives another ratio
    than the true one: "0.13 / 0.04 ≈ 2.9" is false arithmetic on screen (0.13 / 0.04 = 3.25)
    though both weights are rounded right, so small weights get decimals until the shown
    quotient agrees ("0.125 / 0.043 ≈ 2.9").
    """
    want = fmt(hi / lo, ratio_places)
    for d in range(places, MAX_RATIO_DECIMALS + 1):
        shown_lo = float(fmt(lo, d))
        if shown_lo and fmt(float(fmt(hi, d)) / shown_lo, ratio_places) == want:
            return d
    return MAX_RATIO_DECIMALS


class SumPlaces(NamedTuple):
    """Decimals of parts shown beside their total, and of the total."""

    parts: int
    total: int


def parts_add_up(parts: np.ndarray, places: int, total_places: int,
                 total: float | None = None) -> bool:
    """Whether ``parts`` shown at ``places`` decimals add up, digit for digit, to their total
    shown at ``total_places`` ("0.040 + 0.040" beside "Σ = 0.079" does not).

    ``total`` is the value the total's readout shows (default: the sum of ``parts``); a live
    readout passes its own, so the answer is about the numbers on screen. Where they do not
    add up, sections 11, 12 and 18 say so over the total
    (:class:`scenes.widgets.readouts.TotalReadout`: "parts rounded").
    """
    shown = sum((round_half_away(float(p), places) for p in parts), Decimal(0))
    total = float(np.sum(parts)) if total is None else float(total)
    return shown == round_half_away(total, total_places)


def sum_decimals(rows: list[np.ndarray], places: int = 2,
                 total_places: int | None = None) -> SumPlaces:
    """Decimals for a total shown beside its parts (every row of ``rows`` one row of parts,
    all shown alike) at which the parts as shown add up to the total as shown, in every row.

    Each number is rounded right, yet the rounded parts need not add up to the rounded
    total: two weights of 0.03954 show 0.040 and 0.040 under "Σ = 0.079". The parts keep
    ``places`` (the precision the storyboard gives them); the total takes ``total_places``
    (default ``places``) or the first fewer decimals, down to one, at which the parts add up
    to it (a sum of parts rounded to a place is known to fewer places than each part:
    "Σ = 0.08"). If none agrees, ``(places, total_places)``: adding decimals to every part
    would crowd the bars and leave the storyboard's precision (many weights that sum to
    exactly 1 need five or more), and rounding the parts to add up (largest remainder) would
    show some of them wrong, so every number keeps its nearest rounding and the total's
    readout says the parts are rounded wherever they do not add up (:func:`parts_add_up`).
    """
    total_places = places if total_places is None else total_places
    for t in range(total_places, 0, -1):
        if all(parts_add_up(row, places, t) for row in rows):
            return SumPlaces(places, t)
    return SumPlaces(places, total_places)
