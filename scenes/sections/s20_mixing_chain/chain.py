"""The mixing chain of section 20: the values as arrows, the weighted terms laid head to tail,
and the ledger of the terms beside them.

Moved from the shared widgets: only this section draws them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import (
    Dot,
    Line,
    RoundedRectangle,
    VGroup,
    smooth,
)

from attn_math import core
from scenes import style
from scenes.layout import Box, fit_width
from scenes.widgets.arrows import QuickArrow, Vec
from scenes.widgets.live_number import LiveNumber
from scenes.widgets.mixing import merged_labels, radial_labels
from scenes.widgets.placement import arrow_marks, box_of, line_marks
from scenes.widgets.readouts import VectorReadout
from scenes.widgets.redrawn import Redrawn
from scenes.widgets.text import baseline, baseline_drop, label

__all__ = ["ChainLedger", "MixingChain", "ValueArrows"]

#: Phases of one chain step, as fractions of the step: shrink by the weight, travel to
#: the partial sum's tip, then the running sum advances along the placed term.
SHRINK_END = 0.35


TRAVEL_END = 0.7


def _phase(a: float, lo: float, hi: float) -> float:
    """Smoothed progress of ``a`` through ``[lo, hi]`` (0 before, 1 after)."""
    if a <= lo:
        return 0.0
    if a >= hi:
        return 1.0
    return float(smooth((a - lo) / (hi - lo)))


class ValueArrows(VGroup):
    """The values as arrows from the origin of ``plane``, labelled by token.

    Parameters
    ----------
    plane
        The :class:`~scenes.widgets.plane.VectorPlane`.
    V
        ``(n, 2)`` values.
    labels
        Token labels; tokens with the same value share one label (``the₁ the₂``).
    stroke
        Arrow stroke width.
    later
        ``(shafts, heads)`` of arrows drawn later over the values (the chain, the output;
        :func:`~scenes.widgets.placement.arrow_marks`, :meth:`MixingChain.marks`): the
        labels, placed now, keep off them too.

    Attributes
    ----------
    arrows
        One arrow per token (coinciding ones drawn twice, harmlessly).
    names
        The label mobjects, one per distinct value, clear of the arrows' shafts and heads.
    leaders
        Leader lines of the labels moved far from their tips.
    """

    def __init__(self, plane, V: np.ndarray, labels: Sequence[str], stroke: float = 4,
                 size: float = style.SMALL_SIZE,
                 later: tuple[Sequence[tuple], Sequence[tuple]] = ((), ())):
        t = style.theme()
        V = np.asarray(V, float)
        self.arrows = VGroup(*[plane.arrow(v, t.value, stroke=stroke) for v in V])
        groups = merged_labels(V, labels)
        shafts, heads = arrow_marks(self.arrows)
        names, leaders = radial_labels(plane, V[[g[0] for g, _ in groups]],
                                        [s for _, s in groups], t.value, size,
                                        center=np.zeros(2), lines=[*shafts, *later[0]],
                                        heads=[*heads, *later[1]])
        self.names, self.leaders = VGroup(*names), VGroup(*leaders)
        super().__init__(self.arrows, self.leaders, self.names)

    def faded(self, opacity: float = 0.3) -> VGroup:
        """A copy styled as the faint backdrop the chain is built over (for ``become``)."""
        ghost = self.copy()
        for a in ghost.arrows:
            a.set_stroke(opacity=opacity).set_fill(opacity=opacity)
        for m in ghost.names:
            m.set_fill(opacity=min(1.0, 0.55 + opacity))
        for m in ghost.leaders:
            m.set_stroke(opacity=min(1.0, 0.55 + opacity))
        return ghost


class MixingChain(Redrawn, VGroup):
    """The terms ``w_j v_j`` of one output, added head to tail as ``progress()`` counts up.

    ``progress()`` runs from 0 to ``n``: term ``j`` is being added while it is in
    ``[j, j + 1)``. Within a step, the term first shrinks in place from ``v_j`` to
    ``w_j v_j`` (at the origin, over the faint value arrow), then travels to the tip of the
    partial sum, then the running-sum dot advances along it.

    Parameters
    ----------
    plane
        The :class:`~scenes.widgets.plane.VectorPlane`.
    weights
        The row of weights (``w_j``), in the order of ``V``.
    V
        ``(n, 2)`` values.
    progress
        Zero-argument callable (e.g. a ``ValueTracker``'s ``get_value``).

    Attributes
    ----------
    partials
        The partial sums, ``(n + 1, 2)``, from :func:`attn_math.core.mixing_chain`.
    """

    def __init__(self, plane, weights: np.ndarray, V: np.ndarray, progress: Callable[[], float],
                 stroke: float = 5):
        t = style.theme()
        self.w = np.asarray(weights, float)
        self.V = np.asarray(V, float)
        self.n = len(self.w)
        self.partials = core.mixing_chain(self.w, self.V)
        self.progress = progress
        self._c2p = lambda v: plane.c2p(v)
        self.terms = [QuickArrow(t.value, stroke=stroke) for _ in range(self.n)]
        self.flying = QuickArrow(t.value, stroke=stroke)
        self.dot = Dot(self._c2p(self.partials[0]), radius=0.065, color=t.fg)
        super().__init__(*self.terms, self.flying, self.dot)
        self._last = None
        self.redraw_every_frame()

    def state(self, k: float | None = None) -> tuple[int, float]:
        """(term being added, fraction of its step) at progress ``k``."""
        k = float(self.progress() if k is None else k)
        k = min(max(k, 0.0), float(self.n))
        j = min(int(np.floor(k)), self.n)
        return j, k - j

    def marks(self) -> tuple[list[tuple], list[tuple]]:
        """The marks along the terms' shafts and the boxes of their heads once the chain is
        complete (as :func:`~scenes.widgets.placement.arrow_marks` reads a manim arrow):
        what labels placed before the chain is drawn keep off."""
        shafts, heads = [], []
        c2p, P = self._c2p, self.partials
        for i in range(self.n):
            term = QuickArrow(style.theme().value).put(c2p(P[i]), c2p(P[i + 1]))
            if term.tip.has_points():
                shafts += line_marks(term.line.get_start(), term.tip.get_center())
                heads.append(box_of(term.tip))
        return shafts, heads

    def running_sum(self, k: float | None = None) -> np.ndarray:
        """The running sum shown at progress ``k``: the partial sum, advancing along the
        placed term during the last phase of a step."""
        j, a = self.state(k)
        if j >= self.n:
            return self.partials[-1].copy()
        s = _phase(a, TRAVEL_END, 1.0)
        return self.partials[j] + s * (self.partials[j + 1] - self.partials[j])

    def current(self, k: float | None = None) -> int | None:
        """The index of the term being added, or None before the first and after the last."""
        j, a = self.state(k)
        if j >= self.n or (j == 0 and a == 0.0):
            return None
        return j

    def redraw(self) -> None:
        j, a = self.state()
        key = (j, round(a, 6))
        if key == self._last:
            return
        self._last = key
        c2p, P = self._c2p, self.partials
        for i, arrow in enumerate(self.terms):
            if i < j:
                arrow.put(c2p(P[i]), c2p(P[i + 1]))
            else:
                arrow.put(c2p(P[0]), c2p(P[0]))        # hidden (zero length)
        if j < self.n and a > 0.0:
            shrink = _phase(a, 0.0, SHRINK_END)
            travel = _phase(a, SHRINK_END, TRAVEL_END)
            vec = (1 - shrink) * self.V[j] + shrink * self.w[j] * self.V[j]
            start = travel * P[j]
            self.flying.put(c2p(start), c2p(start + vec))
            if a >= TRAVEL_END:          # placed: the term becomes part of the chain
                self.flying.put(c2p(P[0]), c2p(P[0]))
                self.terms[j].put(c2p(P[j]), c2p(P[j + 1]))
        else:
            self.flying.put(c2p(P[0]), c2p(P[0]))
        self.dot.move_to(c2p(self.running_sum()))


class ChainLedger(Redrawn, VGroup):
    """The terms of the mix as lines ``w × v[token]``, and the running sum under them.

    Parameters
    ----------
    labels
        Token labels, one line each.
    weights
        The row of weights (numbers come from here; fixed).
    box
        ``(left, right, bottom, top)`` the ledger fits in (top-aligned, centred).
    current
        Zero-argument callable: index of the line to mark, or None.
    running
        Zero-argument callable: the running sum (2-vector), shown live.
    header
        Text of the first line (e.g. ``"o[it] = Σ w[it, j] v[j]"``).
    done
        Zero-argument callable: how many terms are already added (their lines at full
        strength; the others dimmed).

    Attributes
    ----------
    total
        The :class:`~scenes.widgets.weights.VectorReadout` of the running sum.
    marker
        The frame that marks the current line.
    """

    def __init__(self, labels: Sequence[str], weights: np.ndarray, box, *,
                 current: Callable[[], int | None], running: Vec, done: Callable[[], float],
                 header: str, sum_name: str = "Σ"):
        t = style.theme()
        box = Box(*box)
        n = len(labels)
        n_lines = n + 3.2
        line_h = min(0.5, box.height / n_lines)
        size = float(min(style.LABEL_SIZE, max(style.TINY_SIZE, line_h * 46)))
        self.size = size
        drop = baseline_drop(size)
        head = label(header, size, t.fg)
        fit_width(head, box.width)
        # Columns: weight (right-aligned on its point), "×", value name.
        num_w = label("0.00", size).width
        times_w = label("×", size).width
        name_w = max(label(f"v[{s}]", size).width for s in labels)
        gap = style.GAP
        width = num_w + gap + times_w + gap + name_w
        x0 = box.center[0] - width / 2
        y = box.t - line_h * 0.5
        head.move_to([box.center[0], y, 0])
        y -= line_h * 1.25
        self.rows: list[VGroup] = []
        self.row_y: list[float] = []
        for j, s in enumerate(labels):
            yb = y - drop
            num = LiveNumber(float(weights[j]), decimals=2, font_size=size, color=t.weight,
                             align="right")
            num.move_anchor_to([x0 + num_w, yb, 0])
            times = label("×", size, t.muted)
            times.move_to([x0 + num_w + gap + times_w / 2, y, 0])
            name = label(f"v[{s}]", size, t.value)
            name.move_to([x0 + num_w + 2 * gap + times_w + name.width / 2, y, 0])
            name.shift([0, yb - baseline(name, f"v[{s}]"), 0])
            row = VGroup(num, times, name)
            self.rows.append(row)
            self.row_y.append(y)
            y -= line_h
        y -= line_h * 0.15
        rule = Line([x0 - style.TIGHT, y, 0], [x0 + width + style.TIGHT, y, 0]).set_stroke(t.muted, 1.5)
        y -= line_h * 0.6
        self.total = VectorReadout(sum_name, running, t.fg, size * 1.08, number_color=t.fg,
                                   equals=False)
        self.total.move_to([box.center[0], y, 0])
        self.marker = RoundedRectangle(corner_radius=0.06, width=width + style.ROW, height=line_h * 0.92,
                                       stroke_color=t.highlight, stroke_width=2.5,
                                       fill_color=t.highlight, fill_opacity=0.08)
        self.marker.move_to([x0 + width / 2, self.row_y[0], 0])
        super().__init__(head, *self.rows, rule, self.total, self.marker)
        self.header, self.rule = head, rule
        self._current, self._done = current, done
        self._shown = None
        self.redraw_every_frame()

    def redraw(self) -> None:
        j = self._current()
        done = self._done()
        key = (j, int(np.floor(done + 1e-9)))
        if key == self._shown:
            return
        self._shown = key
        if j is None:
            self.marker.set_stroke(opacity=0).set_fill(opacity=0)
        else:
            self.marker.set_stroke(opacity=1).set_fill(opacity=0.08)
            self.marker.set_y(self.row_y[j])
        for i, row in enumerate(self.rows):
            on = i < key[1] or i == j
            row.set_fill(opacity=1.0 if on else 0.4)

    def sum_color(self, color: str) -> None:
        """Recolour the running sum's numbers and brackets (e.g. amber once it is the output)."""
        for mob in (*self.total.numbers, *self.total.brackets):
            mob.set_fill(color)
