"""The dot product as arithmetic (section 5): one line per coordinate, then the sum, in live
numbers laid out like :class:`~scenes.widgets.shadow.ShadowReadout` beside it.
"""

from __future__ import annotations

import numpy as np
from manim import LEFT, RIGHT, UP, Line, VGroup

from scenes import style
from scenes.widgets.arrows import Vec
from scenes.widgets.redrawn import live_source
from scenes.widgets.shadow import NumberColumns, column_number
from scenes.widgets.text import label

__all__ = ["DotProductTable"]

class DotProductTable(VGroup):
    """The dot product as arithmetic: one line per coordinate, then the sum.

    ::

         q(a)     k(b)
          q₁   ×   k₁    =  q₁k₁
          q₂   ×   k₂    =  q₂k₂
                          ───────
                   q · k =  sum

    Parameters
    ----------
    get_q, get_k
        Zero-argument callables returning the two vectors (any equal length).
    q_name, k_name
        Column headings (e.g. ``"q(it)"``), drawn in the query and key colours.
    bound
        The largest absolute value a coordinate will take (sets the column widths);
        products and the sum get room for ``bound**2 * len(q)``.
    size
        Font size of the numbers and headings.

    Attributes
    ----------
    rows
        One ``VGroup(q number, "×", k number, "=", product)`` per coordinate.
    total
        ``VGroup(rule, "q · k =", sum number)``.
    """

    def __init__(self, get_q: Vec, get_k: Vec, q_name: str, k_name: str, bound: float,
                 size: float = style.NUMBER_SIZE, sum_name: str = "q · k ="):
        t = style.theme()
        self.get_q, self.get_k = live_source(get_q), live_source(get_k)
        d = len(np.asarray(get_q()))
        big = max(bound, 1.0)
        cols = NumberColumns([-big, -big, -big * big * d], size, 0.22, ["×", "="])
        line_h = 0.62 * size / style.NUMBER_SIZE
        rows = []
        for i in range(d):
            y = -i * line_h
            qn = column_number(get_q()[i], size, t.query).follow(lambda i=i: self.get_q()[i])
            kn = column_number(get_k()[i], size, t.key).follow(lambda i=i: self.get_k()[i])
            pn = column_number(0.0, size, t.fg)
            pn.follow(lambda i=i: self.get_q()[i] * self.get_k()[i])
            pn.add_updater(lambda m: m.set_fill(style.score_text_color(m.get_value(), 2)))
            times = label("×", size, t.muted)
            eq = label("=", size, t.muted)
            row = VGroup(qn, times, kn, eq, pn)
            for num, x in zip((qn, kn, pn), cols.anchor_x):
                num.move_anchor_to(np.array([x, y, 0.0]))
            for sep, x in zip((times, eq), cols.sep_x):
                sep.move_to(np.array([x, y + 0.02, 0.0]))
                sep.set_y(qn.get_anchor()[1] + 0.12 * size / style.NUMBER_SIZE)
            rows.append(row)
        self.rows = VGroup(*rows)
        y_sum = -d * line_h - 0.16
        total_n = column_number(0.0, size, t.fg)
        total_n.follow(lambda: float(np.dot(self.get_q(), self.get_k())))
        total_n.add_updater(lambda m: m.set_fill(style.score_text_color(m.get_value(), 2)))
        total_n.move_anchor_to(np.array([cols.anchor_x[2], y_sum, 0.0]))
        x_rule0 = cols.sep_x[1] + 0.15
        rule = Line(np.array([x_rule0, y_sum + line_h * 0.62, 0]),
                    np.array([cols.width + 0.05, y_sum + line_h * 0.62, 0]),
                    color=t.muted, stroke_width=2)
        name = label(sum_name, size, t.fg)
        name.next_to(total_n, LEFT, buff=style.GAP)
        name.align_to(rows[0][3], RIGHT)
        self.total = VGroup(rule, name, total_n)
        self.total_number = total_n
        qh = label(q_name, style.SMALL_SIZE, t.query)
        kh = label(k_name, style.SMALL_SIZE, t.key)
        top = rows[0].get_top()[1] + 0.12
        qh.move_to(np.array([rows[0][0].get_center()[0], top + qh.height / 2, 0]))
        kh.move_to(np.array([rows[0][2].get_center()[0], top + kh.height / 2, 0]))
        if qh.get_right()[0] + style.TIGHT > kh.get_left()[0]:
            # long names would run into each other over their columns: the query's heading
            # goes up a line (each still centred over its column, in its column's colour)
            qh.shift((kh.height + style.SNUG) * UP)
        self.headers = VGroup(qh, kh)
        super().__init__(self.headers, self.rows, self.total)
