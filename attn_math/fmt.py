"""How numbers are written on screen and in captions.

One formatter for every figure, so a caption and the label beside it can never
disagree: fixed decimals, round half away from zero, a true minus sign (U+2212),
and never a signed zero. :func:`fmt` is the only place digits are produced; the
on-screen :class:`scenes.widgets.live_number.LiveNumber` takes its text from it.

Signed zero, settled once here: a value that *rounds* to zero prints ``0.00``,
with neither ``−`` nor ``+``, even when a sign is asked for. The sign of a
printed number says on which side of zero the printed digits lie; ``−0.00`` and
``+0.00`` both claim a side the digits do not show, and a number sweeping
through zero on screen would otherwise flash a sign at the crossing.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Context, Decimal, localcontext
from numbers import Integral
from typing import Any, Literal

MINUS = "\u2212"
INFINITY = "\u221e"

#: Binary units, as the storyboard writes them.
BYTE_UNITS = ("B", "KiB", "MiB", "GiB", "TiB", "PiB")


def to_decimal(x: Any) -> Decimal:
    """The Decimal whose digits are ``x``'s shortest repr (integers exactly).

    ``repr`` gives the shortest string that round-trips the float, so ``2.675``
    (stored as 2.67499...) becomes ``Decimal("2.675")`` and rounds to 2.68 as it
    reads, which is what a reader of the digits expects.
    """
    if isinstance(x, Decimal):
        return x
    if isinstance(x, Integral):  # int, bool, numpy integers
        return Decimal(int(x))
    # float() first: numpy scalars' repr is "np.float64(...)" since numpy 2.
    return Decimal(repr(float(x)))


def _quantize(d: Decimal, decimals: int) -> Decimal:
    """Round ``d`` half away from zero at ``decimals`` places, never losing digits."""
    # The default context holds 28 digits: quantizing 2.1e28 to 1 decimal needs 30
    # and raised InvalidOperation. Give the result every digit it needs.
    ctx = Context(prec=max(28, d.adjusted() + decimals + 3))
    return d.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP, context=ctx)


def round_half_away(x: float, decimals: int) -> Decimal:
    """Round ``x`` half away from zero at ``decimals`` places, on its shortest repr."""
    return _quantize(to_decimal(x), decimals)


def _sign(d: Decimal, sign: bool) -> str:
    """The sign of a rounded value: none for zero (see the module note on signed zero)."""
    if d.is_zero():
        return ""
    if d < 0:
        return MINUS
    return "+" if sign else ""


def _sci_parts(x: Decimal, digits: int) -> tuple[Decimal, int]:
    """Mantissa (rounded to ``digits``) and exponent of ``x`` in scientific notation."""
    if x.is_zero():
        return _quantize(Decimal(0), digits), 0
    exp = x.adjusted()  # exponent of the leading digit
    with localcontext(Context(prec=max(28, abs(exp) + digits + 3))):
        mant = _quantize(x.scaleb(-exp), digits)
        if mant.copy_abs() >= 10:  # 9.96e-15 -> 10.0e-15: carry, and re-round from x
            exp += 1
            mant = _quantize(x.scaleb(-exp), digits)
    return mant, exp


def fmt(x: Any, decimals: int = 2, *, sign: bool = False, thousands: bool = False,
        sci: bool | Literal["auto"] = False, sci_decimals: int | None = None,
        sci_below: float = 1e-3, sci_at: float = 1e6) -> str:
    """``x`` with ``decimals`` fixed decimals and a true minus sign.

    Parameters
    ----------
    x
        Any real number (float, int, numpy scalar, Decimal); NaN prints ``NaN`` and
        infinities ``∞`` / ``−∞``.
    decimals
        Decimals, always all shown (``1`` -> ``"1.00"``).
    sign
        Prefix ``+`` to positive values (never to a value that rounds to zero).
    thousands
        Group the integer part with commas (``"1,536.00"``).
    sci
        ``True`` for scientific notation (``"1.2e−14"``); ``"auto"`` only when
        ``0 < |x| < sci_below`` or ``|x| >= sci_at``.
    sci_decimals
        Decimals of the mantissa in scientific notation; defaults to ``decimals``.
    sci_below, sci_at
        Thresholds of ``sci="auto"``.

    Returns
    -------
    str
        Rounded half away from zero on the number's shortest repr.

    Examples
    --------
    >>> fmt(-0.3188, 2)
    '−0.32'
    >>> fmt(-0.001, 2)
    '0.00'
    >>> fmt(0.001, 2, sign=True)
    '0.00'
    """
    d = to_decimal(x)
    if d.is_nan():
        return "NaN"
    if d.is_infinite():
        return (MINUS if d < 0 else "+" if sign else "") + INFINITY
    use_sci = sci is True or (
        sci == "auto" and not d.is_zero() and (abs(d) < to_decimal(sci_below)
                                               or abs(d) >= to_decimal(sci_at)))
    if use_sci:
        mant, exp = _sci_parts(d, decimals if sci_decimals is None else sci_decimals)
        e = f"{MINUS}{-exp}" if exp < 0 else str(exp)
        return f"{_sign(mant, sign)}{format(mant.copy_abs(), 'f')}e{e}"
    q = _quantize(d, decimals)
    # copy_abs, not abs(): abs() would round to the context precision.
    digits = format(q.copy_abs(), ",f" if thousands else "f")
    return _sign(q, sign) + digits


def fmt_sci(x: float, digits: int = 1) -> str:
    """Scientific notation as the source writes it: ``1.2e−14``."""
    return fmt(x, digits, sci=True)


def fmt_vec(v, decimals: int = 2) -> str:
    """A 2-vector as ``[0.82, 0.81]``."""
    return "[" + ", ".join(fmt(float(c), decimals) for c in v) + "]"


def fmt_int(n: int) -> str:
    """An integer with thousands separators: ``1,536``."""
    return fmt(int(n), 0, thousands=True)


def bytes_in_unit(n_bytes: float, decimals: int = 1) -> tuple[float, str]:
    """``n_bytes`` in the binary unit :func:`fmt_bytes` writes it in: ``(2.0, "MiB")``.

    The unit is picked on the *rounded* value, so 1,048,575 bytes reads "1.0 MiB",
    not "1,024.0 KiB" (the same carry as fmt_sci's 9.96e-15 -> 1.0e-14).
    """
    x = float(n_bytes)
    i = 0
    while round_half_away(x, decimals) >= 1024 and i < len(BYTE_UNITS) - 1:
        x /= 1024
        i += 1
    return x, BYTE_UNITS[i]


def fmt_bytes(n_bytes: float, decimals: int = 1) -> str:
    """Binary units as the storyboard writes them: ``2.0 MiB``, ``32.0 GiB``."""
    x, unit = bytes_in_unit(n_bytes, decimals)
    return f"{fmt(x, decimals, thousands=True)} {unit}"


def fmt_ratio(x: float) -> str:
    """A ratio rounded to a whole number: ``171x``."""
    return f"{fmt(x, 0, thousands=True)}x"
