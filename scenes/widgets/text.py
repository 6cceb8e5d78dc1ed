"""Text helpers: every string on screen is made here, in the pinned font."""

from __future__ import annotations

import unicodedata
from collections import OrderedDict

from manim import DOWN, RIGHT, UP, Text, VGroup

from words.linebreak import is_wide, paragraph_lines

from .. import style
from ..layout import fit_width
from .glyph_cache import EM_PER_FONT_SIZE

__all__ = ["ELLIPSIS", "KEPT_CHARS", "LABELS_KEPT", "TOKEN_CELLS", "backed", "baseline",
           "baseline_drop", "bullet_list", "cells", "drawable", "em", "label", "paragraph",
           "screen_label", "screen_labels", "SUBSCRIPT_KERN", "subscripted"]

#: Between a letter and its subscript: typography (a kern), not a gap of the layout scale.
SUBSCRIPT_KERN = 0.03

#: The widest a token is drawn on screen, in half-em cells (a Latin letter is one, a kanji
#: or an emoji two): past it the token is abbreviated with an ellipsis (``supercalifr…``).
#: Captions and subtitles always carry the full token.
TOKEN_CELLS = 12
ELLIPSIS = "\u2026"
#: Text presentation selector: asks pango for an outline glyph (Symbola) instead of the
#: colour bitmap emoji, which manim's SVG path cannot draw (it would leave a blank).
_TEXT_PRESENTATION = "\ufe0e"


def cells(ch: str) -> int:
    """Half-em cells a character takes: 2 for wide (CJK, emoji), 0 for combining marks."""
    if unicodedata.combining(ch) or ch in (_TEXT_PRESENTATION, "\ufe0f"):
        return 0
    return 2 if is_wide(ch) else 1


def screen_label(token: str, max_cells: int = TOKEN_CELLS) -> str:
    """``token`` as drawn on screen: whole if it fits ``max_cells``, or if its word is no
    longer than :data:`TOKEN_CELLS` (a short word is never cut); else cut with an ellipsis
    (a repeated word's subscript is kept: ``supercal…₂``)."""
    sub = ""
    while token and token[-1] in "₀₁₂₃₄₅₆₇₈₉":
        sub, token = token[-1] + sub, token[:-1]
    if sum(cells(c) for c in token + sub) <= max_cells or sum(map(cells, token)) <= TOKEN_CELLS:
        return token + sub
    out, used = "", 1 + len(sub)
    for c in token:
        if used + cells(c) > max_cells:
            break
        out, used = out + c, used + cells(c)
    return out + ELLIPSIS + sub


def screen_labels(tokens, max_cells: int = TOKEN_CELLS) -> list[str]:
    """:func:`screen_label` of every token."""
    return [screen_label(t, max_cells) for t in tokens]


def _is_emoji(ch: str) -> bool:
    o = ord(ch)
    return 0x1F000 <= o <= 0x1FAFF or 0x2600 <= o <= 0x27BF


def drawable(s: str) -> str:
    """``s`` with every emoji asked in text presentation, so it draws as an outline glyph."""
    if not any(_is_emoji(c) for c in s):
        return s
    s = s.replace("\ufe0f", "")
    return "".join(c + _TEXT_PRESENTATION if _is_emoji(c) else c for c in s)


#: How many distinct texts :func:`label` keeps built (least recently used dropped first).
#: A scene asks for the same text many times (a grid's token labels once per cell row, a
#: sign or a unit beside every number): a kept text is copied, which costs a tenth of
#: building it (pango's SVG written, read and parsed).
LABELS_KEPT = 2048
#: Longer texts are not kept: caption lines and paragraphs, each asked for once or twice,
#: would take most of the memory (a text keeps about 0.1 MB of outlines on average).
KEPT_CHARS = 24
_built: OrderedDict[tuple, Text] = OrderedDict()


def label(s: str, size: float = style.LABEL_SIZE, color: str | None = None,
          mono: bool = False, weight: str = "NORMAL") -> Text:
    """A one-line text in the project font (mono for code); emoji drawn as outlines.

    The same arguments give the same text: the first call builds it, later ones return a
    copy of it (a new mobject, free to move and recolour).
    """
    font, fill = style.MONO if mono else style.FONT, color or style.theme().fg
    key = (drawable(s), font, float(size), str(fill), weight)
    kept = _built.get(key)
    if kept is not None:
        _built.move_to_end(key)
        return kept.copy()
    text = Text(key[0], font=font, font_size=size, color=fill, weight=weight)
    # Each glyph keeps the parsed SVG path it was built from (``path_obj``); nothing reads
    # it after construction, but every copy (each FadeIn, Transform, .animate) deep-copies
    # it: dropping it makes copying a caption about 8x cheaper.
    for m in text.get_family():
        if getattr(m, "path_obj", None) is not None:
            m.path_obj = None
    if len(s) > KEPT_CHARS:
        return text
    _built[key] = text
    if len(_built) > LABELS_KEPT:
        _built.popitem(last=False)
    return text.copy()


