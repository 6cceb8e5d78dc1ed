"""attn_math.fmt: how every number is written (fixed decimals, half away from zero, U+2212)."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_math.fmt import MINUS, fmt, fmt_bytes, fmt_int, fmt_ratio, fmt_sci, fmt_vec

HYPHEN = "-"


def plain(s: str) -> str:
    """The string Python's float() can read back."""
    return s.replace(MINUS, "-").replace(",", "")


def test_minus_is_u2212():
    assert MINUS == "\u2212"
    assert fmt(-1.0) == "\u22121.00"


# ---------------------------------------------------------------- fmt


@pytest.mark.parametrize(
    ("x", "decimals", "text"),
    [
        (0.125, 2, "0.13"),        # exact binary half: away from zero, not to even
        (-0.125, 2, "−0.13"),
        (2.675, 2, "2.68"),        # stored as 2.67499999...; rounds as it reads
        (-2.675, 2, "−2.68"),
        (0.375, 2, "0.38"),
        (1.005, 2, "1.01"),        # stored as 1.00499999...
        (-0.001, 2, "0.00"),       # no negative zero
        (-0.0049999, 2, "0.00"),
        (-0.005, 2, "−0.01"),
        (-0.0, 2, "0.00"),
        (0.0, 2, "0.00"),
        (-0.3188, 2, "−0.32"),
        (1.7202336, 2, "1.72"),
        (0.5, 0, "1"),
        (-0.5, 0, "−1"),
        (-0.4, 0, "0"),
        (2.5, 0, "3"),
        (0.0915, 3, "0.092"),
        (0.9999529, 3, "1.000"),
        (112.019, 0, "112"),
        (np.float64(-0.3188), 2, "−0.32"),
    ],
)
def test_fmt_cases(x, decimals, text):
    assert fmt(x, decimals) == text


def test_fmt_default_is_two_decimals():
    assert fmt(1.0) == "1.00"
    assert fmt(-12.3456) == "−12.35"


def test_fmt_thousands_and_sign():
    assert fmt(1234567.891, 1, thousands=True) == "1,234,567.9"
    assert fmt(-1234.5, 0, thousands=True) == "−1,235"
    assert fmt(999.995, 2, thousands=True) == "1,000.00"
    assert fmt(0.5, 2, sign=True) == "+0.50"
    assert fmt(-0.5, 2, sign=True) == "−0.50"
    # A rounded zero is unsigned, sign or no sign (the module note of attn_math.fmt).
    assert fmt(-0.001, 2, sign=True) == "0.00"
    assert fmt(0.001, 2, sign=True) == "0.00"


def _reference_round(x: float, decimals: int) -> Decimal:
    """Round half away from zero on the shortest decimal reading of ``x`` (written out here)."""
    d = Decimal(repr(float(x)))
    step = Decimal(1).scaleb(-decimals)
    return d.quantize(step, rounding=ROUND_HALF_UP)


finite = st.floats(min_value=-1e9, max_value=1e9, allow_nan=False, allow_infinity=False)


@settings(max_examples=300, deadline=None)
@given(finite, st.integers(min_value=0, max_value=4))
def test_fmt_property(x, decimals):
    s = fmt(x, decimals)
    assert HYPHEN not in s
    # fixed number of decimals
    if decimals:
        assert re.fullmatch(rf"{MINUS}?\d+\.\d{{{decimals}}}", s), s
    else:
        assert re.fullmatch(rf"{MINUS}?\d+", s), s
    value = Decimal(s.replace(MINUS, "-"))
    # never a negative zero; a minus exactly when the rounded value is negative
    assert s.startswith(MINUS) == (value < 0)
    assert value == _reference_round(x, decimals)
    # within half a unit of the last place of x
    assert abs(float(value) - x) <= 0.5 * 10.0 ** -decimals * (1 + 1e-9) + abs(x) * 1e-15


@settings(max_examples=200, deadline=None)
@given(st.floats(min_value=1e-12, max_value=1e6, allow_nan=False))
def test_fmt_is_odd(x):
    """Half away from zero treats both signs alike (except that zero stays unsigned)."""
    pos, neg = fmt(x, 2), fmt(-x, 2)
    if pos == "0.00":
        assert neg == "0.00"
    else:
        assert neg == MINUS + pos


# ---------------------------------------------------------------- fmt_sci


