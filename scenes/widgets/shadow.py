"""The dot product as a shadow: the construction on the plane, its readouts, every key at once.

Driven by getters (``get_q()``, ``get_k()`` return 2-vectors), so the same construction
serves a sweeping query (section 5), a stretching key (section 7), a walking query
(section 3) or any other motion:

- :class:`ShadowConstruction`: on a :class:`~scenes.widgets.plane.VectorPlane`, the key's
  line, the perpendicular dropped from the query's tip, a right-angle mark, and the
  shadow measured along the key's line (a bar in the sign colour, drawn beside the line
  like a dimension line so it never hides the key arrow).
- :class:`ShadowReadout`: ``shadow × key length = score``, three live numbers.
- :class:`ShadowTable`: one query against every key, ``key | shadow | × |k| | = R``, live;
- :class:`ShadowLines`: the shadow of a moving query on every key's line at once;
- :class:`NumberColumns`, :func:`column_number`: columns of live numbers aligned on their
  decimal points (the readout, and section 5's dot-product table beside it).

Every number comes from :func:`attn_math.core.shadow` at render time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import ORIGIN, RIGHT, UP, DashedLine, Line, RoundedRectangle, VGroup, VMobject

from attn_math import core

from .. import style
from ..layout import Box
from .arrows import Vec, unit
from .live_number import LiveNumber
from .placement import LABEL_GAP
from .readouts import WIDE_NUMBER
from .redrawn import Redrawn, live_source
from .text import baseline, label

__all__ = ["NumberColumns", "ShadowConstruction", "ShadowLines", "ShadowReadout", "ShadowTable",
           "column_number", "dashed_points", "segment_points"]


class ShadowConstruction(Redrawn, VGroup):
    """The shadow of the query on the key's line, redrawn every frame.

    Parameters
    ----------
    plane
        The :class:`~scenes.widgets.plane.VectorPlane` to draw on.
    get_q, get_k
        Zero-argument callables returning the query and the key (data coordinates).
    side
        Which side of the key's line the shadow bar is drawn on: ``+1`` left of the
        key's direction, ``-1`` right of it, ``0`` (default) opposite to where the
        query starts, so the bar and the perpendicular do not cross.
    offset
        Distance (frame units) between the key's line and the shadow bar.

    Attributes
    ----------
    key_line, drop, corner, bar
        The full line through the key, the dashed perpendicular from the query's tip,
        the right-angle mark at the foot, and the shadow bar (sign colour, with end ticks).

    Notes
    -----
    ``shadow()``, ``key_length()`` and ``score()`` give the current values, from
    :func:`attn_math.core.shadow`; the score is their product.
    """

    def __init__(self, plane, get_q: Vec, get_k: Vec, side: int = 0, offset: float = 0.17):
        t = style.theme()
        self.plane, self.get_q, self.get_k = plane, live_source(get_q), live_source(get_k)
        self.offset = offset
        q0, k0 = np.asarray(get_q(), float), np.asarray(get_k(), float)
        if side == 0:
            cross = k0[0] * q0[1] - k0[1] * q0[0]
            side = -1 if cross >= 0 else 1
        self.side = side
        self._dir = None
        self.key_line = Line(ORIGIN, RIGHT, color=t.key, stroke_width=2, stroke_opacity=0.55)
        self.drop = DashedLine(ORIGIN, RIGHT, color=t.fg, stroke_width=2.5, dash_length=0.07)
        self.corner = VMobject(stroke_color=t.fg, stroke_width=2, fill_opacity=0)
        self.bar = Line(ORIGIN, RIGHT, stroke_width=7)
        self.ticks = VGroup(Line(ORIGIN, UP, stroke_width=3), Line(ORIGIN, UP, stroke_width=3))
        super().__init__(self.key_line, self.drop, self.corner, self.bar, self.ticks)
        self.redraw_every_frame()

    # ------------------------------------------------------------ values

    def values(self) -> dict:
        """The current :func:`attn_math.core.shadow` of (q, k)."""
        return core.shadow(self.get_q(), self.get_k())

    def shadow(self) -> float:
        """Signed shadow length of the query on the key's line."""
        return self.values()["shadow"]

    def key_length(self) -> float:
        return self.values()["key_length"]

    def score(self) -> float:
        """Shadow length times key length: the dot product."""
        return self.values()["score"]

    # ------------------------------------------------------------ drawing

    def redraw(self) -> None:
        t = style.theme()
        p = self.plane
        q, k = np.asarray(self.get_q(), float), np.asarray(self.get_k(), float)
        sh = core.shadow(q, k)
        u = unit(k)
        if self._dir is None or not np.allclose(u, self._dir):
            self._dir = u
            self.key_line.become(p.line_through(u, t.key, opacity=0.55))
        o = p.origin
        foot = p.c2p(sh["foot"])
        tip = p.c2p(q)
        su = unit(p.c2p(u) - o)                         # the key's direction on screen
        n_screen = np.array([-su[1], su[0], 0.0])        # its left normal on screen
        col = style.score_text_color(sh["score"], 2)

        # The perpendicular from the tip to the foot (rebuilt: dashes keep their length).
        drop_len = float(np.linalg.norm(tip - foot))
        if drop_len > 0.05:
            self.drop.become(DashedLine(tip, foot, color=t.fg, stroke_width=2.5,
                                        dash_length=0.07, stroke_opacity=0.9))
        else:
            self.drop.become(Line(foot, foot + 1e-4 * RIGHT, stroke_opacity=0))

        # Right-angle mark inside the triangle origin-foot-tip.
        a = 0.14
        if drop_len > 1.6 * a:
            toward_tip = unit(tip - foot)
            back = -su if float(np.dot(foot - o, su)) > 0 else su
            pts = [foot + a * toward_tip, foot + a * toward_tip + a * back, foot + a * back]
            self.corner.set_points_as_corners(pts).set_stroke(t.fg, 2, opacity=0.9)
        else:
            self.corner.set_points_as_corners([foot, foot + 1e-4 * RIGHT]).set_stroke(opacity=0)

        # The shadow bar, beside the key's line, with end ticks.
        shift = self.side * self.offset * n_screen
        start, end = o + shift, foot + shift
        if float(np.linalg.norm(end - start)) < 1e-4:
            end = start + 1e-4 * su
        self.bar.put_start_and_end_on(start, end)
        self.bar.set_stroke(col, 7, opacity=1.0)
        h = 0.09 * n_screen
        for tick, at in zip(self.ticks, (start, end)):
            tick.put_start_and_end_on(at - h, at + h)
            tick.set_stroke(col, 3, opacity=1.0)


