"""How numbers are written on screen and in captions.

One formatter for every figure, so a caption and the label beside it can never
disagree: fixed decimals, round half away from zero, a true minus sign (U+2212),
and never a negative zero.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Context, Decimal

MINUS = "\u2212"


def round_half_away(x: float, decimals: int) -> Decimal:
    """Round ``x`` half away from zero at ``decimals`` places.

    Works on the shortest repr of the float, so ``2.675`` (stored as 2.67499...)
    rounds to 2.68 as it reads, which is what a reader of the digits expects.
    """
    q = Decimal(1).scaleb(-decimals)
    d = Decimal(repr(float(x)))
    # The default context holds 28 digits: quantizing 2.1e28 to 1 decimal needs 30
    # and raised InvalidOperation. Give the result every digit it needs.
    ctx = Context(prec=max(28, d.adjusted() + decimals + 2))
    return d.quantize(q, rounding=ROUND_HALF_UP, context=ctx)


def fmt(x: float, decimals: int = 2, *, sign: bool = False, thousands: bool = False) -> str:
    """``x`` with ``decimals`` fixed decimals and a true minus sign.

    >>> fmt(-0.3188, 2)
    '−0.32'
    >>> fmt(-0.001, 2)
    '0.00'
    """
    d = round_half_away(x, decimals)
    if d == 0:
        d = abs(d)
    s = f"{abs(d):,.{decimals}f}" if thousands else f"{abs(d):.{decimals}f}"
    if d < 0:
        return MINUS + s
    return ("+" + s) if sign else s


def fmt_sci(x: float, digits: int = 1) -> str:
    """Scientific notation as the source writes it: ``1.2e−14``."""
    if x == 0:
        return f"{0:.{digits}f}e0"
    exp = int(Decimal(repr(abs(float(x)))).adjusted())
    mant = round_half_away(float(x) / 10.0**exp, digits)
    if abs(mant) >= 10:  # 9.96e-15 -> 10.0e-15 -> 1.0e-14
        exp += 1
        mant = round_half_away(float(x) / 10.0**exp, digits)
    m = fmt(float(mant), digits)
    e = f"{MINUS}{-exp}" if exp < 0 else str(exp)
    return f"{m}e{e}"


def fmt_vec(v, decimals: int = 2) -> str:
    """A 2-vector as ``[0.82, 0.81]``."""
    return "[" + ", ".join(fmt(float(c), decimals) for c in v) + "]"


def fmt_int(n: int) -> str:
    """An integer with thousands separators: ``1,536``."""
    s = f"{abs(int(n)):,}"
    return (MINUS + s) if n < 0 else s


def fmt_bytes(n_bytes: float, decimals: int = 1) -> str:
    """Binary units as the storyboard writes them: ``2.0 MiB``, ``32.0 GiB``."""
    units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]
    x = float(n_bytes)
    i = 0
    # Compare the *rounded* value with 1024, so 1,048,575 bytes reads "1.0 MiB",
    # not "1,024.0 KiB" (the same carry as fmt_sci's 9.96e-15 -> 1.0e-14).
    while round_half_away(x, decimals) >= 1024 and i < len(units) - 1:
        x /= 1024
        i += 1
    return f"{fmt(x, decimals, thousands=True)} {units[i]}"


def fmt_ratio(x: float) -> str:
    """A ratio rounded to a whole number: ``171x``."""
    return f"{fmt(x, 0, thousands=True)}x"
