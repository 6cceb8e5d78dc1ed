"""The frame around every scene: the section title and the caption bar."""

from __future__ import annotations

import numpy as np
from manim import DOWN, RoundedRectangle, VGroup

from .. import style
from .text import label, paragraph

__all__ = ["CaptionBar", "SectionTitle"]


class SectionTitle(VGroup):
    """``NN  Title`` at the top-left of the safe area."""

    def __init__(self, number: int, title: str):
        t = style.theme()
        num = label(f"{number:02d}", style.TITLE_SIZE, t.muted)
        name = label(title, style.TITLE_SIZE, t.fg)
        super().__init__(num, name)
        self.arrange(np.array([1.0, 0, 0]), buff=style.ROW, aligned_edge=np.array([0, -1.0, 0]))
        safe = style.safe_box()
        safe.place(safe.fit(self), "top_left")


class CaptionBar(VGroup):
    """A caption on a rounded panel at the bottom of the frame, wrapped to two lines."""

    def __init__(self, text: str):
        t = style.theme()
        width = style.safe_box().width
        if "\n" in text:   # lines broken by scenes.captions (the .srt breaks there too)
            body = VGroup(*[label(x, style.CAPTION_SIZE, t.fg) for x in text.split("\n")])
            body.arrange(DOWN, buff=style.CLOSE).scale_to_fit_width(min(body.width, width - 0.5))
        else:
            body = paragraph(text, width - 0.5, style.CAPTION_SIZE, t.fg)
        panel = RoundedRectangle(
            corner_radius=0.12, width=width, height=style.CAPTION_HEIGHT,
            fill_color=t.panel, fill_opacity=0.92, stroke_width=0,
        )
        panel.move_to(np.array([0.0, style.safe_bottom() + style.CAPTION_HEIGHT / 2, 0]))
        if body.height > style.CAPTION_HEIGHT - style.NEAR:
            body.scale_to_fit_height(style.CAPTION_HEIGHT - style.NEAR)
        body.move_to(panel)
        super().__init__(panel, body)
        self.text = text
