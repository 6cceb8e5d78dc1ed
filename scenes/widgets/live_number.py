"""A number display cheap enough to update on every frame.

Why this exists
---------------
Manim's :class:`~manim.DecimalNumber` typesets its digits with ``MathTex`` (LaTeX is not
available here) and, with ``mob_class=Text``, rebuilds and deep-copies a ``Text`` glyph per
character on every ``set_value``: about 8 ms per number per frame, which made six live numbers
cost most of a 480p frame.

:class:`LiveNumber` renders each glyph outline once per (font, weight) with manim's own
:class:`~manim.Text` (so the outlines, advances, kerning and baseline are exactly pango's), keeps
them as plain numpy arrays in a module-level cache, and on ``set_value`` only writes point
arrays into a pool of child :class:`~manim.VMobject` slots, one per visible glyph. No ``Text``
is created and no mobject is copied on an update once the glyphs it needs are cached.

Unused slots are taken out of the family (``submobjects`` is the first *k* slots of the pool)
rather than kept with empty or transparent points: the cairo camera spends ~0.1 ms per drawn
VMobject whatever it contains, so parked slots would cost as much as visible digits.

Size-independent cache, one caveat: pango shapes digits differently in a run that contains
Latin letters ("6.7e−14", "3 ms") than in one without ("−4.56"), so glyphs are cached per
(character, script of its run) -- see the glyph cache section.

Geometry conventions
--------------------
Glyph outlines are stored in *em* units, relative to the glyph's pen origin on the baseline,
y pointing up. One em at font size ``s`` is ``s * TEXT_MOB_SCALE_FACTOR /
TEXT2SVG_ADJUSTMENT_FACTOR`` manim units (0.5 at the default size 48), which is the scale
``Text`` ends up with.

The widget keeps an *anchor* (the pen position of the decimal point, or the left/right end of
the string, on the baseline) at a fixed place across updates. It does not store that place in a
separate attribute that a ``shift``/``scale``/``rotate``/``move_to`` would miss: it recovers the
affine frame (anchor position and the em axes) from the current points of three reference
points of its own glyphs, whose local coordinates it remembers. Whatever affine transformation
the user (or an animation) applied to the glyphs is therefore kept by the next update.
"""

from __future__ import annotations

import unicodedata
import weakref
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Context, Decimal, localcontext
from pathlib import Path
from typing import Any, Literal

import numpy as np
from manim import DEFAULT_FONT_SIZE, NORMAL, ORIGIN, VMobject, config
from manim.mobject.text.text_mobject import (
    TEXT2SVG_ADJUSTMENT_FACTOR,
    TEXT_MOB_SCALE_FACTOR,
    Text,
)
from manim.utils.color import ManimColor, ParsableManimColor

__all__ = [
    "BASE_CHARS",
    "DEFAULT_FONT",
    "MINUS",
    "LiveNumber",
    "format_number",
    "get_glyph_set",
]

#: The true minus sign (U+2212); a hyphen is too short and sits too low next to digits.
MINUS = "\u2212"

#: The font every number is set in unless told otherwise (pinned so numbers and labels match).
DEFAULT_FONT = "Noto Sans CJK JP"

#: Characters rendered (with every pair's kerning) whenever a glyph variant is first built.
BASE_CHARS = "0123456789.,\u2212+-e\u00d7%[] "

#: Font size the reference outlines are rendered at. The default size, so that numbers at the
#: default size are bit-identical to ``Text``; at other sizes ``Text`` itself differs from a
#: scaled outline by pango's 1/64-unit outline quantisation (~1e-3 em), invisible on screen.
REFERENCE_FONT_SIZE = float(DEFAULT_FONT_SIZE)

#: Manim units per em per point of font size (``Text`` renders at ``size/4.8`` pango units and
#: is then scaled by 0.05).
EM_PER_FONT_SIZE = TEXT_MOB_SCALE_FACTOR / TEXT2SVG_ADJUSTMENT_FACTOR

# Glyphs per measuring string. Pango wraps, and cairo's SVG surface drops glyphs far outside the
# canvas, so measuring strings are kept short (and checked to be one complete line).
_CHUNK = 40

Align = Literal["point", "left", "right"]


# --------------------------------------------------------------------------------------------
# Formatting (pure; no manim involved)
# --------------------------------------------------------------------------------------------


def _to_decimal(value: Any) -> Decimal:
    """Convert a number to the Decimal whose digits are its shortest repr.

    ``repr`` gives the shortest string that round-trips the float, so 2.675 (stored as
    2.67499999...) becomes ``Decimal("2.675")`` and rounds half-up to 2.68, which is what a
    reader of the number expects; ``Decimal(2.675)`` would round to 2.67.
    """
    if isinstance(value, Decimal):
        return value
    if isinstance(value, (bool, int, np.integer)):
        return Decimal(int(value))
    # float() first: numpy scalars' repr is "np.float64(...)" since numpy 2.
    return Decimal(repr(float(value)))


def _quantize(d: Decimal, places: int) -> Decimal:
    """Round ``d`` to ``places`` decimals, half away from zero, never losing digits."""
    # Default context precision (28) would raise or round for big numbers with many places.
    prec = max(28, d.adjusted() + places + 3)
    return d.quantize(
        Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP, context=Context(prec=prec)
    )


