"""How the slide outputs look: colours per theme, type sizes shared by the writers, the CJK font."""

from __future__ import annotations

from pathlib import Path

#: (background, foreground, muted) per theme, as RGB hex: the slides frame the clips.
COLOURS = {"dark": ("111318", "F2F2F2", "9AA0A6"), "light": ("FFFFFF", "1A1A1A", "5F6368")}
#: The font the PDF handout embeds (Debian fonts-noto-cjk; its Latin glyphs are Source Sans).
CJK_FONT_FILES = ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",)
CJK_FONT_BOLD_FILES = ("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",)
#: For the few symbols Noto Sans CJK lacks (the transpose mark in "Kᵀ"): Debian fonts-dejavu-core.
FALLBACK_FONT_FILES = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",)
FALLBACK_FONT_BOLD_FILES = ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",)
#: Index of the Japanese face inside the Noto Sans CJK collection (JP, KR, SC, TC, HK, ...).
CJK_FONT_INDEX = 0
#: The family name browsers and office suites know the font by.
CJK_FAMILY = "Noto Sans CJK JP"


def find_font(candidates: tuple[str, ...]) -> Path | None:
    """The first of ``candidates`` that exists."""
    return next((Path(p) for p in candidates if Path(p).is_file()), None)
