"""The PDF handout (fpdf2): one landscape A4 page per section with its title, still and script.

For printing, and as a backup when video fails in the room. Text is set in Noto Sans CJK
(embedded, subset), so Japanese and English both render, and stays text (selectable, read
aloud); the file declares its title and language, and each still carries the section's alt
text (fpdf2 then tags the document: a Figure per still).
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

from .deck import Deck
from .style import (
    CJK_FONT_BOLD_FILES,
    CJK_FONT_FILES,
    CJK_FONT_INDEX,
    FALLBACK_FONT_BOLD_FILES,
    FALLBACK_FONT_FILES,
    find_font,
)

PAGE_FORMAT = "A4"
MARGIN_MM = 15
TITLE_PT, FOOT_PT = 20, 9
BODY_PTS = (12, 11, 10, 9, 8)   # the script's type size: the largest that fits the page
IMAGE_H_MM = (125, 60)          # the still (16:9): as tall as fits, between these
LINE_FACTOR = 0.52              # line height in mm per point of type
FOOTER_MM = 8
FAMILY = "handout"
FALLBACK = "handout-symbols"


class HandoutWriter:
    """Lays out the handout page by page."""

    def __init__(self, deck: Deck):
        from fpdf import FPDF, ViewerPreferences

        regular = find_font(CJK_FONT_FILES)
        if regular is None:
            raise RuntimeError(f"no CJK font for the handout (looked for {', '.join(CJK_FONT_FILES)}; "
                               "Debian: apt-get install fonts-noto-cjk)")
        bold = find_font(CJK_FONT_BOLD_FILES) or regular
        self.deck = deck
        self.pdf = FPDF(orientation="L", unit="mm", format=PAGE_FORMAT)
        self.pdf.set_margins(MARGIN_MM, MARGIN_MM, MARGIN_MM)
        self.pdf.set_auto_page_break(True, margin=MARGIN_MM)
        self.pdf.add_font(FAMILY, "", str(regular), collection_font_number=CJK_FONT_INDEX)
        self.pdf.add_font(FAMILY, "B", str(bold), collection_font_number=CJK_FONT_INDEX)
        fallback = find_font(FALLBACK_FONT_FILES)
        if fallback is not None:  # glyphs the CJK font lacks are taken from here
            self.pdf.add_font(FALLBACK, "", str(fallback))
            self.pdf.add_font(FALLBACK, "B", str(find_font(FALLBACK_FONT_BOLD_FILES) or fallback))
            self.pdf.set_fallback_fonts([FALLBACK])
        # what a screen reader and a viewer's title bar announce: the title (not the file
        # name) and the language the text is in
        self.pdf.set_title(deck.title)
        self.pdf.set_lang(deck.lang)
        self.pdf.viewer_preferences = ViewerPreferences(display_doc_title=True)

    def write(self, dest: Path) -> Path:
        for s in self.deck.sections:
            self._page(s)
        self.pdf.output(str(dest))
        return dest

    def _text_height(self, lines: list[str], size: int) -> float:
        self.pdf.set_font(FAMILY, "", size)
        # output="LINES" returns the list of lines; fpdf2's annotation is the union of every output
        n = sum(len(cast(list, self.pdf.multi_cell(0, size * LINE_FACTOR, line, dry_run=True, output="LINES")))
                for line in lines)
        return n * size * LINE_FACTOR

    def _fit(self, lines: list[str], room: float) -> tuple[int, float]:
        """(type size, image height): the largest still and type that keep the page to one page."""
        for size in BODY_PTS:
            text = self._text_height(lines, size)
            image = min(IMAGE_H_MM[0], room - text)
            if image >= IMAGE_H_MM[1]:
                return size, image
        return BODY_PTS[-1], IMAGE_H_MM[1]

    def _page(self, s) -> None:
        pdf = self.pdf
        pdf.add_page()
        pdf.set_font(FAMILY, "B", TITLE_PT)
        pdf.multi_cell(0, TITLE_PT * LINE_FACTOR, f"{s.number:02d}   {s.title}", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(3)
        lines = s.notes.splitlines()
        room = pdf.h - MARGIN_MM - FOOTER_MM - pdf.get_y() - 5
        size, h = self._fit(lines, room)
        w = h * 16 / 9
        pdf.image(str(s.poster), x=(pdf.w - w) / 2, h=h, w=w, alt_text=self.deck.alt_text(s))
        pdf.ln(5)
        pdf.set_font(FAMILY, "", size)
        for line in lines:
            pdf.multi_cell(0, size * LINE_FACTOR, line, new_x="LMARGIN", new_y="NEXT")
        pdf.set_auto_page_break(False)
        pdf.set_y(pdf.h - MARGIN_MM - FOOTER_MM / 2)
        pdf.set_font(FAMILY, "", FOOT_PT)
        pdf.cell(0, FOOTER_MM / 2, f"{self.deck.title} · {self.deck.sentence}", align="R")
        pdf.set_auto_page_break(True, margin=MARGIN_MM)


def write_pdf(deck: Deck, dest: Path) -> Path:
    """Write the handout of ``deck`` at ``dest`` (the caller renames it into place)."""
    return HandoutWriter(deck).write(dest)
