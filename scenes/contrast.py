"""WCAG 2.x contrast of the theme's colours as the frames draw them.

Colours are composited the way cairo draws them (a fill of opacity ``a`` over a surface
mixes the two sRGB-encoded colours linearly), and compared by WCAG's contrast ratio of
relative luminances (ColorAide's ``wcag21`` method). :data:`TEXT_RATIO` and
:data:`MARK_RATIO` are level AA's thresholds for text (1.4.3) and for meaningful
graphical objects (1.4.11).
"""

from __future__ import annotations

from coloraide import Color

__all__ = ["MARK_RATIO", "TEXT_RATIO", "densest_tint", "over", "ratio"]

#: WCAG 2.2 AA, success criterion 1.4.3: text (under 18 pt) against what is behind it.
TEXT_RATIO = 4.5
#: WCAG 2.2 AA, success criterion 1.4.11: a mark needed to understand the picture.
MARK_RATIO = 3.0


def over(surface: str, colour: str, opacity: float) -> str:
    """The colour a fill of ``colour`` at ``opacity`` leaves on ``surface`` (hex)."""
    a = Color(surface).convert("srgb")
    b = Color(colour).convert("srgb")
    mixed = [(1.0 - opacity) * x + opacity * y for x, y in zip(a.coords(), b.coords())]
    return Color("srgb", mixed).to_string(hex=True)


def ratio(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours, 1 to 21."""
    return float(Color(a).contrast(b, method="wcag21"))


def densest_tint(colour: str, surface: str, text: str, at_least: float = TEXT_RATIO,
                 steps: int = 40) -> float:
    """The largest opacity of a ``colour`` fill on ``surface`` under which ``text`` keeps
    ``at_least`` contrast (bisection; 1.0 when even the solid fill keeps it)."""
    if ratio(text, over(surface, colour, 1.0)) >= at_least:
        return 1.0
    lo, hi = 0.0, 1.0
    for _ in range(steps):
        mid = (lo + hi) / 2
        if ratio(text, over(surface, colour, mid)) >= at_least:
            lo = mid
        else:
            hi = mid
    return lo
