"""Widgets of the projection family (sections 1 to 4): weight chips, vector readouts,
role legends, direction dials, score tables and tidy tip labels.

Every widget takes its colours from :func:`scenes.style.theme` and its text from
:mod:`scenes.widgets.text`; every number it shows is a :class:`LiveNumber`, so a widget
that is given a callable follows the motion of the scene frame by frame.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import (
    DOWN, LEFT, RIGHT, UP, Circle, Line, RoundedRectangle, VGroup, VMobject,
    interpolate_color,
)
from manim.utils.color import ManimColor

from .. import style
from ..layout import Box, fit_width  # noqa: F401  (scenes import fit_width from here too)
from .arrows import QuickArrow
from .live_number import LiveNumber
from .placement import LABEL_GAP, arrow_marks, clear_lines, leader_lines, place_labels
from .redrawn import Redrawn
from .text import baseline, label
from .readouts import WIDE_NUMBER, VectorReadout

Vec = Callable[[], np.ndarray]

#: The widest number a two-decimal readout of this toy shows; used to reserve room.


def _number(value: float, size: float, color: str, decimals: int = 2, **kw) -> LiveNumber:
    return LiveNumber(value, decimals=decimals, font_size=size, color=color, **kw)


def _em(size: float) -> float:
    """Manim units of one em at font size ``size`` (the scale :class:`~manim.Text` uses)."""
    from .live_number import EM_PER_FONT_SIZE
    return size * EM_PER_FONT_SIZE


def subscripted(main: str, sub: str, color: str, size: float = style.LABEL_SIZE,
                suffix: str = "") -> VGroup:
    """``main`` with ``sub`` as a subscript (``W`` + ``Q``), then an optional ``suffix``.

    Parameters
    ----------
    main, sub
        The symbol and its subscript; ``sub`` may be empty.
    color
        Colour of the whole symbol.
    size
        Font size of ``main``; the subscript is set at 65 % of it.
    suffix
        Text after the subscript at full size (e.g. ``"(t)"``).
    """
    m = label(main, size, color)
    parts = [m]
    if sub:
        s = label(sub, size * 0.65, color)
        s.next_to(m, RIGHT, buff=0.03)
        s.align_to(m, DOWN).shift(0.35 * _em(size) * DOWN * 0.5)
        parts.append(s)
    if suffix:
        x = label(suffix, size, color)
        x.next_to(VGroup(*parts), RIGHT, buff=0.05)
        x.shift((baseline(m, main) - baseline(x, suffix)) * UP)
        parts.append(x)
    return VGroup(*parts)


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
        col_w = probe.width + 0.18
        row_h = 1.45 * _em(size)
        entries = []
        for i in range(rows):
            for j in range(cols):
                n = _number(M[i, j], size, t.fg)
                # Right end of the widest text sits at the column's right edge.
                x = (j + 1) * col_w - 0.09
                n.set_format(align="right")
                n.move_anchor_to(np.array([x, -i * row_h, 0.0]))
                entries.append(n)
        grid = VGroup(*entries)
        h = rows * row_h + 0.1
        mid = np.array([(cols * col_w) / 2, -(rows - 1) * row_h / 2 + 0.3 * _em(size), 0])
        lb = _bracket(h, -1, color).move_to(mid + (cols * col_w / 2 + 0.02) * LEFT)
        rb = _bracket(h, +1, color).move_to(mid + (cols * col_w / 2 + 0.02) * RIGHT)
        name = subscripted(main, sub, color, size * 1.15, suffix)
        name.next_to(lb, LEFT, buff=0.15)
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
        arrow.next_to(chip, RIGHT, buff=0.18)
        readout.next_to(arrow, RIGHT, buff=0.18)
        text = label(meaning, size, color)
        text.next_to(chip, DOWN, buff=0.16, aligned_edge=LEFT)
        super().__init__(chip, arrow, readout, text)
        self.chip, self.arrow, self.readout, self.meaning = chip, arrow, readout, text


# ---------------------------------------------------------------- labels on a plane


def spread_labels(labels: Sequence[VMobject], anchors: Sequence[np.ndarray] | None = None,
                  pad: float = 0.06,
                  box: tuple[float, float, float, float] | None = None,
                  lines: Sequence[tuple] = (), heads: Sequence[tuple] = (),
                  settle: bool = True, touch: float | None = None,
                  avoid: Sequence[tuple] = ()) -> list:
    """Move overlapping labels apart, in place, each to the free spot nearest its wish
    (:func:`scenes.widgets.placement.place_labels`); then place again the labels that still
    touch another label or lie on one of ``lines`` or ``heads``
    (:func:`scenes.widgets.placement.clear_lines`). Returns leader lines for labels moved
    far (add them beside the labels).

    Parameters
    ----------
    labels
        Mobjects already placed where they would like to be.
    anchors
        Optional points each label names (its arrow tip): leader lines start there.
    pad
        Clearance kept between two labels' bounding boxes.
    box
        Optional (left, right, bottom, top) the labels are kept inside.
    lines, heads
        Marks along the arrows' shafts (or other lines) and the arrowheads' boxes labels
        keep off (:func:`scenes.widgets.placement.arrow_marks`); without them the labels
        are only kept apart.
    settle
        Settle every label first (the first pass); ``False`` leaves labels that touch
        nothing exactly where they are (labels already placed by another pass, such as
        :func:`scenes.widgets.shadow.tip_labels`) and only places again those that touch.
    touch
        Two labels closer than this touch (default: the clearance, ``pad`` or
        :data:`~scenes.widgets.placement.LABEL_GAP`, whichever is larger).
    avoid
        Further boxes a label placed again keeps clear of without their making it touch
        (:func:`~scenes.widgets.placement.clear_lines`).
    """
    # One placement pass for every plane and chart (scenes/widgets/placement.py).
    gap = max(pad, LABEL_GAP)
    wishes = [m.get_center().copy() for m in labels]
    leaders = place_labels(labels, box=box, anchors=anchors, gap=gap) if settle else []
    if (len(lines) or len(heads)) and clear_lines(labels, lines, heads, box=box,
                                                  touch=gap if touch is None else touch,
                                                  gap=gap, avoid=avoid):
        # A label placed twice gets one leader line, for where it ends up.
        leaders = leader_lines(labels, wishes, anchors)
    return leaders


def tip_label_position(plane, v, mob, buff: float = 0.2, side: int = 0) -> np.ndarray:
    """Where a label ``mob`` should sit just beyond the tip of the vector ``v`` on ``plane``.

    ``side`` = +1 / -1 puts it beside the tip instead, on the left / right of the vector
    (seen looking along it), so two labels of vectors that may coincide never collide.
    """
    v = np.asarray(v, float)
    n = np.linalg.norm(v)
    d = v / n if n > 1e-9 else np.array([0.0, 1.0])
    if side:
        perp = side * np.array([-d[1], d[0], 0.0])
        return (plane.c2p(v) + (buff + 0.5 * abs(perp[0]) * mob.width
                                + 0.5 * abs(perp[1]) * mob.height) * perp)
    pos = (plane.c2p(v) + buff * np.array([d[0], d[1], 0])
           + 0.5 * np.array([d[0] * mob.width, d[1] * mob.height, 0]))
    # A vector along an axis would put its label on the axis line: lift it off.
    if abs(d[1]) < 0.3:
        pos = pos + (0.3 - abs(d[1])) / 0.3 * 0.6 * mob.height * UP
    elif abs(d[0]) < 0.3:
        pos = pos + (0.3 - abs(d[0])) / 0.3 * 0.6 * mob.width * RIGHT
    return pos


class TipLabels(VGroup):
    """Static labels at the tips of several vectors, spread so that none overlap.

    Parameters
    ----------
    plane
        The :class:`~scenes.widgets.plane.VectorPlane`.
    vectors
        (n, 2) data vectors.
    texts
        One string per vector.
    color
        Label colour.
    arrows
        The arrows drawn on the plane (e.g. the vectors' own): a label that lies on one of
        their shafts or heads, or touches another label, is placed again clear of them
        (:func:`spread_labels`), with a leader line from its tip when it moves far. Labels
        clear of them keep their spots.
    """

    def __init__(self, plane, vectors, texts: Sequence[str], color: str,
                 size: float = style.SMALL_SIZE, buff: float = 0.15, side: int = 0,
                 arrows: Sequence[VMobject] = ()):
        mobs = [backed(label(s, size, color)) for s in texts]
        for m, v in zip(mobs, vectors):
            m.move_to(tip_label_position(plane, v, m, buff, side))
        lines, heads = arrow_marks(arrows)
        leaders = spread_labels(mobs, box=plane.frame_box(), lines=lines, heads=heads,
                                anchors=[plane.c2p(v) for v in vectors] if len(arrows) else None)
        plane.register_labels(*mobs)
        super().__init__(*mobs, *leaders)
        self.items = mobs


def backed(mob, width: float = 5.0):
    """Give a label a background-coloured outline, so it reads where it crosses a line."""
    mob.set_stroke(style.theme().background, width=width, background=True)
    return mob


class LiveTipLabel(VMobject):
    """A label that follows the tip of a moving vector, just beyond it.

    Parameters
    ----------
    plane, get
        As for :class:`FastArrow`.
    mob
        The label mobject (made by :func:`scenes.widgets.text.label`).
    """

    def __init__(self, plane, get: Vec, mob, buff: float = 0.15, side: int = 0):
        super().__init__()
        self.add(backed(mob))
        self.mob = mob
        #: Settled clear of the plane's other labels (see :func:`live_tip_labels`).
        self.settled = False
        state: dict = {}
        self._state = state

        def place(m):
            wish = tip_label_position(plane, get(), m.mob, buff, side)
            if m.settled:     # beyond the tip, or the free spot nearest it on the plane
                plane.settle_live(m.mob, wish, state, box=plane.frame_box())
            else:
                m.mob.move_to(wish)

        place(self)
        self.add_updater(place)


def live_tip_labels(plane, labels: Sequence[LiveTipLabel]) -> VGroup:
    """Put live tip labels in the plane's placement pass: on every frame each keeps
    :data:`~scenes.widgets.placement.LABEL_GAP` from the other labels placed on ``plane``
    (its static tip labels, and these), easing back beyond its tip when the way clears
    (:meth:`VectorPlane.settle_live <scenes.widgets.plane.VectorPlane.settle_live>`).

    Returns the labels as a group.
    """
    for lab in labels:
        lab.settled = True
        lab._state.update(plane.live_state(lab.mob))
    for lab in labels:
        lab.update(0)
    return VGroup(*labels)


# ---------------------------------------------------------------- section 2: direction dials


def unwrapped_angles(points: np.ndarray) -> np.ndarray:
    """The angle (radians) of every vector in ``points``, unwrapped along the path."""
    P = np.asarray(points, float).reshape(-1, 2)
    return np.unwrap(np.arctan2(P[:, 1], P[:, 0]))


class DirectionDial(Redrawn, VGroup):
    """A compass for one vector's direction, with the angle it has swept since a start.

    Lengths are ignored: a needle of fixed length shows where the vector points, a faint
    needle the start direction, and a filled sector the arc swept between them. The
    readout shows the degrees turned so far.

    Parameters
    ----------
    get
        Zero-argument callable returning the current vector.
    swept
        Zero-argument callable returning ``(start angle, current angle)`` in radians
        (unwrapped, so a sector larger than 180 degrees draws correctly) and the degrees
        turned so far; ``None`` before the sweep starts.
    title
        Text above the dial.
    color
        The vector's role colour.
    radius
        Dial radius in frame units.
    """

    def __init__(self, get: Vec, swept: Callable, title: str, color: str,
                 radius: float = 0.75, size: float = style.SMALL_SIZE):
        t = style.theme()
        ring = Circle(radius=radius, stroke_color=t.grid, stroke_width=2)
        ticks = VGroup(*[
            Line(radius * 0.9 * np.array([np.cos(a), np.sin(a), 0]),
                 radius * np.array([np.cos(a), np.sin(a), 0]),
                 stroke_color=t.muted, stroke_width=1.5)
            for a in np.arange(0, 2 * np.pi, np.pi / 6)
        ])
        head = label(title, size, color).next_to(ring, UP, buff=0.15)
        self.radius = radius
        self.center_mob = ring
        self.sector = VMobject(fill_color=color, fill_opacity=0.35, stroke_width=0)
        self.start_needle = QuickArrow(t.muted, stroke=3, opacity=0.8, tip_length=0.16,
                                       tip_ratio=0.3)
        self.needle = QuickArrow(color, stroke=5, tip_length=0.16, tip_ratio=0.3)
        number = _number(0, size * 1.2, color, decimals=0, unit="\u00b0", align="right")
        number.next_to(ring, DOWN, buff=0.2)
        super().__init__(ring, ticks, self.sector, self.start_needle, self.needle, head, number)
        self.head, self.number = head, number
        self.get, self.swept, self.role_color = get, swept, color
        self._start = None
        self._last = None
        self.redraw_every_frame()

    def _point(self, angle: float, r: float) -> np.ndarray:
        return self.center_mob.get_center() + r * np.array([np.cos(angle), np.sin(angle), 0])

    def redraw(self) -> None:
        v = np.asarray(self.get(), float)
        sw = self.swept()
        key = (float(v[0]), float(v[1]), None if sw is None else (sw[0], sw[1], sw[2]),
               tuple(self.center_mob.get_center()))
        if key == self._last:
            return
        self._last = key
        c = self.center_mob.get_center()
        reach = self.radius * 0.92
        self.needle.put(c, self._point(float(np.arctan2(v[1], v[0])), reach))
        if sw is None:
            self.sector.clear_points()
            self.start_needle.clear_points()
            self.number.set_value(0)
            return
        a0, a1, deg = sw
        self.start_needle.put(c, self._point(a0, reach))
        if abs(a1 - a0) > 1e-4:
            # A fan of points along the arc: a filled polygon, rewritten in place.
            steps = max(2, int(abs(a1 - a0) / (np.pi / 90)) + 1)
            arc = [self._point(a, self.radius * 0.8) for a in np.linspace(a0, a1, steps)]
            self.sector.set_points_as_corners([c, *arc, c])
        else:
            self.sector.clear_points()
        self.number.set_value(deg)


# ---------------------------------------------------------------- section 3: the score table


class ShadowTable(VGroup):
    """One query against every key: ``key | shadow | × |k| | = R``, live.

    Parameters
    ----------
    key_labels
        Token labels of the keys, one row each.
    key_lengths
        ``|k_j|`` (static).
    get_query
        Zero-argument callable returning the current query.
    keys
        (n, 2) keys.
    headers
        Texts of the four column headers.
    box
        (left, right, bottom, top) the table must fit in.

    Notes
    -----
    ``row_box(j)`` gives a rectangle around row ``j`` (to mark the winner), and
    ``cell(j, c)`` the mobject in column ``c`` of row ``j``.
    """

    def __init__(self, key_labels: Sequence[str], key_lengths: Sequence[float],
                 get_query: Vec, keys: np.ndarray, headers: Sequence[str], box,
                 size: float = style.SMALL_SIZE):
        t = style.theme()
        n = len(key_labels)
        K = np.asarray(keys, float)
        lengths = np.asarray(key_lengths, float)
        box = Box(*box)
        top = box.t
        head_h = 0.45
        row_h = min(0.5, (box.height - head_h) / n)
        fsize = size * min(1.0, row_h / 0.4)
        gap, sym_w = 0.12, 0.3

        def widths(fs):
            hw = [label(h, fs).width for h in headers]
            name_w = max([label(s, fs).width for s in key_labels] + [hw[0]])
            num = label(WIDE_NUMBER, fs).width
            cols = [max(num, h) for h in hw[1:]]
            return name_w, cols, name_w + sum(cols) + 2 * sym_w + 5 * gap

        name_w, cols, width = widths(fsize)
        if width > box.width:
            fsize *= box.width / width
            name_w, cols, width = widths(fsize)
        x0 = box.l + max(0.0, (box.width - width) / 2)
        # Right edges of the three number columns (numbers and headers right-aligned).
        xs = [x0 + name_w + gap + cols[0]]
        xs.append(xs[0] + 2 * gap + sym_w + cols[1])
        xs.append(xs[1] + 2 * gap + sym_w + cols[2])
        sym_x = [xs[0] + gap + sym_w / 2, xs[1] + gap + sym_w / 2]
        hdr = VGroup()
        for k, txt in enumerate(headers):
            h = label(txt, fsize, t.muted)
            if k == 0:
                h.move_to(np.array([x0 + h.width / 2, top - head_h / 2, 0]))
            else:
                h.move_to(np.array([xs[k - 1] - h.width / 2, top - head_h / 2, 0]))
            hdr.add(h)
        rule = Line(np.array([x0 - 0.05, top - head_h, 0]), np.array([xs[-1] + 0.05, top - head_h, 0]),
                    stroke_color=t.grid, stroke_width=2)
        ref = label("0", fsize)
        drop = ref.get_center()[1] - baseline(ref, "0")
        rows = []
        self.cells: list[list] = []
        self.row_y = []
        for j in range(n):
            cy = top - head_h - (j + 0.5) * row_h
            base = cy - drop
            self.row_y.append(cy)
            name = label(key_labels[j], fsize, t.key)
            name.move_to(np.array([x0 + name.width / 2, cy, 0]))
            name.shift((base - baseline(name, key_labels[j])) * UP)

            def shadow(j=j):
                q = np.asarray(get_query(), float)
                return float(q @ K[j] / lengths[j])

            def score(j=j):
                return float(np.asarray(get_query(), float) @ K[j])

            sh = _number(shadow(), fsize, t.query, align="right")
            sh.move_anchor_to(np.array([xs[0], base, 0]))
            sh.follow(shadow)
            times = label("\u00d7", fsize, t.muted).move_to(np.array([sym_x[0], cy, 0]))
            kl = _number(lengths[j], fsize, t.key, align="right")
            kl.move_anchor_to(np.array([xs[1], base, 0]))
            eq = label("=", fsize, t.muted).move_to(np.array([sym_x[1], cy, 0]))
            sc = _number(score(), fsize, style.score_text_color(score()), align="right")
            sc.move_anchor_to(np.array([xs[2], base, 0]))

            def recolour(m, f=score):
                m.set_value(f())
                c = style.score_text_color(m.get_value())
                if m.get_fill_color().to_hex().lower() != c.lower():
                    m.set_fill(c)

            sc.add_updater(recolour)
            row = VGroup(name, sh, times, kl, eq, sc)
            rows.append(row)
            self.cells.append([name, sh, kl, sc])
        super().__init__(hdr, rule, *rows)
        self.rows, self.header = rows, hdr
        self.row_h, self.x_left, self.x_right = row_h, x0 - 0.1, xs[-1] + 0.1
        self.cell_w = label(WIDE_NUMBER, fsize).width + 0.14
        self.font_size = fsize

    def row_box(self, j: int, color: str, stroke: float = 2.5) -> RoundedRectangle:
        """A rounded outline around row ``j``."""
        w = self.x_right - self.x_left
        box = RoundedRectangle(corner_radius=0.06, width=w, height=self.row_h * 0.92,
                               stroke_color=color, stroke_width=stroke, fill_opacity=0)
        return box.move_to(np.array([(self.x_left + self.x_right) / 2, self.row_y[j], 0]))

    def cell_box(self, j: int, col: int, color: str, stroke: float = 2.0) -> RoundedRectangle:
        """An outline around the number in column ``col`` (1 shadow, 2 |k|, 3 R) of row ``j``."""
        mob = self.cells[j][col]
        w = self.cell_w
        box = RoundedRectangle(corner_radius=0.05, width=w, height=self.row_h * 0.8,
                               stroke_color=color, stroke_width=stroke, fill_opacity=0)
        right = mob.get_anchor()[0] + 0.07
        return box.move_to(np.array([right - w / 2, self.row_y[j], 0]))


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
            tx = label(text, size, color).next_to(sw, RIGHT, buff=0.1)
            parts.append(VGroup(sw, tx))
        super().__init__(*parts)
        self.arrange(RIGHT, buff=0.35)
        self.items = parts


def segment_points(a, b) -> np.ndarray:
    """Bezier points (cubic, 4 per segment) of the straight segment from ``a`` to ``b``."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    return np.array([a, a + (b - a) / 3, a + 2 * (b - a) / 3, b])


def dashed_points(a, b, dash: float = 0.08, ratio: float = 0.55) -> np.ndarray:
    """Points of a dashed segment from ``a`` to ``b`` as disjoint sub-paths (one VMobject)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    L = float(np.linalg.norm(b - a))
    if L < 1e-6:
        return np.zeros((0, 3))
    n = max(1, int(round(L / dash)))
    d = (b - a) / n
    return np.vstack([segment_points(a + k * d, a + (k + ratio) * d) for k in range(n)])


class ShadowLines(Redrawn, VGroup):
    """The projection of a moving query onto every key: perpendicular and shadow, live.

    For each key ``k_j`` a dashed perpendicular drops from the query's tip to the key's
    line, and a thick segment from the origin to the foot is the shadow. The
    ``emphasis`` callable says which keys to draw bright (the rest are faint). Points are
    rewritten in place, so a frame costs no mobject construction.

    Parameters
    ----------
    plane
        The :class:`~scenes.widgets.plane.VectorPlane`.
    get_query
        Zero-argument callable returning the current query.
    keys
        (n, 2) keys.
    emphasis
        Zero-argument callable returning the set of key indices drawn bright.
    faint
        Opacity factor of the keys not emphasised.
    """

    def __init__(self, plane, get_query: Vec, keys: np.ndarray, emphasis: Callable,
                 faint: float = 0.45):
        t = style.theme()
        self._c2p = lambda v: plane.c2p(v)   # a closure, not an attribute: copies stay cheap
        self._unit = lambda: plane.unit
        self.get_query, self.K, self.emphasis = get_query, np.asarray(keys, float), emphasis
        self.faint = faint
        self.shadows = [VMobject(stroke_color=t.query) for _ in range(len(self.K))]
        self.perps = [VMobject(stroke_color=t.muted, stroke_width=2) for _ in range(len(self.K))]
        super().__init__(*self.shadows, *self.perps)
        self._last = None
        self.redraw_every_frame()

    def redraw(self) -> None:
        q = np.asarray(self.get_query(), float)
        emph = frozenset(self.emphasis())
        key = (float(q[0]), float(q[1]), emph)
        if key == self._last:
            return
        self._last = key
        c2p = self._c2p
        o = c2p((0.0, 0.0))
        for j, k in enumerate(self.K):
            u = k / np.linalg.norm(k)
            foot = (q @ u) * u
            bright = j in emph
            op = 1.0 if bright else self.faint
            sh, pp = self.shadows[j], self.perps[j]
            sh.set_points(segment_points(o, c2p(foot)))
            sh.set_stroke(width=11 if bright else 7, opacity=0.7 * op)
            if np.linalg.norm(q - foot) * self._unit() > 0.12:
                pp.set_points(dashed_points(c2p(q), c2p(foot)))
                pp.set_stroke(opacity=op)
            else:
                pp.clear_points()


def blend_color(a: str, b: str, s: float) -> str:
    """The colour a fraction ``s`` of the way from ``a`` to ``b`` (hex)."""
    return interpolate_color(ManimColor(a), ManimColor(b), float(np.clip(s, 0, 1))).to_hex()
