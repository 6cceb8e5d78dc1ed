"""The mix as geometry: weighted values head to tail, and the polygon the output cannot leave.

Sections 20 and 21 draw the last step of a head, ``out = w @ v``, on the value plane:

- :class:`ValueArrows`: every value as a violet arrow from the origin, labelled by token
  (tokens with the same value share one label);
- :class:`MixingChain`: the terms ``w_j v_j`` laid head to tail one at a time
  (:func:`attn_math.core.mixing_chain`), driven by one ``ValueTracker`` that counts terms;
  each term first shrinks by its weight in place, then travels to the tip of the partial
  sum, then the running-sum dot advances along it;
- :class:`ChainLedger`: the terms as lines ``w × v[token]``, the one being added marked,
  and the running sum as a live 2-vector under them;
- :class:`ValueHull`: the value dots and their convex hull (:func:`attn_math.core.convex_hull`);
- :class:`ZoomInset`: a magnified window on the plane (a corner of the hull and the output
  dot creeping toward it), when the gap is too small to see at the plane's scale;
- helpers: :func:`merged_labels` (one label for tokens that share a value).

Everything live reads a callable on every frame and rewrites points in place: no mobject is
built per frame.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Dot,
    Line,
    Polygon,
    Rectangle,
    RoundedRectangle,
    VGroup,
    VMobject,
    smooth,
)

from attn_math import core
from attn_math.fmt import fmt_int

from .. import style
from ..layout import Box, fit_width
from .arrows import QuickArrow, Vec
from .live_number import LiveNumber
from .placement import (
    arrow_marks,
    beside,
    box_of,
    line_marks,
    spread_labels,
)
from .readouts import VectorReadout
from .redrawn import Redrawn
from .text import backed, baseline, baseline_drop, label

#: Phases of one chain step, as fractions of the step: shrink by the weight, travel to
#: the partial sum's tip, then the running sum advances along the placed term.
SHRINK_END = 0.35
TRAVEL_END = 0.7


def merged_labels(points: np.ndarray, labels: Sequence[str], tol: float = 1e-9
                  ) -> list[tuple[list[int], str]]:
    """Group tokens whose points coincide: ``[(indices, "the₁ the₂"), ...]`` in first order.

    Repeated words share their value; drawing two labels on one tip would print them on top
    of each other.
    """
    P = np.asarray(points, float)
    groups: list[list[int]] = []
    for i in range(len(P)):
        for g in groups:
            if np.linalg.norm(P[g[0]] - P[i]) <= tol:
                g.append(i)
                break
        else:
            groups.append([i])
    return [(g, " ".join(labels[i] for i in g)) for g in groups]


def _phase(a: float, lo: float, hi: float) -> float:
    """Smoothed progress of ``a`` through ``[lo, hi]`` (0 before, 1 after)."""
    if a <= lo:
        return 0.0
    if a >= hi:
        return 1.0
    return float(smooth((a - lo) / (hi - lo)))


def _radial_labels(plane, points: np.ndarray, texts: Sequence[str], color: str,
                   size: float, center: np.ndarray | None, buff: float = 0.14,
                   lines: Sequence[tuple] = (), heads: Sequence[tuple] = ()) -> tuple[list, list]:
    """Labels just outside each point, away from ``center`` (data), then spread apart; a
    label left on one of ``lines`` or ``heads`` (:func:`~scenes.widgets.placement.line_marks`,
    :func:`~scenes.widgets.placement.arrow_marks`) is placed again clear of them, with a
    leader line from its point when it moves far. Returns (labels, leader lines)."""
    P = np.asarray(points, float)
    c = P.mean(axis=0) if center is None else np.asarray(center, float)
    mobs = []
    for p, s in zip(P, texts):
        m = backed(label(s, size, color))
        d = p - c
        nd = np.linalg.norm(d)
        d = d / nd if nd > 1e-9 else np.array([0.0, 1.0])
        m.move_to(beside(plane.c2p(p), np.array([d[0], d[1], 0.0]), m, buff))
        mobs.append(m)
    anchors = [plane.c2p(q) for q in P] if len(lines) or len(heads) else None
    leaders = spread_labels(mobs, box=plane.frame_box(), anchors=anchors, lines=lines,
                            heads=heads)
    return mobs, leaders


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
        names, leaders = _radial_labels(plane, V[[g[0] for g, _ in groups]],
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
        gap = 0.18
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
        rule = Line([x0 - 0.1, y, 0], [x0 + width + 0.1, y, 0]).set_stroke(t.muted, 1.5)
        y -= line_h * 0.6
        self.total = VectorReadout(sum_name, running, t.fg, size * 1.08, number_color=t.fg,
                                   equals=False)
        self.total.move_to([box.center[0], y, 0])
        self.marker = RoundedRectangle(corner_radius=0.06, width=width + 0.3, height=line_h * 0.92,
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


class ValueHull(VGroup):
    """The value dots, labelled by token, and the convex polygon they span.

    Parameters
    ----------
    plane
        The :class:`~scenes.widgets.plane.VectorPlane`.
    V
        ``(n, 2)`` values.
    labels
        Token labels (coinciding values share one label).

    Attributes
    ----------
    polygon
        The hull (:func:`attn_math.core.convex_hull`), a faint violet fill with a violet edge;
        a segment or a point when the values are collinear or equal.
    dots, names
        One dot per distinct value and its label (off the polygon's edges).
    leaders
        Leader lines of the labels moved far from their dots.
    vertices
        The hull's vertices (data), counter-clockwise.
    """

    def __init__(self, plane, V: np.ndarray, labels: Sequence[str],
                 size: float = style.SMALL_SIZE):
        t = style.theme()
        V = np.asarray(V, float)
        self.vertices = core.convex_hull(V)
        pts = [plane.c2p(p) for p in self.vertices]
        if len(pts) >= 3:
            poly = Polygon(*pts, stroke_color=t.value, stroke_width=2.5,
                           fill_color=t.value, fill_opacity=0.12)
        else:
            poly = VMobject(stroke_color=t.value, stroke_width=2.5)
            poly.set_points_as_corners(pts if len(pts) > 1 else [pts[0], pts[0]])
        self.polygon = poly
        groups = merged_labels(V, labels)
        firsts = [g[0] for g, _ in groups]
        self.dots = VGroup(*[Dot(plane.c2p(V[i]), radius=0.06, color=t.value) for i in firsts])
        ring = pts + pts[:1] if len(pts) >= 3 else pts
        edges = [m for a, b in zip(ring, ring[1:]) for m in line_marks(a, b)]
        names, leaders = _radial_labels(plane, V[firsts], [s for _, s in groups], t.value,
                                        size, center=self.vertices.mean(axis=0), lines=edges)
        self.names, self.leaders = VGroup(*names), VGroup(*leaders)
        super().__init__(poly, self.dots, self.leaders, self.names)


def _clip(a: np.ndarray, b: np.ndarray, lo: np.ndarray, hi: np.ndarray):
    """The part of segment ``ab`` inside the box ``[lo, hi]`` (Liang-Barsky), or None."""
    d = b - a
    t0, t1 = 0.0, 1.0
    for k in range(2):
        for p, q in ((-d[k], a[k] - lo[k]), (d[k], hi[k] - a[k])):
            if abs(p) < 1e-15:
                if q < 0:
                    return None
                continue
            r = q / p
            if p < 0:
                t0 = max(t0, r)
            else:
                t1 = min(t1, r)
            if t0 > t1:
                return None
    return a + t0 * d, a + t1 * d


def nice_factor(x: float) -> float:
    """The largest of 1, 2, 5, 10, 20, 50, ... not above ``x`` (at least 1)."""
    if x <= 1:
        return 1.0
    e = np.floor(np.log10(x))
    for m in (5, 2, 1):
        if m * 10 ** e <= x:
            return float(m * 10 ** e)
    return float(10 ** e)


class ZoomInset(VGroup):
    """A magnified window on a plane: a square frame that draws a small data region large.

    The magnification is a round number (``×200``, ``×5,000``) chosen so that the data
    window of half-width about ``half_width`` fills the frame.

    Parameters
    ----------
    plane
        The :class:`~scenes.widgets.plane.VectorPlane` being magnified.
    center
        Data point at the centre of the window.
    half_width
        Wanted data half-width of the window (the actual one is a little smaller, to make
        the factor round).
    box
        ``(left, right, bottom, top)`` the inset's square frame fits in.

    Attributes
    ----------
    factor
        Magnification relative to the plane.
    frame
        The square frame; ``scale_label`` its ``×N`` tag.
    source
        A small square on the plane marking where the window is (never smaller than
        ``min_mark`` frame units, so it can be seen), and ``leaders``, two lines from it to
        the frame.
    """

    def __init__(self, plane, center: np.ndarray, half_width: float, box,
                 min_mark: float = 0.22):
        t = style.theme()
        box = Box(*box)
        side = min(box.width, box.height)
        self.center_data = np.asarray(center, float)
        self.screen_center = box.center
        self.half_screen = side / 2
        wanted = self.half_screen / (plane.unit * max(half_width, 1e-12))
        self.factor = nice_factor(wanted)
        self.half_data = self.half_screen / (plane.unit * self.factor)
        self.frame = Rectangle(width=side, height=side, stroke_color=t.muted, stroke_width=2,
                               fill_color=t.background, fill_opacity=1.0)
        self.frame.move_to(self.screen_center)
        self.scale_label = label(f"×{fmt_int(self.factor)}", style.SMALL_SIZE, t.muted)
        self.scale_label.next_to(self.frame, DOWN, buff=style.TIGHT).align_to(self.frame, RIGHT)
        mark = max(min_mark, 2 * self.half_data * plane.unit)
        self.source = Rectangle(width=mark, height=mark, stroke_color=t.muted, stroke_width=1.8)
        self.source.move_to(plane.c2p(self.center_data))
        self.leaders = VGroup(*self._leaders(t.muted))
        self.content = VGroup()
        super().__init__(self.source, self.leaders, self.frame, self.content, self.scale_label)

    def _leaders(self, color: str) -> list[Line]:
        """Two lines from the marked square to the frame, on the sides that face each other."""
        s, f = self.source, self.frame
        if f.get_center()[0] >= s.get_center()[0]:
            pairs = [(s.get_corner(UP + RIGHT), f.get_corner(UP + LEFT)),
                     (s.get_corner(DOWN + RIGHT), f.get_corner(DOWN + LEFT))]
        else:
            pairs = [(s.get_corner(UP + LEFT), f.get_corner(UP + RIGHT)),
                     (s.get_corner(DOWN + LEFT), f.get_corner(DOWN + RIGHT))]
        return [Line(a, b, stroke_color=color, stroke_width=1.2, stroke_opacity=0.7)
                for a, b in pairs]

    # ------------------------------------------------------------ mapping

    def c2p(self, v) -> np.ndarray:
        """Screen point, inside the inset, of the data point ``v``."""
        d = (np.asarray(v, float)[:2] - self.center_data) / self.half_data
        return self.screen_center + self.half_screen * np.array([d[0], d[1], 0.0])

    def contains(self, v, margin: float = 0.0) -> bool:
        d = np.abs(np.asarray(v, float)[:2] - self.center_data) / self.half_data
        return bool(np.all(d <= 1.0 - margin))

    # ------------------------------------------------------------ content

    def add_segments(self, segments, color: str, stroke: float = 3.0) -> VGroup:
        """Draw the parts of data segments ``[(a, b), ...]`` that fall in the window."""
        lo = self.center_data - self.half_data
        hi = self.center_data + self.half_data
        lines = VGroup()
        for a, b in segments:
            c = _clip(np.asarray(a, float), np.asarray(b, float), lo, hi)
            if c is not None and np.linalg.norm(c[1] - c[0]) > 1e-15:
                lines.add(Line(self.c2p(c[0]), self.c2p(c[1]), stroke_color=color,
                               stroke_width=stroke))
        self.content.add(lines)
        return lines

    def add_polygon_fill(self, vertices: np.ndarray, color: str, opacity: float = 0.12) -> VMobject:
        """Fill the part of a convex polygon inside the window (Sutherland-Hodgman)."""
        lo = self.center_data - self.half_data
        hi = self.center_data + self.half_data
        poly = [np.asarray(p, float) for p in vertices]
        for k in range(2):
            for bound, keep_lo in ((lo[k], True), (hi[k], False)):
                inside = (lambda p: p[k] >= bound) if keep_lo else (lambda p: p[k] <= bound)
                out = []
                for i, cur in enumerate(poly):
                    prev = poly[i - 1]
                    if inside(cur):
                        if not inside(prev):
                            out.append(_cut(prev, cur, k, bound))
                        out.append(cur)
                    elif inside(prev):
                        out.append(_cut(prev, cur, k, bound))
                poly = out
                if not poly:
                    break
        shape = VMobject(stroke_width=0, fill_color=color, fill_opacity=opacity)
        if len(poly) >= 3:
            shape.set_points_as_corners([self.c2p(p) for p in poly + [poly[0]]])
        self.content.add(shape)
        return shape

    def dot(self, v, color: str, radius: float = 0.08) -> Dot:
        d = Dot(self.c2p(v), radius=radius, color=color)
        self.content.add(d)
        return d

    def live_dot(self, get: Vec, color: str, radius: float = 0.08) -> Dot:
        """A dot that follows ``get()`` inside the window and hides while it is outside."""
        d = Dot(self.c2p(get()), radius=radius, color=color)

        def place(m):
            v = get()
            if self.contains(v, margin=0.02):
                m.move_to(self.c2p(v))
                m.set_fill(opacity=1.0)
            else:
                m.set_fill(opacity=0.0)

        place(d)
        d.add_updater(place)
        self.content.add(d)
        return d


def _cut(p: np.ndarray, q: np.ndarray, k: int, bound: float) -> np.ndarray:
    """Where segment ``pq`` crosses the line ``x_k = bound``."""
    t = (bound - p[k]) / (q[k] - p[k])
    return p + t * (q - p)