def _sign_str(negative: bool, positive: bool, show_sign: bool) -> str:
    if negative:
        return MINUS
    if positive and show_sign:
        return "+"
    return ""


def _format_parts(
    value: Any,
    decimals: int = 2,
    *,
    show_sign: bool = False,
    sci: bool | Literal["auto"] = False,
    sci_decimals: int | None = None,
    thousands: bool = False,
    sci_below: float = 1e-3,
    sci_at: float = 1e6,
) -> tuple[str, int]:
    """Format ``value``; return the string and the index of its decimal point.

    The index is where the decimal point is, or where it would be when there is none
    (integers, ``decimals=0``), so that a display can stay aligned on it.
    """
    x = _to_decimal(value)
    if x.is_nan():
        return "NaN", 3
    if x.is_infinite():
        s = _sign_str(x < 0, x > 0, show_sign) + "\u221e"
        return s, len(s)

    use_sci = sci is True or (
        sci == "auto" and x != 0 and (abs(float(x)) < sci_below or abs(float(x)) >= sci_at)
    )
    if use_sci:
        places = decimals if sci_decimals is None else sci_decimals
        if x == 0:
            mant, exp = _quantize(Decimal(0), places), 0
        else:
            exp = x.adjusted()  # exponent of the leading digit
            with localcontext(Context(prec=max(28, abs(exp) + places + 3))):
                mant = _quantize(x.scaleb(-exp), places)
                if mant.copy_abs() >= 10:  # 9.96 -> 10.0: re-round from x, not from mant
                    exp += 1
                    mant = _quantize(x.scaleb(-exp), places)
        digits = format(mant.copy_abs(), "f")
        point = digits.find(".")
        point = len(digits) if point < 0 else point
        sign = _sign_str(mant < 0, mant > 0, show_sign)
        body = f"{digits}e{MINUS if exp < 0 else ''}{abs(exp)}"
        return sign + body, len(sign) + point

    q = _quantize(x, decimals)
    # copy_abs, not abs(): abs() would round to the context precision.
    digits = format(q.copy_abs(), ",f" if thousands else "f")
    point = digits.find(".")
    point = len(digits) if point < 0 else point
    # The sign follows the *rounded* value, so -0.001 shows as 0.00, never "−0.00".
    sign = _sign_str(q < 0 and not q.is_zero(), q > 0, show_sign)
    return sign + digits, len(sign) + point


def format_number(
    value: Any,
    decimals: int = 2,
    *,
    show_sign: bool = False,
    sci: bool | Literal["auto"] = False,
    sci_decimals: int | None = None,
    thousands: bool = False,
    sci_below: float = 1e-3,
    sci_at: float = 1e6,
) -> str:
    """Format a number the way :class:`LiveNumber` displays it.

    Parameters
    ----------
    value
        Any real number (float, int, numpy scalar, Decimal).
    decimals
        Number of decimals, always shown (``1`` -> ``"1.00"``).
    show_sign
        Prefix ``+`` to positive values (never to a value that rounds to zero).
    sci
        ``True`` for scientific notation (``"1.2e−14"``), ``"auto"`` to use it only when
        ``0 < |value| < sci_below`` or ``|value| >= sci_at``.
    sci_decimals
        Decimals of the mantissa in scientific notation; defaults to ``decimals``.
    thousands
        Group the integer part with commas (``"1,536.00"``).
    sci_below, sci_at
        Thresholds for ``sci="auto"``.

    Returns
    -------
    str
        Negative numbers use the true minus sign U+2212; rounding is half away from zero on the
        number's shortest repr (2.675 -> ``"2.68"``, -0.125 -> ``"−0.13"``); a value that rounds
        to zero is shown without sign.
    """
    return _format_parts(
        value,
        decimals,
        show_sign=show_sign,
        sci=sci,
        sci_decimals=sci_decimals,
        thousands=thousands,
        sci_below=sci_below,
        sci_at=sci_at,
    )[0]


# --------------------------------------------------------------------------------------------
# Glyph cache
# --------------------------------------------------------------------------------------------
#
# Pango shapes a string in runs of one script: digits, punctuation and spaces ("Common" script)
# take the script of the letters around them. Noto Sans CJK draws its digits differently in a
# Latin run (as in "6.7e−14" or "3 ms") than in a run with no letters at all ("−3.02"): the
# digits of the Latin run are ~3% shorter. So a glyph is cached per (character, script of its
# run), and a string is laid out by resolving its runs the way pango does.

# Words of unicodedata names that name a script (first match wins); letters whose name has none
# of these (e.g. MICRO SIGN, which Unicode puts in Common) are treated as Common.
_SCRIPT_WORDS = {
    "LATIN", "GREEK", "COPTIC", "CYRILLIC", "ARMENIAN", "HEBREW", "ARABIC", "SYRIAC",
    "THAANA", "DEVANAGARI", "BENGALI", "GURMUKHI", "GUJARATI", "ORIYA", "TAMIL", "TELUGU",
    "KANNADA", "MALAYALAM", "SINHALA", "THAI", "LAO", "TIBETAN", "MYANMAR", "GEORGIAN",
    "HANGUL", "ETHIOPIC", "CHEROKEE", "KHMER", "MONGOLIAN", "HIRAGANA", "KATAKANA",
    "BOPOMOFO", "CJK",
}
COMMON = "Common"
_STRONG_CACHE: dict[str, str | None] = {}


