"""Weight matrices as small chips, and the row that says what each one makes (sections 1 and 4).

- :class:`MatrixChip`: ``W_Q [[a b] [c d]]``, live entries aligned on their decimal points;
- :class:`RoleRow`: a chip, the vector it makes, and that role's meaning in words.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from manim import DOWN, LEFT, RIGHT, VGroup, VMobject

from .. import style
from .live_number import LiveNumber
from .readouts import WIDE_NUMBER, VectorReadout
from .text import em, label, subscripted

__all__ = ["MatrixChip", "RoleRow"]


def _bracket(height: float, side: int, color: str, stroke: float = 2.0) -> VMobject:
    """A square bracket ``[`` (side = -1) or ``]`` (side = +1) of the given height."""
    w = 0.08
    x0 = 0.0
    pts = [np.array([x0 - side * w, height / 2, 0]), np.array([x0, height / 2, 0]),
           np.array([x0, -height / 2, 0]), np.array([x0 - side * w, -height / 2, 0])]
    b = VMobject(stroke_color=color, stroke_width=stroke)
    b.set_points_as_corners(pts)
    return b


class MatrixChip(VGroup):
    """A small weight matrix with its name: ``W_Q [[a b] [c d]]``.

    Parameters
    ----------
    sub
        The subscript of the name (``"Q"``, ``"K"``, ``"V"``).
    matrix
        The d x d matrix shown (from the story's head).
    color
        The role colour of the name and the brackets.
    get
        Optional zero-argument callable returning the matrix to show on every frame
        (e.g. a blend of two matrices driven by a ValueTracker); the entries then follow it.
    size
        Font size of the entries.
    suffix
        Text after the subscript (``"(t)"``).

    Notes
    -----
    ``chip.name`` is the symbol, ``chip.entries`` the LiveNumbers row by row; columns are
    aligned on their decimal points, with room reserved for a minus sign.
    """

    def __init__(self, sub: str, matrix: np.ndarray, color: str, get: Callable | None = None,
                 size: float = style.SMALL_SIZE, suffix: str = "", main: str = "W"):
        t = style.theme()
        M = np.asarray(matrix, float)
        rows, cols = M.shape
        probe = label(WIDE_NUMBER, size)
        col_w = probe.width + style.GAP
        row_h = 1.45 * em(size)
        entries = []
        for i in range(rows):
            for j in range(cols):
                n = LiveNumber(M[i, j], decimals=2, font_size=size, color=t.fg)
                # Right end of the widest text sits at the column's right edge.
                x = (j + 1) * col_w - style.GAP / 2
                n.set_format(align="right")
                n.move_anchor_to(np.array([x, -i * row_h, 0.0]))
                entries.append(n)
        grid = VGroup(*entries)
        h = rows * row_h + style.TIGHT
        mid = np.array([(cols * col_w) / 2, -(rows - 1) * row_h / 2 + 0.3 * em(size), 0])
        lb = _bracket(h, -1, color).move_to(mid + (cols * col_w / 2 + style.HAIR) * LEFT)
        rb = _bracket(h, +1, color).move_to(mid + (cols * col_w / 2 + style.HAIR) * RIGHT)
        name = subscripted(main, sub, color, size * 1.15, suffix)
        name.next_to(lb, LEFT, buff=style.NEAR)
        super().__init__(name, lb, grid, rb)
        self.name, self.entries, self.brackets = name, entries, VGroup(lb, rb)
        if get is not None:
            for k, n in enumerate(entries):
                i, j = divmod(k, cols)
                n.follow(lambda i=i, j=j: get()[i, j])


class RoleRow(VGroup):
    """One role of the retrieval analogy: a weight chip, the live vector it makes, its meaning.

    Parameters
    ----------
    chip
        The :class:`MatrixChip` that makes the vector.
    readout
        The :class:`VectorReadout` of the vector.
    meaning
        The role's meaning in words (``"query: what it searches for"``).
    color
        The role colour.
    """

    def __init__(self, chip: MatrixChip, readout: VectorReadout, meaning: str, color: str,
                 size: float = style.SMALL_SIZE):
        arrow = label("\u2192", size, style.theme().muted)
        arrow.next_to(chip, RIGHT, buff=style.SNUG + style.TIGHT)
        readout.next_to(arrow, RIGHT, buff=style.SNUG + style.TIGHT)
        text = label(meaning, size, color)
        text.next_to(chip, DOWN, buff=style.SNUG + style.SNUG, aligned_edge=LEFT)
        super().__init__(chip, arrow, readout, text)
        self.chip, self.arrow, self.readout, self.meaning = chip, arrow, readout, text
