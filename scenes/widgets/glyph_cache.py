"""Glyph outlines of the pinned font, measured once and shared by every live number.

Why this exists
---------------
:class:`~scenes.widgets.live_number.LiveNumber` must not build a manim ``Text`` per frame. It
draws each glyph from outlines rendered once per (font, weight) with manim's own
:class:`~manim.Text` (so the outlines, advances, kerning and baseline are exactly pango's), kept
here as plain numpy arrays in a module-level cache.

Size-independent cache, one caveat: pango shapes digits differently in a run that contains
Latin letters ("6.7e−14", "3 ms") than in one without ("−4.56"), so glyphs are cached per
(character, script of its run) -- see the note above :data:`COMMON`.

Outlines are stored in *em* units, relative to the glyph's pen origin on the baseline, y
pointing up. One em at font size ``s`` is ``s * TEXT_MOB_SCALE_FACTOR /
TEXT2SVG_ADJUSTMENT_FACTOR`` manim units (0.5 at the default size 48), which is the scale
``Text`` ends up with.
"""

from __future__ import annotations

import unicodedata
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from manim import DEFAULT_FONT_SIZE, NORMAL, config
from manim.mobject.text.text_mobject import (
    TEXT2SVG_ADJUSTMENT_FACTOR,
    TEXT_MOB_SCALE_FACTOR,
    Text,
)

__all__ = [
    "BASE_CHARS",
    "COMMON",
    "DEFAULT_FONT",
    "EM_PER_FONT_SIZE",
    "GlyphSet",
    "get_glyph_set",
    "resolve_scripts",
]

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
