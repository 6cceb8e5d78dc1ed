"""The 72 heads of the real model as one picture: a grid of small bar rows, one cell a head.

BertViz's model view for one word: row ``l`` is layer ``l + 1``, column ``h`` head ``h + 1``;
each cell holds the followed word's row in that head, one bar per model token in reading
order (``[CLS]`` and ``[SEP]`` grey, the words in the weight colour), heights on the scale
0 to 1 of the cell. Layer names run down the left, head numbers along the top.

Only section 26 draws it; it is drawn once (no live values).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from manim import DOWN, LEFT, Rectangle, RoundedRectangle, VGroup

from scenes import style
from scenes.geometry import Box
from scenes.widgets.text import label

__all__ = ["CELL_FILL", "HeadGrid"]

#: Fill of a cell's frame, over the panel colour: enough to see 72 cells, never a bar.
CELL_FILL = 0.6
#: How much of a cell's pitch its frame takes (the rest keeps cells apart).
CELL_SHARE = 0.9
#: How much of a bar's slot the bar takes.
BAR_SHARE = 0.72
#: The thinnest bar drawn (a weight of 0.00 still shows where its token is).
MIN_BAR = 0.006


class HeadGrid(VGroup):
    """Cells of small bar rows, ``rows.shape[:2]`` of them, fitted into ``box``.

    Parameters
    ----------
    rows
        ``(layers, heads, tokens)``: the followed word's weight on each token in each head.
    box
        Where the grid goes, with its layer names and head numbers.
    layer_name
        Layer number (from 1) -> its name on the left ("layer 3").
    special
        Token indices drawn grey (``[CLS]``, ``[SEP]``).

    Attributes
    ----------
    frames, bars
        ``frames[l][h]`` a cell's frame; ``bars[l]`` one group of all of layer ``l``'s bars.
    layer_names, head_numbers
        The names down the left and the numbers along the top.
    """

    def __init__(self, rows: np.ndarray, box: Box, layer_name: Callable[[int], str],
                 special: tuple[int, ...]):
        t = style.theme()
        layers, heads, n = rows.shape
        self.layer_names = VGroup(*[label(layer_name(layer + 1), style.SMALL_SIZE, t.muted)
                                    for layer in range(layers)])
        name_w = max(m.width for m in self.layer_names) + style.GAP
        self.head_numbers = VGroup(*[label(str(h + 1), style.TINY_SIZE, t.muted) for h in range(heads)])
        top_h = max(m.height for m in self.head_numbers) + style.TIGHT
        pitch_x = (box.width - name_w) / heads
        pitch_y = (box.height - top_h) / layers
        cell_w, cell_h = pitch_x * CELL_SHARE, pitch_y * CELL_SHARE
        left, top = box.l + name_w, box.t - top_h
        self.pitch = (pitch_x, pitch_y)
        self.frames: list[list[RoundedRectangle]] = []
        self.bars: list[VGroup] = []
        slot = (cell_w - 2 * style.NUDGE) / n
        usable = cell_h - 2 * style.NUDGE
        for layer in range(layers):
            cy = top - (layer + 0.5) * pitch_y
            self.layer_names[layer].move_to([box.l, cy, 0], aligned_edge=LEFT)
            frame_row, bar_row = [], VGroup()
            for h in range(heads):
                cx = left + (h + 0.5) * pitch_x
                frame = RoundedRectangle(corner_radius=0.04, width=cell_w, height=cell_h, stroke_color=t.grid,
                                         stroke_width=1.2, fill_color=t.panel, fill_opacity=CELL_FILL)
                frame.move_to([cx, cy, 0])
                frame_row.append(frame)
                floor = cy - cell_h / 2 + style.NUDGE
                for j in range(n):
                    height = max(float(rows[layer, h, j]) * usable, MIN_BAR)
                    bar = Rectangle(width=slot * BAR_SHARE, height=height, stroke_width=0, fill_opacity=1.0,
                                    fill_color=t.muted if j in special else t.weight)
                    bar.move_to([cx - cell_w / 2 + style.NUDGE + (j + 0.5) * slot, floor, 0], aligned_edge=DOWN)
                    bar_row.add(bar)
            self.frames.append(frame_row)
            self.bars.append(bar_row)
        for h, num in enumerate(self.head_numbers):
            num.move_to([left + (h + 0.5) * pitch_x, box.t - top_h / 2, 0])
        self.cells = VGroup(*[f for row in self.frames for f in row])
        super().__init__(self.layer_names, self.head_numbers, self.cells, *self.bars)

    def frame(self, layer: int, head: int) -> RoundedRectangle:
        """The frame of the cell of ``(layer, head)`` (0-based)."""
        return self.frames[layer][head]

    def outline(self, layer: int, head: int, color: str, width: float = 4.0) -> RoundedRectangle:
        """A coloured outline of one cell (add it to show it)."""
        return self.frame(layer, head).copy().set_fill(opacity=0).set_stroke(color, width=width)

    def tint(self, cells: np.ndarray, color: str, opacity: float) -> VGroup:
        """Fills behind the cells where ``cells`` (``(layers, heads)`` booleans) holds."""
        return VGroup(*[self.frame(layer, h).copy().set_stroke(width=0).set_fill(color, opacity=opacity)
                        for layer, h in zip(*np.nonzero(cells))])
