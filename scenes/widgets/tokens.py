"""The sentence as a strip of token chips."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import RIGHT, RoundedRectangle, VGroup

from .. import style
from .text import TOKEN_CELLS, baseline, baseline_drop, cells, label, screen_label

__all__ = ["CHIP_PAD", "CROWDED_CHIP_PAD", "LONG_CUTS", "MIN_CHIP_SIZE", "TokenStrip", "shown_names"]

#: The smallest font size a chip's word is scaled to while chips share one width.
MIN_CHIP_SIZE = 16
#: Room a chip leaves around its word (both sides together), and the least it leaves when
#: the strip is crowded and its words shrink.
CHIP_PAD = style.ROW
CROWDED_CHIP_PAD = style.TIGHT
#: How far a token longer than :data:`~scenes.widgets.text.TOKEN_CELLS` half-em cells is cut
#: (half-em cells) when the densest picture of its sentence leaves it too little room.
#: Tokens up to ``TOKEN_CELLS`` are never cut: widgets lay out smaller, or wrap, instead.
LONG_CUTS = (TOKEN_CELLS, 9, 7, 5)
#: The smallest font size a crowded widget shrinks a token's name to: 13 px per em at 720p,
#: above the 12 px under which a lower-case letter no longer reads.
READABLE_SIZE = style.FLOOR_SIZE
#: The least gap between two chips of their own widths under neighbouring columns.
NEIGHBOUR_GAP = style.SNUG
#: The gap between the two rows of a staggered strip, and around a word in its half chip.
STAGGER_GAP = style.HAIR * 2


def shown_names(tokens: Sequence[str], room: float) -> list[str]:
    """The token names every widget of a sentence draws: one abbreviation per token.

    Tokens of up to :data:`~scenes.widgets.text.TOKEN_CELLS` half-em cells stay whole.
    Longer ones are cut (:func:`~scenes.widgets.text.screen_label`) to the longest of
    :data:`LONG_CUTS` that fits ``room`` frame units at :data:`READABLE_SIZE` (the shortest
    cut when none does), decided once for the sentence, so that no two widgets, frames or
    sections show one word two ways.

    Parameters
    ----------
    tokens
        The token names (a story's ``labels``).
    room
        The width the tightest widget gives one name (the chip of a column in the densest
        chart of this many tokens).
    """
    long = [t for t in tokens if sum(map(cells, t)) > TOKEN_CELLS]
    for cut in LONG_CUTS:
        if all(label(screen_label(t, cut), READABLE_SIZE).width <= room for t in long):
            break
    return [screen_label(t, cut) for t in tokens]


def _apart(widths: Sequence[float], step: int, pitch: float) -> bool:
    """Whether chips of ``widths``, centred on columns ``pitch`` apart, keep
    :data:`NEIGHBOUR_GAP` from the chip ``step`` columns on (the next one on their row)."""
    return all((a + b) / 2 + NEIGHBOUR_GAP <= step * pitch for a, b in zip(widths, widths[step:]))


class TokenStrip(VGroup):
    """One rounded chip per token, left to right, fitted to ``width`` frame units.

    ``chips[i]`` is token i's chip (a VGroup of box and text); ``mark(i)`` returns
    a copy of its box in the highlight colour, to show which token is followed.
    Font size shrinks with the token count so 12 tokens still fit and read.
    ``min_cell`` widens every chip to at least that width (e.g. to match bar columns).
    ``shown`` are the words as drawn (the names given: :func:`shown_names` cuts them) and
    ``font_size`` their size after fitting; ``cell_width`` the width of a column's cell (the
    common chip width, or ``min_cell`` when a long word's chip is wider than its neighbours').
    """

    def __init__(self, labels: list[str], width: float | None = None,
                 size: float = style.LABEL_SIZE, color: str | None = None,
                 chip_height: float = 0.55, buff: float = style.CLOSE, min_cell: float = 0.0):
        t = style.theme()
        width = width or style.safe_box().width
        self.labels = list(labels)
        # A common chip width keeps columns aligned with grids drawn below the strip; when
        # one long token would shrink every chip below a readable size, an unaligned strip
        # gives each chip its own text's width; when that is still too wide, the words alone
        # shrink (down to READABLE_SIZE), the chips keeping their height.
        shown = list(labels)
        fsize = size
        for fsize in [size, *np.arange(MIN_CHIP_SIZE, READABLE_SIZE - 0.01, -0.5)]:
            pad = CHIP_PAD if fsize == size else CROWDED_CHIP_PAD
            texts = [label(s, fsize, color or t.fg) for s in shown]
            cell = max(max(tx.width for tx in texts) + pad, chip_height * 1.2, min_cell)
            cells = [cell] * len(texts)
            total = len(texts) * cell + (len(texts) - 1) * buff
            if not min_cell and fsize * width / total < MIN_CHIP_SIZE:
                cells = [max(tx.width + pad, chip_height * 1.2) for tx in texts]
                total = sum(cells) + (len(texts) - 1) * buff
            if fsize * width / total >= MIN_CHIP_SIZE or total <= width:
                break
        # Chips under columns (``min_cell``) that still need shrinking below the readable size
        # at one common width: each chip takes its own word's width, still centred on its
        # column, as long as no two neighbours meet (a long word between short ones).
        # Failing that (two long words side by side, twelve columns), the chips stagger on two
        # rows of half their height in the same band, each free to reach under the
        # neighbouring columns.
        centres, heights = None, [chip_height] * len(texts)
        self.cell_width = cells[0]
        if min_cell and total > width:
            pitch = min_cell + buff
            own = [max(tx.width + pad, chip_height) for tx in texts]
            half = (chip_height - STAGGER_GAP) / 2
            low = [max(tx.width + pad, half) for tx in texts]
            if _apart(own, 1, pitch):
                cells, centres = own, [(k * pitch, 0.0) for k in range(len(own))]
            elif max(tx.height for tx in texts) + STAGGER_GAP <= half and _apart(low, 2, pitch):
                rise = (half + STAGGER_GAP) / 2
                cells, heights = low, [half] * len(texts)
                centres = [(k * pitch, rise if k % 2 == 0 else -rise) for k in range(len(low))]
            if centres is not None:
                total, self.cell_width = width, min_cell
        self.shown, self.font_size = shown, fsize * min(1.0, width / total)
        scale = min(1.0, width / total)
        chips = []
        # Sit every word on one baseline (centring boxes would bob "the" against "ran").
        drop = baseline_drop(fsize)
        for s, tx, cell, height in zip(shown, texts, cells, heights):
            box = RoundedRectangle(corner_radius=0.08, width=cell, height=height,
                                   stroke_color=t.muted, stroke_width=1.5,
                                   fill_color=t.panel, fill_opacity=1.0)
            tx.move_to(box)
            tx.shift((box.get_center()[1] - drop - baseline(tx, s)) * np.array([0, 1.0, 0]))
            chips.append(VGroup(box, tx))
        super().__init__(*chips)
        if centres is None:
            self.arrange(RIGHT, buff=buff)
        else:
            for chip, (x, y) in zip(chips, centres):
                chip.move_to(np.array([x, y, 0.0]))
            self.move_to(np.zeros(3))
        if scale < 1.0:
            self.scale(scale)
            self.cell_width *= scale
        self.chips = chips

    def box(self, i: int):
        return self.chips[i][0]

    def text(self, i: int):
        return self.chips[i][1]

    def mark(self, i: int, color: str | None = None) -> RoundedRectangle:
        """A highlight outline around chip ``i`` (add it to the scene to show it)."""
        m = self.box(i).copy()
        m.set_fill(opacity=0).set_stroke(color or style.theme().highlight, width=4)
        return m

    def centers(self) -> np.ndarray:
        return np.array([c.get_center() for c in self.chips])