@pytest.mark.parametrize(
    ("x", "digits", "text"),
    [
        (1.1882649225933208e-14, 1, "1.2e−14"),
        (9.96e-15, 1, "1.0e−14"),  # the mantissa rounds up to 10: carry into the exponent
        (9.94e-15, 1, "9.9e−15"),
        (-9.96e-15, 1, "−1.0e−14"),
        (1.25e-14, 1, "1.3e−14"),  # half away from zero in the mantissa too
        (-3.4e-5, 1, "−3.4e−5"),
        (12345.0, 1, "1.2e4"),
        (12345.0, 2, "1.23e4"),
        (0.999, 1, "1.0e0"),
        (0.95, 1, "9.5e−1"),
        (1.0, 1, "1.0e0"),
        (1e-300, 1, "1.0e−300"),
        (0.0, 1, "0.0e0"),
    ],
)
def test_fmt_sci_cases(x, digits, text):
    assert fmt_sci(x, digits) == text


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=1e-300, max_value=1e300), st.booleans())
def test_fmt_sci_property(x, negative):
    x = -x if negative else x
    s = fmt_sci(x, 1)
    assert HYPHEN not in s
    m = re.fullmatch(rf"({MINUS}?)(\d)\.(\d)e({MINUS}?\d+)", s)
    assert m, s
    assert (m.group(1) == MINUS) == negative
    mant = int(m.group(2)) + int(m.group(3)) / 10
    assert 1.0 <= mant < 10.0  # normalised: never "10.0e..." nor "0.9e..."
    exp = int(m.group(4).replace(MINUS, "-"))
    back = mant * 10.0**exp
    # one significant decimal: within 5% (plus rounding) of |x|
    assert abs(back - abs(x)) <= 0.0501 * abs(back)


# ---------------------------------------------------------------- fmt_vec, fmt_int, fmt_ratio, fmt_bytes


def test_fmt_vec():
    assert fmt_vec([0.8199990323600659, 0.8099978050199256]) == "[0.82, 0.81]"
    assert fmt_vec(np.array([1.2150974389211877, 0.9350941904669959])) == "[1.22, 0.94]"
    assert fmt_vec([-0.001, -0.125]) == "[0.00, −0.13]"
    assert fmt_vec([1.23456, -2.0], 3) == "[1.235, −2.000]"


@pytest.mark.parametrize(
    ("n", "text"),
    [(0, "0"), (7, "7"), (999, "999"), (1000, "1,000"), (1536, "1,536"), (-1536, "−1,536"),
     (1_000_000, "1,000,000"), (np.int64(131072), "131,072")],
)
def test_fmt_int(n, text):
    assert fmt_int(n) == text


@pytest.mark.parametrize(
    ("x", "text"),
    [(170.66666666666666, "171x"), (8.925, "9x"), (0.4, "0x"), (0.5, "1x"), (1536.5, "1,537x"),
     (2.0, "2x")],
)
def test_fmt_ratio(x, text):
    assert fmt_ratio(x) == text


@pytest.mark.parametrize(
    ("n", "decimals", "text"),
    [
        (0, 1, "0.0 B"),
        (512, 1, "512.0 B"),
        (1024, 1, "1.0 KiB"),
        (1536, 1, "1.5 KiB"),
        (2 * 1024**2, 1, "2.0 MiB"),           # F27
        (288 * 1024**2, 0, "288 MiB"),         # F28
        (32 * 1024**3, 1, "32.0 GiB"),         # F29
        (192 * 1024**2, 1, "192.0 MiB"),       # F29
        (1023 * 1024**2, 1, "1,023.0 MiB"),
        # just under a unit boundary: rounds to 1024 of the smaller unit, so it is shown
        # in the next unit instead of as "1,024.0 KiB"
        (1024**2 - 1, 1, "1.0 MiB"),
        (1024**3 - 10, 0, "1 GiB"),
        (1024**6, 1, "1,024.0 PiB"),           # no unit above PiB
    ],
)
def test_fmt_bytes(n, decimals, text):
    assert fmt_bytes(n, decimals) == text


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2**60))
def test_fmt_bytes_property(n):
    s = fmt_bytes(n, 1)
    m = re.fullmatch(r"([\d,]+\.\d) (B|KiB|MiB|GiB|TiB|PiB)", s)
    assert m, s
    x = float(m.group(1).replace(",", ""))
    assert x < 1024 or m.group(2) == "PiB"  # never "1,024.0 KiB"
    scale = 1024 ** ["B", "KiB", "MiB", "GiB", "TiB", "PiB"].index(m.group(2))
    assert abs(x * scale - n) <= 0.05 * scale * (1 + 1e-9)


