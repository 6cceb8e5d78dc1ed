"""A legend of outlines: what each coloured frame on screen marks."""

from __future__ import annotations

from collections.abc import Sequence

from manim import RIGHT, RoundedRectangle, VGroup

from .. import style
from .text import label

__all__ = ["MarkLegend"]


class MarkLegend(VGroup):
    """A row of small outlined swatches, each followed by what that outline marks.

    Parameters
    ----------
    items
        ``(colour, text)`` pairs, in order.
    """

    def __init__(self, items: Sequence[tuple[str, str]], size: float = style.TINY_SIZE):
        parts = []
        for color, text in items:
            sw = RoundedRectangle(corner_radius=0.04, width=0.34, height=0.22,
                                  stroke_color=color, stroke_width=2.5, fill_opacity=0)
            tx = label(text, size, color).next_to(sw, RIGHT, buff=style.TIGHT)
            parts.append(VGroup(sw, tx))
        super().__init__(*parts)
        self.arrange(RIGHT, buff=style.NUDGE + style.ROW)
        self.items = parts