def _strong_script(ch: str) -> str | None:
    """The script of a letter, or None for characters that take their run's script."""
    try:
        return _STRONG_CACHE[ch]
    except KeyError:
        pass
    script = None
    if unicodedata.category(ch).startswith("L"):
        for word in unicodedata.name(ch, "").replace("-", " ").split():
            if word == "KATAKANA" and "HIRAGANA" in unicodedata.name(ch, ""):
                break  # U+30FC KATAKANA-HIRAGANA PROLONGED SOUND MARK is Common
            if word in _SCRIPT_WORDS:
                script = "HAN" if word == "CJK" else word
                break
    _STRONG_CACHE[ch] = script
    return script


def resolve_scripts(text: str) -> list[str]:
    """Script of the pango run each character of ``text`` is shaped in.

    Letters have their own script; other characters take the script of the previous letter, or
    of the first letter when none precedes them (pango's script itemisation, without its
    paired-bracket refinement); a string without letters is all :data:`COMMON`.
    """
    strong = [_strong_script(c) for c in text]
    current = next((s for s in strong if s is not None), COMMON)
    out = []
    for s in strong:
        if s is not None:
            current = s
        out.append(current)
    return out


class _PenText(Text):
    """A ``Text`` that stops once pango has written its SVG: pen positions, no outlines.

    Measuring the pen step of every ordered pair of characters needs hundreds of glyphs; parsing
    their outlines into mobjects would dominate the start-up time and is not needed, since the
    outlines come from one ordinary ``Text`` per batch. Same class, same pango call, same SVG.
    """

    def init_svg_mobject(self, use_svg_cache: bool) -> _PenText:
        return self


@dataclass(frozen=True)
class _Glyph:
    """One glyph outline in em units, pen origin at (0, 0) on the baseline."""

    em: np.ndarray  # (n, 2) Bézier points (cubic for cairo), read-only
    # Indices of extreme points, used to pick well-spread reference points for frame recovery.
    i_minx: int
    i_maxx: int
    i_miny: int
    i_maxy: int


class _Variant:
    """The glyphs of one font in runs of one script (see the module comment above)."""

    def __init__(self, script: str, context: str) -> None:
        self.script = script
        self.context = context  # a letter of the script put in front of measuring strings
        self.glyphs: dict[str, _Glyph] = {}
        #: pen advance from a glyph to the next, kerning included: steps[(a, b)], em
        self.steps: dict[tuple[str, str], float] = {}
        self.advance: dict[str, float] = {}
        self.space: float | None = None