# ---------------------------------------------------------------- the options live numbers use


@pytest.mark.parametrize(
    ("value", "decimals", "expected"),
    [
        (-3.02, 2, "\u22123.02"),
        (0.125, 2, "0.13"),
        (-0.125, 2, "\u22120.13"),
        (2.675, 2, "2.68"),  # binary 2.67499999...; repr is "2.675"
        (1.005, 2, "1.01"),
        (0.5, 0, "1"),
        (-0.5, 0, "\u22121"),
        (2.5, 0, "3"),  # not banker's rounding
        (np.float64(2.675), 2, "2.68"),  # numpy 2 repr is "np.float64(2.675)"
        (np.float32(0.5), 1, "0.5"),
        (7, 2, "7.00"),
        (np.int64(-7), 1, "\u22127.0"),
        (1e22, 1, "10000000000000000000000.0"),  # beyond the default Decimal precision
    ],
)
def test_format_rounding_and_minus(value, decimals, expected):
    assert fmt(value, decimals) == expected


@pytest.mark.parametrize("value", [-0.0, -0.001, -0.00499, 0.004, -1e-300])
def test_no_negative_zero(value):
    s = fmt(value, 2)
    assert s == "0.00"
    assert fmt(value, 2, sign=True) == "0.00"


def test_show_sign_and_hyphen_never_used():
    assert fmt(1.5, 1, sign=True) == "+1.5"
    assert fmt(-1.5, 1, sign=True) == "\u22121.5"
    assert "-" not in fmt(-12345.678, 3, thousands=True)


@pytest.mark.parametrize(
    ("value", "kwargs", "expected"),
    [
        (1.2e-14, dict(sci=True, sci_decimals=1), "1.2e\u221214"),
        (-3.45e-9, dict(sci=True, sci_decimals=1), "\u22123.5e\u22129"),  # 3.45 half-up -> 3.5
        (9.96e-5, dict(sci=True, sci_decimals=1), "1.0e\u22124"),  # mantissa carries to 10
        (12345.0, dict(sci=True, sci_decimals=2), "1.23e4"),
        (0.0, dict(sci=True, sci_decimals=1), "0.0e0"),
        (1e-5, dict(sci="auto", sci_decimals=1), "1.0e\u22125"),
        (0.5, dict(sci="auto", sci_decimals=1), "0.50"),
        (0.0, dict(sci="auto"), "0.00"),
        (2e6, dict(sci="auto", sci_decimals=0), "2e6"),
    ],
)
def test_format_sci(value, kwargs, expected):
    assert fmt(value, 2, **kwargs) == expected


@pytest.mark.parametrize(
    ("value", "decimals", "expected"),
    [
        (1536, 0, "1,536"),
        (-1536.0, 0, "\u22121,536"),
        (1234567.891, 2, "1,234,567.89"),
        (999.995, 2, "1,000.00"),
        (12.5, 1, "12.5"),
    ],
)
def test_format_thousands(value, decimals, expected):
    assert fmt(value, decimals, thousands=True) == expected


wide = st.floats(min_value=-1e12, max_value=1e12, allow_nan=False, allow_infinity=False)


@settings(max_examples=200, deadline=None)
@given(wide, st.integers(min_value=0, max_value=6))
def test_fmt_property_wide(x, d):
    s = fmt(x, d)
    assert "-" not in s
    back = Decimal(plain(s))
    # fixed decimals, value within half a unit of the last place (of the repr value)
    assert len(s.partition(".")[2]) == d
    assert abs(back - Decimal(repr(x))) <= Decimal(1).scaleb(-d) / 2
    if back == 0:
        assert not s.startswith(MINUS)
    else:
        assert s.startswith(MINUS) == (x < 0)


@settings(max_examples=100, deadline=None)
@given(wide.filter(lambda v: v != 0), st.integers(min_value=0, max_value=4))
def test_sci_property(x, d):
    s = fmt(x, 2, sci=True, sci_decimals=d)
    mant, _, exp = plain(s).partition("e")
    assert 1 <= abs(Decimal(mant)) < 10
    # in Decimal: 10.0 ** -324 would underflow for the smallest subnormals
    exact = Decimal(repr(x))
    assert abs(Decimal(mant).scaleb(int(exp)) - exact) <= Decimal(5).scaleb(int(exp) - d - 1)
