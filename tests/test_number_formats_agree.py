"""The live number widget and attn_math.fmt must print every number identically:
captions (fmt) and on-screen readouts (LiveNumber) show the same figure side by side."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from attn_math.fmt import fmt, fmt_sci
from scenes.widgets.live_number import format_number

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)


@settings(max_examples=300, deadline=None)
@given(finite, st.integers(min_value=0, max_value=4))
def test_fixed_decimals_agree(x, d):
    assert format_number(x, d) == fmt(x, d)


@settings(max_examples=300, deadline=None)
@given(finite, st.integers(min_value=0, max_value=3))
def test_thousands_agree(x, d):
    assert format_number(x, d, thousands=True) == fmt(x, d, thousands=True)


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=1e-300, max_value=1e-3), st.integers(min_value=1, max_value=2))
def test_scientific_agrees(x, d):
    assert format_number(x, sci=True, sci_decimals=d) == fmt_sci(x, d)


def test_edge_cases_agree():
    for x, d in [(0.125, 2), (-0.125, 2), (2.675, 2), (-0.001, 2), (0.0, 2), (-0.0, 3), (1.0005, 3)]:
        assert format_number(x, d) == fmt(x, d), (x, d)
    assert format_number(9.96e-15, sci=True, sci_decimals=1) == fmt_sci(9.96e-15, 1) == "1.0e−14"