class GlyphSet:
    """Glyph outlines, advances and pair kerning of one (font, weight), in em units.

    Built lazily by :func:`get_glyph_set` and shared by every :class:`LiveNumber` of that
    font, deep copies included (see ``__deepcopy__``). Everything is measured from what manim's
    :class:`~manim.Text` produces, so a LiveNumber matches a Text of the same string.

    Parameters
    ----------
    font, weight
        As for :class:`~manim.Text`.
    """

    def __init__(self, font: str, weight: str = NORMAL) -> None:
        self.font = font
        self.weight = weight
        self.variants: dict[str, _Variant] = {}
        #: number of Text objects created so far (diagnostics and tests)
        self.text_renders = 0
        self.ensure("0")  # builds the Common variant with all BASE_CHARS

    # Shared cache, immutable by convention: never copy it along with a mobject.
    def __deepcopy__(self, memo: dict) -> GlyphSet:
        return self

    def __copy__(self) -> GlyphSet:
        return self

    def __repr__(self) -> str:
        n = sum(len(v.glyphs) for v in self.variants.values())
        return f"GlyphSet({self.font!r}, {self.weight!r}, {n} glyphs in {list(self.variants)})"

    # -- lookup (hot path) ----------------------------------------------------------------------

    def layout(self, text: str) -> tuple[list[_Glyph | None], list[float]] | None:
        """Glyph (None for spaces) and pen x (em) of every character, plus the end pen x.

        Returns None when a needed glyph is not cached yet (see :meth:`ensure`).
        """
        scripts = resolve_scripts(text)
        variants = self.variants
        glyphs: list[_Glyph | None] = []
        pens = [0.0]
        x = 0.0
        n = len(text)
        try:
            for i, a in enumerate(text):
                var = variants[scripts[i]]
                if a == " ":
                    glyphs.append(None)
                    x += var.space
                else:
                    glyphs.append(var.glyphs[a])
                    b = text[i + 1] if i + 1 < n else " "
                    # Kerning applies inside a run only (runs are shaped separately), and pango
                    # practically never kerns against a space: plain advance there.
                    if b == " " or scripts[i + 1] != scripts[i]:
                        x += var.advance[a]
                    else:
                        x += var.steps[(a, b)]
                pens.append(x)
        except (KeyError, TypeError):  # TypeError: space width of a variant not measured
            return None
        return glyphs, pens

    # -- building ------------------------------------------------------------------------------

    def ensure(self, text: str) -> None:
        """Cache every (character, run script) that displaying ``text`` needs."""
        if any(c.isspace() and c != " " for c in text):
            raise ValueError("only the plain space is supported as whitespace")
        by_script: dict[str, list[str]] = {}
        for ch, script in zip(text, resolve_scripts(text), strict=True):
            by_script.setdefault(script, []).append(ch)
        for script, chars in by_script.items():
            if script not in self.variants:
                # A run of a letter script always contains one of its letters: use it as context.
                context = next((c for c in chars if _strong_script(c) == script), "")
                self._new_variant(script, context)
            self._add_chars(self.variants[script], "".join(chars))

    def _new_variant(self, script: str, context: str) -> None:
        var = self.variants[script] = _Variant(script, "" if script == COMMON else context)
        # Every variant gets the whole base set at once, so no update ever has to render; the
        # Latin letter "e" only exists in Latin runs.
        base = "".join(c for c in BASE_CHARS if _strong_script(c) in (None, script))
        self._add_chars(var, var.context + base)

    def _add_chars(self, var: _Variant, chars: str) -> None:
        new = [c for c in dict.fromkeys(chars) if c not in var.glyphs and c != " "]
        if new:
            self._measure_outlines(var, new)
            known = [c for c in var.glyphs if c not in new]
            seq: list[str] = []
            for g in new:
                # g x1 g x2 g ... g g: measures (g, x) and (x, g) for every known x, and (g, g).
                seq.append(g)
                for x in known:
                    seq += [x, g]
                seq.append(g)
                known.append(g)
            self._measure_steps(var, "".join(seq))
            self._update_advances(var)
        if " " in chars and var.space is None:
            _, pens, em = self._render(var.context + "0 0", outlines=False)
            # Pen of the second "0" minus the first, whether or not pango gave the space a <use>.
            first = len(var.context)
            var.space = (pens[-1][0] - pens[first][0]) / em - var.advance["0"]

    def _render(self, s: str, outlines: bool = True, retry: bool = True):
        """Render ``s`` with manim's Text; return outlines (SVG coordinates), pens, em size.

        Outlines are recovered from the Text's points: with ``should_center=False`` Text only
        flips y about, and scales by 0.05 about, the bounding-box centre of its points, which both
        leave invariant, so the map is inverted exactly. Pen positions are the ``<use x y>`` of
        the SVG pango wrote for that Text.
        """
        # Pango draws onto an SVG canvas of the configured pixel size and drops glyphs that fall
        # far outside it (at a 64-px test resolution a 30-digit Text loses 7 digits). Measure on
        # a fixed large canvas. Set the two fields directly: tempconfig costs ~30 ms a call.
        saved = config.pixel_width, config.pixel_height
        try:
            config.pixel_width, config.pixel_height = 3840, 2160
            cls = Text if outlines else _PenText
            text = cls(s, font=self.font, weight=self.weight, font_size=REFERENCE_FONT_SIZE,
                       should_center=False)
        finally:
            config.pixel_width, config.pixel_height = saved
        self.text_renders += 1
        pens = [
            (float(el.get("x", 0)), float(el.get("y", 0)))
            for el in ET.parse(text.file_name).iter()
            if el.tag.endswith("use")
        ]
        n_glyphs = len(s.replace(" ", ""))
        # Pango emits an empty <use> for a space, which manim drops from the submobjects.
        if len(pens) not in (n_glyphs, len(s)) or (outlines and len(text.submobjects) != n_glyphs):
            if retry:
                # Text caches its SVG under a hash that ignores the canvas size, so a file
                # written by a small-canvas render (glyphs dropped) may be reused: redo it once.
                Path(text.file_name).unlink(missing_ok=True)
                self.text_renders -= 1
                return self._render(s, outlines, retry=False)
            raise ValueError(
                f"font {self.font!r} renders {s!r} as {len(pens)} glyphs for {n_glyphs} "
                "characters (ligature or unsupported character?)"
            )
        if len({round(y, 6) for _, y in pens}) > 1:
            raise ValueError(f"measuring string {s!r} was wrapped onto several lines")
        shapes = []
        if outlines:
            c = text.get_center()
            for mob in text.submobjects:
                f = mob.points
                x = c[0] + (f[:, 0] - c[0]) / TEXT_MOB_SCALE_FACTOR
                y = c[1] - (f[:, 1] - c[1]) / TEXT_MOB_SCALE_FACTOR
                shapes.append(np.stack([x, y], axis=1))
        return shapes, pens, REFERENCE_FONT_SIZE / TEXT2SVG_ADJUSTMENT_FACTOR

    def _measure_outlines(self, var: _Variant, chars: list[str]) -> None:
        for start in range(0, len(chars), _CHUNK):
            piece = chars[start : start + _CHUNK]
            # Each measuring string must contain a letter of the run's script to be shaped as
            # that script (a leading letter is enough: the rest takes its script).
            context = var.context if var.context not in piece else ""
            shapes, pens, em = self._render(context + "".join(piece))
            skip = len(context)
            for ch, shape, pen in zip(piece, shapes[skip:], pens[skip:], strict=True):
                var.glyphs[ch] = self._make_glyph(shape, pen, em)

    def _measure_steps(self, var: _Variant, seq: str) -> None:
        """Record the pen step of every adjacent pair of ``seq`` (rendered in chunks)."""
        ctx = var.context
        start = 0
        while True:
            piece = seq[start : start + _CHUNK]
            _, pens, em = self._render(ctx + piece, outlines=False)
            pens = pens[len(ctx):]
            for i in range(len(piece) - 1):
                step = (pens[i + 1][0] - pens[i][0]) / em
                var.steps.setdefault((piece[i], piece[i + 1]), step)
            if start + _CHUNK >= len(seq):
                break
            start += _CHUNK - 1  # overlap one character so the pair across the cut is measured

    @staticmethod
    def _make_glyph(svg_pts: np.ndarray, pen: tuple[float, float], em: float) -> _Glyph:
        pts = np.empty((len(svg_pts), 2))
        pts[:, 0] = (svg_pts[:, 0] - pen[0]) / em
        pts[:, 1] = (pen[1] - svg_pts[:, 1]) / em  # SVG y points down
        pts.flags.writeable = False
        return _Glyph(
            em=pts,
            i_minx=int(pts[:, 0].argmin()),
            i_maxx=int(pts[:, 0].argmax()),
            i_miny=int(pts[:, 1].argmin()),
            i_maxy=int(pts[:, 1].argmax()),
        )

    @staticmethod
    def _update_advances(var: _Variant) -> None:
        # A glyph's own advance is the step most pairs agree on; kerned pairs are the exceptions.
        per_left: dict[str, Counter] = {}
        for (a, _), step in var.steps.items():
            per_left.setdefault(a, Counter())[round(step, 5)] += 1
        for a, counts in per_left.items():
            var.advance[a] = counts.most_common(1)[0][0]


