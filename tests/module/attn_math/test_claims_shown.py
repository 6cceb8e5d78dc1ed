"""One rule for "equal as shown" (:func:`attn_math.claims.extremes_as_shown`): checked against
rounding done here with :mod:`decimal`, half away from zero on each value's shortest repr."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from hypothesis import given
from hypothesis import strategies as st

from attn_math.claims import as_shown, extremes_as_shown, sole_extreme

VALUES = st.lists(st.floats(-50, 50, allow_nan=False, allow_subnormal=False), min_size=1, max_size=12)
PLACES = st.integers(0, 4)


def _printed(x: float, places: int) -> Decimal:
    return Decimal(repr(x)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


@given(VALUES, PLACES, st.sampled_from(["max", "min"]))
def test_extremes_are_the_values_printed_like_the_extreme(values, places, end):
    printed = [_printed(v, places) for v in values]
    best = max(printed) if end == "max" else min(printed)
    assert extremes_as_shown(values, places, end) == [i for i, p in enumerate(printed) if p == best]
    assert sole_extreme(values, places, end) == (printed.count(best) == 1)


@given(VALUES, PLACES)
def test_as_shown_is_what_a_viewer_reads(values, places):
    assert as_shown(values, places) == [float(_printed(v, places)) for v in values]


def test_a_tie_at_the_shown_precision_is_a_tie():
    # 0.125 and 0.1249 both print 0.12 (0.125 rounds half away from zero to 0.13: not a tie)
    assert extremes_as_shown([0.1249, 0.12, 0.05], 2) == [0, 1]
    assert extremes_as_shown([0.125, 0.1249, 0.05], 2) == [0]
    assert extremes_as_shown([0.1249, 0.12, 0.05], 3) == [0]
