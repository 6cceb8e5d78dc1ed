"""Readouts of vectors: ``name = [a, b]`` with live entries.

One widget for every section that shows a 2-vector (an input, a query, an output): the
brackets and the comma never move, each number right-aligned in a slot wide enough for
``−0.00``, so a readout that follows a moving vector does not jitter.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import DOWN, RIGHT, UP, VGroup

from .. import style
from .live_number import LiveNumber
from .text import baseline, label

#: The widest text an entry takes (two decimals, a minus sign): the width of a slot.
WIDE_NUMBER = "\u22120.00"

Vec = Callable[[], Sequence[float]] | Sequence[float]


class VectorReadout(VGroup):
    """``name = [a, b]`` whose numbers follow a vector on every frame.

    Parameters
    ----------
    name
        The symbol on the left (a mobject, or a string set in ``name_color``).
    get
        Zero-argument callable returning the vector shown, or a fixed vector (then the
        readout has no updater, and a still frame costs nothing to hold).
    color
        Colour of the brackets (and of the name unless ``name_color`` is given).
    size
        Font size.
    number_color
        Colour of the numbers (default: the text colour ``fg``).
    name_color
        Colour of the name, when it differs from the brackets'.
    equals
        Put a muted ``=`` between the name and the bracket; ``False`` when the name already
        ends with one (so that a column of readouts can right-align their names).

    Attributes
    ----------
    numbers
        The :class:`LiveNumber` entries, in order.
    brackets
        The two brackets (to recolour them with the numbers).
    """

    def __init__(self, name, get: Vec, color: str, size: float = style.SMALL_SIZE,
                 number_color: str | None = None, *, name_color: str | None = None,
                 equals: bool = True):
        t = style.theme()
        fixed = None if callable(get) else np.asarray(get, float)
        if fixed is not None:
            def get():
                return fixed
        sym = label(name, size, name_color or color) if isinstance(name, str) else name
        parts = [sym]
        left = sym
        if equals:
            eq = label("=", size, t.muted)
            eq.next_to(sym, RIGHT, buff=0.12)
            parts.append(eq)
            left = eq
        # A name that ends in its own "=" keeps the wider gap such names always had.
        lb = label("[", size, color).next_to(left, RIGHT, buff=0.12 if equals else 0.2)
        slot = label(WIDE_NUMBER, size).width
        v = np.asarray(get(), float)
        nums, commas = [], []
        x = lb.get_right()[0] + 0.05
        base = baseline(lb, "[")
        for k in range(len(v)):
            n = LiveNumber(v[k], decimals=2, font_size=size, color=number_color or t.fg,
                           align="right")
            x += slot
            n.move_anchor_to(np.array([x, base, 0.0]))
            nums.append(n)
            if k < len(v) - 1:
                comma = label(",", size, t.muted)
                comma.move_to(np.array([x + 0.06, 0, 0]))
                comma.shift((base - comma.get_bottom()[1]) * UP + 0.02 * DOWN)
                commas.append(comma)
                x += 0.17
        rb = label("]", size, color)
        rb.move_to(np.array([x + 0.06 + rb.width / 2, lb.get_center()[1], 0]))
        # Drawing order: name, =, [, then numbers and commas alternating, ].
        body = [m for pair in zip(nums, [*commas, None]) for m in pair if m is not None]
        super().__init__(*parts, lb, *body, rb)
        self.numbers = nums
        self.brackets = VGroup(lb, rb)
        self.get = get
        if fixed is None:
            for k, n in enumerate(nums):
                n.follow(lambda k=k: float(get()[k]))