# ---------------------------------------------------------------- number layout helpers


def column_number(value: float, size: float, color: str, **kw) -> LiveNumber:
    """A two-decimal live number for a column of :class:`NumberColumns`."""
    return LiveNumber(value, decimals=2, font_size=size, color=color, **kw)


class NumberColumns:
    """Decimal-point anchors for a row of number columns, with fixed gaps between them.

    Each column is as wide as the widest number it will show (measured on a probe), so
    nothing moves sideways when a sign appears or a digit is added.
    """

    def __init__(self, probes: Sequence[float], size: float, gap: float, seps: Sequence[str],
                 decimals: Sequence[int] | None = None):
        self.anchor_x: list[float] = []
        self.sep_x: list[float] = []
        x = 0.0
        for i, v in enumerate(probes):
            probe = LiveNumber(v, decimals=decimals[i] if decimals else 2, font_size=size)
            a = probe.get_anchor()[0]
            left, right = a - probe.get_left()[0], probe.get_right()[0] - a
            x += left
            self.anchor_x.append(x)
            x += right
            if i < len(seps):
                w = label(seps[i], size).width if seps[i] else 0.0
                self.sep_x.append(x + gap + w / 2)
                x += 2 * gap + w
        self.width = x


class ShadowReadout(VGroup):
    """``shadow × key length = score`` as three live numbers under their names.

    Not a :class:`~scenes.widgets.readouts.Readout` line nor a
    :class:`~scenes.widgets.readouts.ReadoutPanel`: it is an equation, three numbers in
    columns with the operators between them and their names above, laid out like the
    dot-product table it stands beside in section 5 (the same :class:`NumberColumns`).

    Parameters
    ----------
    construction
        The :class:`ShadowConstruction` whose values are shown.
    names
        Three headings: shadow length, key length, score (in the scene's language).
    bound
        Largest absolute shadow or key length expected (sets the column widths).
    size
        Font size of the numbers.
    shadow_decimals
        Decimals of the shadow length: a third one keeps the product of the numbers as
        shown equal to the score as shown when the key is long.

    Attributes
    ----------
    shadow_number, key_number, score_number
        The three :class:`~scenes.widgets.live_number.LiveNumber` objects.
    """

    def __init__(self, construction: ShadowConstruction, names: Sequence[str], bound: float,
                 size: float = style.NUMBER_SIZE, shadow_decimals: int = 2):
        t = style.theme()
        c = construction
        big = max(bound, 1.0)
        cols = NumberColumns([-big, big, -big * big], size, 0.3, ["×", "="],
                        decimals=[shadow_decimals, 2, 2])
        sh = LiveNumber(c.shadow(), decimals=shadow_decimals, font_size=size, color=t.fg)
        sh.follow(lambda: c.shadow())
        sh.add_updater(lambda m: m.set_fill(style.score_text_color(m.get_value(), 2)))
        kl = column_number(c.key_length(), size, t.key).follow(lambda: c.key_length())
        sc = column_number(c.score(), size, t.fg).follow(lambda: c.score())
        sc.add_updater(lambda m: m.set_fill(style.score_text_color(m.get_value(), 2)))
        nums = (sh, kl, sc)
        for num, x in zip(nums, cols.anchor_x):
            num.move_anchor_to(np.array([x, 0.0, 0.0]))
        seps = VGroup()
        for s, x in zip(("×", "="), cols.sep_x):
            m = label(s, size, t.muted)
            m.move_to(np.array([x, 0.12 * size / style.NUMBER_SIZE, 0.0]))
            seps.add(m)
        heads = VGroup()
        for name, num, colour in zip(names, nums, (t.fg, t.key, t.fg)):
            h = label(name, style.SMALL_SIZE, colour)
            h.move_to(np.array([num.get_anchor()[0], 0.0, 0.0]))
            h.set_y(0.5 * size / style.NUMBER_SIZE + 0.18 + h.height / 2)
            heads.add(h)
        # Headings may be wider than their numbers (Japanese): spread them if they touch.
        for i in range(1, len(heads)):
            over = heads[i - 1].get_right()[0] + 0.15 - heads[i].get_left()[0]
            if over > 0:
                for m in list(heads[i:]) + list(nums[i:]) + list(seps[i - 1:]):
                    m.shift(over * RIGHT)
        self.shadow_number, self.key_number, self.score_number = nums
        self.headers = heads
        super().__init__(heads, VGroup(*nums), seps)


