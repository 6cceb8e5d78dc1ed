"""Text helpers: every string on screen is made here, in the pinned font."""

from __future__ import annotations

from manim import DOWN, Text, VGroup

from .. import style


def label(s: str, size: float = style.LABEL_SIZE, color: str | None = None,
          mono: bool = False, weight: str = "NORMAL") -> Text:
    """A one-line text in the project font (mono for code)."""
    text = Text(s, font=style.MONO if mono else style.FONT, font_size=size,
                color=color or style.theme().fg, weight=weight)
    # Each glyph keeps the parsed SVG path it was built from (``path_obj``); nothing reads
    # it after construction, but every copy (each FadeIn, Transform, .animate) deep-copies
    # it: dropping it makes copying a caption about 8x cheaper.
    for m in text.get_family():
        if getattr(m, "path_obj", None) is not None:
            m.path_obj = None
    return text


def wrap_lines(s: str, max_chars: int) -> list[str]:
    """Split ``s`` into balanced lines of at most about ``max_chars`` characters.

    Latin text breaks only at spaces; Japanese prefers 。 and 、, then spaces,
    and falls back to any character (Japanese has no spaces between words).
    """
    s = s.strip()
    if len(s) <= max_chars:
        return [s]
    n_lines = -(-len(s) // max_chars)
    target = len(s) / n_lines
    cjk = any(ord(c) > 0x2E80 for c in s)
    best, best_cost = None, float("inf")
    for i in range(1, len(s)):
        c = s[i - 1]
        if c in "。、，；：":
            penalty = 0.0
        elif c == " " or s[i] == " ":
            penalty = 2.0 if cjk else 0.0
        elif cjk and ord(c) > 0x2E80:
            penalty = 6.0
        else:
            continue
        if i > max_chars:
            break
        cost = abs(i - target) + penalty
        if cost < best_cost:
            best, best_cost = i, cost
    i = best or max_chars
    return [s[:i].strip()] + wrap_lines(s[i:], max_chars)


_DESCENDERS = set("gjpqyQ,;()[]{}|/_₀₁₂₃₄₅₆₇₈₉")


def baseline(text: Text, s: str) -> float:
    """The y of ``text``'s baseline: the lowest bottom among glyphs without descenders."""
    glyphs = [c for c in s if not c.isspace()]
    bottoms = [g.get_bottom()[1] for c, g in zip(glyphs, text.submobjects)
               if c not in _DESCENDERS]
    return min(bottoms) if bottoms else text.get_bottom()[1]


def paragraph(s: str, max_width: float, size: float = style.CAPTION_SIZE,
              color: str | None = None, max_lines: int = 2, line_gap: float = 0.12) -> VGroup:
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
    lines = wrap_lines(s, max_chars)
    while len(lines) > max_lines and max_chars < len(s):
        max_chars = int(max_chars * 1.1) + 1
        lines = wrap_lines(s, max_chars)
    group = VGroup(*[label(line, size, color) for line in lines])
    group.arrange(DOWN, buff=line_gap)
    if group.width > max_width:
        group.scale_to_fit_width(max_width)
    return group