_DESCENDERS = set("gjpqyQ,;()[]{}|/_₀₁₂₃₄₅₆₇₈₉")


def baseline(text: Text, s: str) -> float:
    """The y of ``text``'s baseline: the lowest bottom among glyphs without descenders."""
    glyphs = [c for c in s if not c.isspace()]
    bottoms = [g.get_bottom()[1] for c, g in zip(glyphs, text.submobjects)
               if c not in _DESCENDERS]
    return min(bottoms) if bottoms else text.get_bottom()[1]


def baseline_drop(size: float) -> float:
    """How far a line's baseline lies under the centre of an ``x`` of font ``size``: lines
    laid out from their centres (a readout's row, a line of words) sit on this baseline."""
    ref = label("x", size)
    return ref.get_center()[1] - baseline(ref, "x")


def paragraph(s: str, max_width: float, size: float = style.CAPTION_SIZE,
              color: str | None = None, max_lines: int = 2, line_gap: float = style.CLOSE) -> VGroup:
    """Text wrapped to ``max_width`` frame units in at most ``max_lines`` centred lines.

    Measures one rendered line to learn the average character width, so it wraps
    Japanese (full-width) and English (proportional) alike; shrinks only if the
    text cannot fit in ``max_lines`` lines.
    """
    probe = label(s, size, color)
    if probe.width <= max_width:
        return VGroup(probe)
    per_char = probe.width / max(1, len(s))
    max_chars = max(8, int(max_width / per_char))
    lines = paragraph_lines(s, max_chars)
    while len(lines) > max_lines and max_chars < len(s):
        max_chars = int(max_chars * 1.1) + 1
        lines = paragraph_lines(s, max_chars)
    group = VGroup(*[label(line, size, color) for line in lines])
    group.arrange(DOWN, buff=line_gap)
    return fit_width(group, max_width)


#: The bullet's radius, and the gap between it and its item's text.
BULLET_RADIUS = 0.06
BULLET_GAP = style.SNUG + style.TIGHT


def bullet_list(items, width: float, color: str, sub_color: str, dot_color: str,
                size: float = style.LABEL_SIZE, sub_size: float = style.SMALL_SIZE) -> VGroup:
    """A list of ``(line, subline)`` pairs with a dot before each, every item at most
    ``width`` wide, dot included (the text wraps to what the dot leaves).

    Returns a VGroup of items; each item is ``VGroup(dot, VGroup(line, subline))`` with
    every wrapped line aligned left (the s25 bug list and the closing card use it).
    """
    from manim import LEFT, Dot

    text_width = width - (2 * BULLET_RADIUS + BULLET_GAP)
    out = []
    for main, sub in items:
        first = paragraph(main, text_width, size, color)
        second = paragraph(sub, text_width, sub_size, sub_color)
        text = VGroup(first, second).arrange(DOWN, buff=style.NEAR, aligned_edge=LEFT)
        for part in (first, second):
            for line in part:
                line.align_to(text, LEFT)
        dot = Dot(radius=BULLET_RADIUS, color=dot_color).next_to(first[0], LEFT, buff=BULLET_GAP)
        out.append(VGroup(dot, text))
    return VGroup(*out).arrange(DOWN, buff=style.HAIR + style.ROW, aligned_edge=LEFT)


def em(size: float) -> float:
    """Manim units of one em at font size ``size`` (the scale :class:`~manim.Text` uses)."""
    return size * EM_PER_FONT_SIZE


def subscripted(main: str, sub: str, color: str, size: float = style.LABEL_SIZE,
                suffix: str = "") -> VGroup:
    """``main`` with ``sub`` as a subscript (``W`` + ``Q``), then an optional ``suffix``.

    Parameters
    ----------
    main, sub
        The symbol and its subscript; ``sub`` may be empty.
    color
        Colour of the whole symbol.
    size
        Font size of ``main``; the subscript is set at 65 % of it.
    suffix
        Text after the subscript at full size (e.g. ``"(t)"``).
    """
    m = label(main, size, color)
    parts = [m]
    if sub:
        s = label(sub, size * 0.65, color)
        s.next_to(m, RIGHT, buff=SUBSCRIPT_KERN)
        s.align_to(m, DOWN).shift(0.35 * em(size) * DOWN * 0.5)
        parts.append(s)
    if suffix:
        x = label(suffix, size, color)
        x.next_to(VGroup(*parts), RIGHT, buff=style.NUDGE)
        x.shift((baseline(m, main) - baseline(x, suffix)) * UP)
        parts.append(x)
    return VGroup(*parts)


def backed(mob, width: float = 5.0):
    """Give a label a background-coloured outline, so it reads where it crosses a line."""
    mob.set_stroke(style.theme().background, width=width, background=True)
    return mob