# ---------------------------------------------------------------- every key at once


def _stacked_pitch(names: Sequence[str], size: float) -> float:
    """The least row pitch at which ``names`` of font ``size``, one per row on their
    baselines, keep :data:`~scenes.widgets.placement.LABEL_GAP` between neighbours."""
    mobs = [label(x, size) for x in names]
    asc = [m.get_top()[1] - baseline(m, x) for m, x in zip(mobs, names)]
    desc = [baseline(m, x) - m.get_bottom()[1] for m, x in zip(mobs, names)]
    return max((d + a for d, a in zip(desc, asc[1:])), default=0.0) + LABEL_GAP


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
        # Names stand on their rows' baselines: one name's descent and the next one's ascent
        # (an emoji reaches lower and higher than letters) keep LABEL_GAP apart.
        need = _stacked_pitch(key_labels, fsize)
        if need > row_h:
            fsize *= row_h / need
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

            sh = column_number(shadow(), fsize, t.query, align="right")
            sh.move_anchor_to(np.array([xs[0], base, 0]))
            sh.follow(shadow)
            times = label("\u00d7", fsize, t.muted).move_to(np.array([sym_x[0], cy, 0]))
            kl = column_number(lengths[j], fsize, t.key, align="right")
            kl.move_anchor_to(np.array([xs[1], base, 0]))
            eq = label("=", fsize, t.muted).move_to(np.array([sym_x[1], cy, 0]))
            sc = column_number(score(), fsize, style.score_text_color(score()), align="right")
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
        self.cell_w = label(WIDE_NUMBER, fsize).width + style.NEAR
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