_GLYPH_SETS: dict[tuple[str, str, str], GlyphSet] = {}


def get_glyph_set(font: str = DEFAULT_FONT, weight: str = NORMAL) -> GlyphSet:
    """Return the shared glyph cache of ``(font, weight)``, building it on first use.

    The renderer type is part of the key because cairo uses cubic and OpenGL quadratic curves.
    """
    key = (font, weight, str(config.renderer))
    gs = _GLYPH_SETS.get(key)
    if gs is None:
        gs = _GLYPH_SETS[key] = GlyphSet(font, weight)
    return gs


# --------------------------------------------------------------------------------------------
# The widget
# --------------------------------------------------------------------------------------------


class LiveNumber(VMobject):
    """A number whose ``set_value`` is cheap enough to call every frame.

    Looks exactly like ``Text(format_number(value, ...), font=font, font_size=font_size)``
    (same outlines, kerning, baseline, fill and stroke style), and keeps its decimal point (or
    its left or right end, see ``align``) where it was placed while the digits change.

    Parameters
    ----------
    value
        Initial value.
    decimals
        Decimals shown, fixed (``1`` shows as ``1.00`` with the default 2).
    font_size
        As for :class:`~manim.Text`.
    color
        Fill colour; ``None`` for the default (white), as ``Text``.
    font, weight
        As for :class:`~manim.Text`; the font is pinned so numbers match the labels.
    unit, prefix
        Strings drawn after/before the number (``unit=" ms"``, ``prefix="≈"``); their glyphs are
        rendered once at construction.
    show_sign
        Show ``+`` before positive values.
    sci
        ``True`` for scientific notation (``1.2e−14``), ``"auto"`` for tiny/huge values only
        (``|x| < sci_below`` or ``|x| >= sci_at``).
    sci_decimals
        Mantissa decimals in scientific notation; defaults to ``decimals``.
    thousands
        Group digits with commas (``1,536``).
    align
        What stays fixed when the number of characters changes: ``"point"`` the decimal point
        (or where it would be), ``"left"`` the start, ``"right"`` the end of the string.
    extra_glyphs
        Characters to cache now besides the digits (e.g. ``"NaN∞"``), so that no ``Text`` is
        rendered mid-animation when they first appear.
    fill_opacity
        As for :class:`~manim.Text`.
    **kwargs
        Passed to :class:`~manim.VMobject`.

    Examples
    --------
    ::

        t = ValueTracker(0.0)
        n = LiveNumber(0, decimals=3, unit=" s").follow(t).to_edge(UP)
        self.add(n)
        self.play(t.animate.set_value(-1.5), run_time=2)
    """

    def __init__(
        self,
        value: float = 0.0,
        decimals: int = 2,
        font_size: float = DEFAULT_FONT_SIZE,
        color: ParsableManimColor | None = None,
        font: str = DEFAULT_FONT,
        unit: str = "",
        prefix: str = "",
        show_sign: bool = False,
        sci: bool | Literal["auto"] = False,
        thousands: bool = False,
        *,
        sci_decimals: int | None = None,
        sci_below: float = 1e-3,
        sci_at: float = 1e6,
        align: Align = "point",
        weight: str = NORMAL,
        extra_glyphs: str = "",
        fill_opacity: float = 1.0,
        **kwargs: Any,
    ) -> None:
        if align not in ("point", "left", "right"):
            raise ValueError(f"align must be 'point', 'left' or 'right', not {align!r}")
        if font_size <= 0:
            raise ValueError("font_size must be positive")
        self._check_decimals(decimals)
        if sci_decimals is not None:
            self._check_decimals(sci_decimals)
        self._glyph_set = get_glyph_set(font, weight)
        # Same colour handling as Text: None means the default VMobject colour.
        parsed = ManimColor(color) if color is not None else VMobject().color
        super().__init__(
            fill_color=parsed,
            fill_opacity=fill_opacity,
            stroke_width=0,
            # Text's glyphs keep the SVG default stroke colour (white) whatever their fill;
            # copy that so set_stroke(width=...) behaves the same on both.
            stroke_color=ManimColor("#FFFFFF"),
            **kwargs,
        )
        self.color = parsed
        self.font = font
        self.weight = weight
        self.decimals = int(decimals)
        self.unit = unit
        self.prefix = prefix
        self.show_sign = show_sign
        self.sci = sci
        self.sci_decimals = sci_decimals
        self.sci_below = sci_below
        self.sci_at = sci_at
        self.thousands = thousands
        self.align = align
        self._slot_style = dict(
            fill_color=parsed, fill_opacity=fill_opacity, stroke_width=0,
            stroke_color=ManimColor("#FFFFFF"),
        )
        self._pool: list[VMobject] = []
        self._subs: list[VMobject] = []
        self._n_visible = 0
        self._text: str | None = None
        self._value: Any = value
        self._follow_updater: Callable | None = None
        # Frame = anchor position O and the world vectors of one em along x (X) and y (Y).
        k = font_size * EM_PER_FONT_SIZE
        self._frame = (np.zeros(3), np.array([k, 0.0, 0.0]), np.array([0.0, k, 0.0]))
        self._ref: list[tuple[int, int, int]] = []  # (slot index, point index, n points)
        self._ref_world = np.zeros((3, 3))
        self._ref_inv = np.eye(3)
        self._warm_up(extra_glyphs)
        self._render(*self._format(value))
        # Like Text, start centred on the origin (the anchor then stays where this puts it).
        self._translate(ORIGIN - self.get_center())

    # -- formatting ----------------------------------------------------------------------------

    @staticmethod
    def _check_decimals(d: int) -> None:
        if int(d) != d or d < 0:
            raise ValueError(f"decimals must be a non-negative integer, not {d!r}")

    def _format(self, value: Any) -> tuple[str, int]:
        s, point = _format_parts(
            value,
            self.decimals,
            show_sign=self.show_sign,
            sci=self.sci,
            sci_decimals=self.sci_decimals,
            thousands=self.thousands,
            sci_below=self.sci_below,
            sci_at=self.sci_at,
        )
        return self.prefix + s + self.unit, len(self.prefix) + point

    # -- public API ----------------------------------------------------------------------------

    def set_value(self, value: float) -> LiveNumber:
        """Show ``value``; keeps the anchor, creates no Text and copies no mobject.

        Parameters
        ----------
        value
            Any real number (float, int, numpy scalar, Decimal).

        Returns
        -------
        LiveNumber
            ``self``.
        """
        self._value = value
        text, point = self._format(value)
        # Same string and glyphs untouched (moving them is fine): nothing to do.
        if text != self._text or not self._intact():
            self._render(text, point)
        return self

    def get_value(self) -> Any:
        """The value last given to :meth:`set_value` (unrounded)."""
        return self._value

    @property
    def value(self) -> Any:
        """Alias of :meth:`get_value`."""
        return self._value

    @property
    def text(self) -> str:
        """The string currently displayed."""
        return self._text or ""

    def increment_value(self, delta: float) -> LiveNumber:
        """Add ``delta`` to the value."""
        return self.set_value(self._value + delta)

    def set_decimals(self, decimals: int) -> LiveNumber:
        """Change the number of decimals shown; the anchor stays put.

        Parameters
        ----------
        decimals
            Non-negative number of decimals.

        Returns
        -------
        LiveNumber
            ``self``.
        """
        self._check_decimals(decimals)
        self.decimals = int(decimals)
        return self._refresh()

    def set_format(self, **options: Any) -> LiveNumber:
        """Change formatting options (``unit``, ``prefix``, ``show_sign``, ``sci``,
        ``sci_decimals``, ``thousands``, ``sci_below``, ``sci_at``, ``align``) and redraw.

        New characters in ``unit``/``prefix`` are rendered once, here.
        """
        allowed = {"unit", "prefix", "show_sign", "sci", "sci_decimals", "thousands",
                   "sci_below", "sci_at", "align"}
        unknown = set(options) - allowed
        if unknown:
            raise TypeError(f"unknown format options: {sorted(unknown)}")
        if options.get("align", self.align) not in ("point", "left", "right"):
            raise ValueError("align must be 'point', 'left' or 'right'")
        for key, val in options.items():
            setattr(self, key, val)
        self._warm_up()
        return self._refresh()

    def follow(
        self,
        source: Any | Callable[[], float],
        *,
        call_now: bool = True,
        setter: Callable[[LiveNumber, Any], Any] | None = None,
    ) -> LiveNumber:
        """Show ``source``'s value on every frame.

        Parameters
        ----------
        source
            A :class:`~manim.ValueTracker` (anything with ``get_value()``) or a zero-argument
            callable returning the number.
        call_now
            Update immediately, not only from the next frame.
        setter
            How a value is shown, ``setter(self, value)``; defaults to :meth:`set_value`.
            For subclasses with their own setter (e.g. one that also switches the unit), so
            they get the copy guard described below.

        Returns
        -------
        LiveNumber
            ``self``, so ``LiveNumber(0).follow(tracker).next_to(...)`` chains.

        Notes
        -----
        Replaces a previous :meth:`follow`. Like every updater it is paused while an animation
        that suspends updating (``Transform``, ``FadeIn``, ``.animate``) plays on this mobject;
        the number catches up when the animation ends.

        Copies do not follow (``copy()`` keeps the updater but it does nothing on the copy;
        call ``follow`` on the copy if wanted). This is deliberate: animations copy the
        mobject (FadeIn's start, ``.animate``'s target, Transform's start) and manim runs the
        copies' updaters; a copy that changed its number of glyphs mid-animation would no
        longer line up with the mobject and the animation would fail (as it does with
        ``DecimalNumber`` and an updater).
        """
        getter = source.get_value if hasattr(source, "get_value") else source
        if not callable(getter):
            raise TypeError("follow() needs a ValueTracker-like object or a callable")
        self.unfollow()
        owner = weakref.ref(self)
        show = type(self).set_value if setter is None else setter

        def _follow(mob: LiveNumber) -> None:
            if mob is owner():  # not on copies, see Notes
                show(mob, getter())

        self._follow_updater = _follow
        self.add_updater(_follow, call_updater=call_now)
        return self

    def unfollow(self) -> LiveNumber:
        """Remove the updater added by :meth:`follow` (others stay)."""
        if self._follow_updater is not None:
            self.remove_updater(self._follow_updater)
            self._follow_updater = None
        return self

    @classmethod
    def from_tracker(cls, tracker: Any, **kwargs: Any) -> LiveNumber:
        """A LiveNumber that follows ``tracker`` (keyword arguments as for the constructor)."""
        return cls(tracker.get_value(), **kwargs).follow(tracker)

    def get_anchor(self) -> np.ndarray:
        """World position of the anchor: the pen position of the decimal point (``align=
        "point"``), of the start or of the end of the string, on the baseline.

        Returns
        -------
        numpy.ndarray
            A 3D point; it follows every shift/scale/rotation applied to the number.
        """
        return self._current_frame()[0].copy()

    def move_anchor_to(self, point: np.ndarray) -> LiveNumber:
        """Shift so that the anchor is at ``point``.

        Use it to align a column of numbers on their decimal points, or a number's baseline
        with a label's.

        Parameters
        ----------
        point
            Target position of the anchor.

        Returns
        -------
        LiveNumber
            ``self``.
        """
        return self.shift(np.asarray(point, dtype=float) - self.get_anchor())

    @property
    def font_size(self) -> float:
        """Current font size (from the em height, so it follows ``scale``)."""
        _, _, y = self._current_frame()
        return float(np.linalg.norm(y)) / EM_PER_FONT_SIZE

    @font_size.setter
    def font_size(self, size: float) -> None:
        if size <= 0:
            raise ValueError("font_size must be positive")
        self.scale(size / self.font_size, about_point=self.get_anchor())

    # -- internals -----------------------------------------------------------------------------

    def _warm_up(self, extra: str = "") -> None:
        """Cache now every glyph this widget's strings can need, so updates never render.

        Which glyph variant a digit needs depends on the letters of the whole string (see the
        glyph cache notes), so sample strings in every format this widget can produce are
        prepared, not just characters.
        """
        gs = self._glyph_set
        samples = [0, -1234567.5]
        if self.sci is not False:
            samples += [-1.5e-9, 2.5e12]
        for v in samples:
            gs.ensure(self._format(v)[0])
        if extra:
            gs.ensure(extra)
            gs.ensure(self.prefix + extra + self.unit)

    def _refresh(self) -> LiveNumber:
        self._text = None  # force a redraw even if the string happens to be the same
        return self.set_value(self._value)

    def _intact(self) -> bool:
        """Whether the glyphs are still the ones last laid out (not reshaped by a Transform)."""
        if self.submobjects is not self._subs:
            return False
        pool = self._pool
        return all(len(pool[i].points) == n for i, _, n in self._ref)

    def _new_slot(self) -> VMobject:
        return VMobject(**self._slot_style)

    def _translate(self, v: np.ndarray) -> None:
        """Shift glyphs and bookkeeping together (no frame re-solve needed afterwards)."""
        v = np.asarray(v, dtype=float)
        for mob in self.submobjects:
            mob.points = mob.points + v
        o, x, y = self._frame
        self._frame = (o + v, x, y)
        self._ref_world = self._ref_world + v

    def _current_frame(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Recover (anchor, em x vector, em y vector) in world coordinates.

        If the reference points are where this object last put them, the cached frame is
        returned as is (exact, no drift over thousands of updates). Otherwise the glyphs were
        moved/scaled/rotated: the three reference points, whose local coordinates are known,
        determine the affine frame exactly.
        """
        return self._solve_frame()[0]

    def _solve_frame(self) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], bool]:
        if not self._ref:
            return self._frame, True
        subs = self.submobjects
        rows = []
        for slot_i, pt_i, n in self._ref:
            if slot_i >= len(subs) or subs[slot_i] is not self._pool[slot_i]:
                return self._frame, False
            pts = subs[slot_i].points
            if len(pts) != n:  # reshaped by a Transform: the stored indices mean nothing now
                return self._frame, False
            rows.append(pts[pt_i])
        w = np.array(rows)
        if np.array_equal(w, self._ref_world):
            return self._frame, True
        o, x, y = self._ref_inv @ w
        return (o, x, y), True

    def _render(self, text: str, point: int) -> None:
        """Lay ``text`` out in the pool slots, keeping the anchor where it is."""
        gs = self._glyph_set
        plan = gs.layout(text)
        if plan is None:
            # Only reached for glyphs nobody warmed up (e.g. the first NaN): rendered once.
            gs.ensure(text)
            plan = gs.layout(text)
            if plan is None:
                raise RuntimeError(f"could not lay out {text!r} in font {gs.font!r}")
        glyph_list, pens = plan
        (o, ex, ey), valid = self._solve_frame()
        old_center = None
        if not valid and self.family_members_with_points():
            # The glyphs were replaced by something else (e.g. the end of a Transform): keep the
            # em axes and put the new string where the current shape is centred.
            old_center = self.get_center()

        if self.align == "point":
            ax = pens[point]
        elif self.align == "left":
            ax = 0.0
        else:
            ax = pens[-1]

        basis = np.array([ex, ey])  # (2, 3): em coordinates -> world
        pool = self._pool
        used: list[tuple[_Glyph, float]] = []  # (glyph, x offset) per visible slot
        k = 0
        for i, glyph in enumerate(glyph_list):
            if glyph is None:  # space
                continue
            if k == len(pool):
                pool.append(self._new_slot())
            dx = pens[i] - ax
            pts = glyph.em @ basis
            pts += o + dx * ex
            pool[k].set_points(pts)
            used.append((glyph, dx))
            k += 1

        # Slots that come back from hiding may carry a stale style (set_color etc. only reach
        # the visible family): give them the style of a glyph that stayed visible.
        n_before = self._n_visible
        if 0 < n_before < k:
            ref = pool[0]
            for slot in pool[n_before:k]:
                slot.match_style(ref, family=False)
        # A slot leaving the family must also lose its outline: manim's Cairo renderer lists the
        # moving family once when a play starts, so a dropped slot that kept its points would
        # keep being drawn (a stale last digit) until the play ends.
        for slot in pool[k:n_before]:
            if len(slot.points):
                slot.clear_points()
        self.submobjects = pool[:k]  # hidden slots simply leave the family: zero render cost
        self._subs = self.submobjects  # to notice a Transform replacing the list
        self._n_visible = k
        self._text = text
        self._frame = (o, ex, ey)
        self._set_reference_points(used)
        if old_center is not None:
            self._translate(old_center - self.get_center())

    def _set_reference_points(self, used: list[tuple[_Glyph, float]]) -> None:
        """Pick three well-spread glyph points and remember their local coordinates.

        Leftmost point of the first glyph, rightmost of the last, and the highest or lowest
        point (whichever spans the larger triangle): far apart, so the frame solve is well
        conditioned.
        """

        def local(slot_i: int, pt_i: int) -> tuple[float, float]:
            glyph, dx = used[slot_i]
            return glyph.em[pt_i, 0] + dx, glyph.em[pt_i, 1]

        last = len(used) - 1
        a = (0, used[0][0].i_minx)
        b = (last, used[last][0].i_maxx)
        top = max(range(len(used)), key=lambda j: used[j][0].em[used[j][0].i_maxy, 1])
        bot = min(range(len(used)), key=lambda j: used[j][0].em[used[j][0].i_miny, 1])
        la, lb = local(*a), local(*b)
        best, best_det = None, 0.0
        for c in ((top, used[top][0].i_maxy), (bot, used[bot][0].i_miny)):
            lc = local(*c)
            det = (lb[0] - la[0]) * (lc[1] - la[1]) - (lb[1] - la[1]) * (lc[0] - la[0])
            if abs(det) > abs(best_det):
                best, best_det = c, det
        if best is None or abs(best_det) < 1e-6:
            self._ref = []  # degenerate (no real string gets here): rely on the cached frame
            return
        refs = [a, b, best]
        self._ref_inv = np.linalg.inv(np.array([[1.0, *local(*r)] for r in refs]))
        self._ref = [(s, p, len(self._pool[s].points)) for s, p in refs]
        self._ref_world = np.array([self._pool[s].points[p] for s, p in refs])
