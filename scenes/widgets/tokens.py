"""The sentence as a strip of token chips."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import RIGHT, RoundedRectangle, VGroup

from .. import style
from .text import TOKEN_CELLS, baseline, baseline_drop, label, screen_label, screen_labels

__all__ = ["CUT_STEPS", "MIN_CHIP_SIZE", "TokenStrip", "one_cut"]

#: The smallest font size a chip's word is scaled to while chips share one width.
MIN_CHIP_SIZE = 16
#: How far long tokens are cut (half-em cells) when chips would otherwise be too small.
CUT_STEPS = (TOKEN_CELLS, 9, 7, 5)



def one_cut(tokens: Sequence[str],
            *makers: Callable[[list[str]], object]) -> tuple[list[str], list]:
    """The widgets ``makers`` build from the token names, all showing one abbreviation of
    every word: the shortest cut any of them needs, decided once for a frame.

    Each widget cuts long names on its own (:data:`CUT_STEPS`) and reports the half-em cells
    it cut to as ``cut``. Every maker is called with the names as :func:`screen_labels` cuts
    them; while one of the widgets cuts shorter than that, all are built again from the names
    at its cut. A widget given names no longer than its own cut draws them as given, so in
    the end every widget draws the same strings (and when none needs a cut, each is built
    once, exactly as from the names cut at :data:`TOKEN_CELLS`).

    Parameters
    ----------
    tokens
        The token names (a story's ``labels``).
    makers
        One callable per widget: names -> the widget, which has a ``cut`` attribute
        (:class:`TokenStrip`, :class:`~scenes.widgets.score_grid.ScoreGrid`,
        :class:`~scenes.widgets.score_columns.ScoreColumns`,
        :class:`~scenes.widgets.score_columns.ScoreSquares`, ``line_up_labels``' group).

    Returns
    -------
    names : list of str
        The names as every widget shows them (for any other text naming a token in the frame).
    widgets : list
        The widgets, in the order of ``makers``.
    """
    cut = TOKEN_CELLS
    while True:
        names = screen_labels(tokens, cut)
        made = [make(names) for make in makers]
        least = min(m.cut for m in made)
        if least >= cut:
            return names, made
        cut = least


class TokenStrip(VGroup):
    """One rounded chip per token, left to right, fitted to ``width`` frame units.

    ``chips[i]`` is token i's chip (a VGroup of box and text); ``mark(i)`` returns
    a copy of its box in the highlight colour, to show which token is followed.
    Font size shrinks with the token count so 12 tokens still fit and read.
    ``min_cell`` widens every chip to at least that width (e.g. to match bar columns).
    ``shown`` are the words as drawn, cut to ``cut`` half-em cells (see :func:`one_cut`).
    """

    def __init__(self, labels: list[str], width: float | None = None,
                 size: float = style.LABEL_SIZE, color: str | None = None,
                 chip_height: float = 0.55, buff: float = style.CLOSE, min_cell: float = 0.0):
        t = style.theme()
        width = width or style.safe_box().width
        self.labels = list(labels)
        # A common chip width keeps columns aligned with grids drawn below the strip; when
        # one long token would shrink every chip below a readable size, an unaligned strip
        # gives each chip its own text's width, and then long tokens are cut shorter.
        for max_cells in CUT_STEPS:
            shown = [screen_label(s, max_cells) for s in labels]
            texts = [label(s, size, color or t.fg) for s in shown]
            cell = max(max(tx.width for tx in texts) + 0.3, chip_height * 1.2, min_cell)
            cells = [cell] * len(texts)
            total = len(texts) * cell + (len(texts) - 1) * buff
            if not min_cell and size * width / total < MIN_CHIP_SIZE:
                cells = [max(tx.width + 0.3, chip_height * 1.2) for tx in texts]
                total = sum(cells) + (len(texts) - 1) * buff
            if size * width / total >= MIN_CHIP_SIZE:
                break
        self.shown, self.cut = shown, max_cells
        scale = min(1.0, width / total)
        chips = []
        # Sit every word on one baseline (centring boxes would bob "the" against "ran").
        drop = baseline_drop(size)
        for s, tx, cell in zip(shown, texts, cells):
            box = RoundedRectangle(corner_radius=0.08, width=cell, height=chip_height,
                                   stroke_color=t.muted, stroke_width=1.5,
                                   fill_color=t.panel, fill_opacity=1.0)
            tx.move_to(box)
            tx.shift((box.get_center()[1] - drop - baseline(tx, s)) * np.array([0, 1.0, 0]))
            chips.append(VGroup(box, tx))
        super().__init__(*chips)
        self.arrange(RIGHT, buff=buff)
        if scale < 1.0:
            self.scale(scale)
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
