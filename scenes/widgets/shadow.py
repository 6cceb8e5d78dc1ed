"""The dot product as a shadow: the construction on the plane and its readout.

Small widgets, all driven by getters (``get_q()``, ``get_k()`` return 2-vectors),
so the same construction serves a sweeping query (section 5), a stretching key
(section 7) or any other motion:

- :class:`ShadowConstruction`: on a :class:`~scenes.widgets.plane.VectorPlane`, the key's
  line, the perpendicular dropped from the query's tip, a right-angle mark, and the
  shadow measured along the key's line (a bar in the sign colour, drawn beside the line
  like a dimension line so it never hides the key arrow).
- :class:`ShadowReadout`: ``shadow × key length = score``, three live numbers.
- :func:`tip_labels`: labels for static vectors, placed so that none overlap.

Every number comes from :func:`attn_math.core.shadow` at render time.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np
from manim import ORIGIN, RIGHT, UP, DashedLine, Line, VGroup, VMobject

from attn_math import core

from .. import style
from .live_number import LiveNumber
from .placement import (
    LABEL_GAP,
    LINE_REACH,
    box_of,
    is_clear,
    line_marks,
    near,
    on_lines,
    place_labels,
)
from .plane import HEAD_LENGTH, HEAD_RATIO
from .redrawn import Redrawn, live_source
from .score_columns import sign_color
from .text import label

Vec = Callable[[], np.ndarray]


def unit_direction(v: np.ndarray) -> np.ndarray:
    n = float(np.linalg.norm(v))
    return v / n if n > 1e-12 else np.array([1.0, 0.0])


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
        u = unit_direction(k)
        if self._dir is None or not np.allclose(u, self._dir):
            self._dir = u
            self.key_line.become(p.line_through(u, t.key, opacity=0.55))
        o = p.origin
        foot = p.c2p(sh["foot"])
        tip = p.c2p(q)
        su = unit_direction(p.c2p(u) - o)                         # the key's direction on screen
        n_screen = np.array([-su[1], su[0], 0.0])        # its left normal on screen
        col = sign_color(sh["score"])

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
            toward_tip = unit_direction(tip - foot)
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

    def bar_end(self) -> np.ndarray:
        """Screen point at the far end of the shadow bar (to hang a label on)."""
        return self.bar.get_end()


# ---------------------------------------------------------------- number layout helpers


def column_number(value: float, size: float, color: str, **kw) -> LiveNumber:
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
    :class:`~scenes.sections.s05_dot_product_shadow.table.DotProductTable` it stands beside (the same :class:`NumberColumns`).

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
        sh.add_updater(lambda m: m.set_fill(sign_color(m.get_value())))
        kl = column_number(c.key_length(), size, t.key).follow(lambda: c.key_length())
        sc = column_number(c.score(), size, t.fg).follow(lambda: c.score())
        sc.add_updater(lambda m: m.set_fill(sign_color(m.get_value())))
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


# ---------------------------------------------------------------- labels on the plane


def tip_labels(plane, items, color, size: float, avoid=(), buff: float = 0.12,
               obstacles=()) -> VGroup:
    """Labels at the tips of static vectors, turned around each tip until none overlap.

    Parameters
    ----------
    plane
        The :class:`~scenes.widgets.plane.VectorPlane` the vectors are drawn on.
    items
        ``(vector, text)`` pairs (data coordinates).
    color
        One colour for every label, or one per item.
    size
        Font size.
    avoid
        Screen points no label may cover (e.g. dots).
    obstacles
        Further vectors (data coordinates) whose arrows no label may cover.

    Returns
    -------
    VGroup
        The labels, in the order of ``items``.

    Notes
    -----
    Longer vectors are placed first (their tips are the most exposed). A label may sit
    beyond the tip or swing up to 180 degrees around it, a little further out if needed;
    it stays inside the plane, keeps :data:`~scenes.widgets.placement.LABEL_GAP` from the
    labels placed before it, and avoids every other arrow's shaft and the ``avoid``
    points. If no spot is free, the least crowded wins; if that one comes closer than
    ``LABEL_GAP`` to a label placed before, the label moves to the nearest spot that does
    not (:func:`~scenes.widgets.placement.place_labels`).
    """
    colors = [color] * len(items) if isinstance(color, str) else list(color)
    def box(m, pad=0.04):
        return (m.get_left()[0] - pad, m.get_right()[0] + pad,
                m.get_bottom()[1] - pad, m.get_top()[1] + pad)

    def covers(b, pt):
        return b[0] <= pt[0] <= b[1] and b[2] <= pt[1] <= b[3]

    tips = [plane.c2p(v) for v, _ in items]
    # Every other arrow is avoided along its whole shaft, not only at its tip.
    shafts = [[plane.origin + f * (tip - plane.origin) for f in np.linspace(0.15, 1.0, 18)]
              for tip in tips + [plane.c2p(v) for v in obstacles]]
    l, r = plane.get_left()[0], plane.get_right()[0]
    bottom, top = plane.get_bottom()[1], plane.get_top()[1]
    placed, out = [], [None] * len(items)
    order = sorted(range(len(items)), key=lambda i: -float(np.linalg.norm(items[i][0])))
    for i in order:
        v, text = items[i]
        m = label(text, size, colors[i])
        tip = tips[i]
        base = np.arctan2(*(tip - plane.origin)[[1, 0]]) if np.linalg.norm(tip - plane.origin) > 1e-6 else np.pi / 2
        best, best_cost = None, None
        for extra in (0.0, 0.25):
            for turn in (0, 30, -30, 60, -60, 90, -90, 120, -120, 150, -150, 180):
                a = base + np.radians(turn)
                u = np.array([np.cos(a), np.sin(a), 0.0])
                m.move_to(tip + (buff + extra) * u
                          + 0.5 * np.array([u[0] * m.width, u[1] * m.height, 0]))
                b = box(m)
                inside = l <= b[0] and b[1] <= r and bottom <= b[2] and b[3] <= top
                cost = (0 if inside else 100) + 10 * sum(
                    near(box_of(m), o, LABEL_GAP) for o in placed) + sum(
                    covers(b, pt) for j, pts in enumerate(shafts) if j != i for pt in pts) + sum(
                    covers(b, pt) for pt in avoid)
                if best_cost is None or cost < best_cost:
                    best, best_cost = m.get_center(), cost
                if cost == 0:
                    break
            if best_cost == 0:
                break
        m.move_to(best)
        if any(near(box_of(m), o, LABEL_GAP) for o in placed):
            # No spot around the tip is clear of the labels placed before (two arrows
            # pointing the same way): the nearest one that is, inside the plane.
            place_labels([m], box=(l, r, bottom, top), obstacles=placed)
        placed.append(box_of(m))
        out[i] = m
    plane.register_labels(*out)   # live labels on the plane keep clear of these
    return VGroup(*out)


def tip_label_away(plane, text: str, get: Vec, color: str, get_other: Vec,
                   size: float = style.LABEL_SIZE, buff: float = 0.14):
    """A label that follows the tip of ``get()`` and keeps off the arrow of ``get_other()``.

    Two vectors a few degrees apart would put a plain tip label on the other arrow. This
    label tries spots around the tip (straight beyond it first, then swinging either way,
    the side away from the other vector first) and keeps the spot it has as long as that
    stays clear, so it does not flicker while the vectors move. A spot swung round the tip
    must also keep off the label's own shaft (up to its head). When no spot around the tip
    is free (a tip near the plane's edge, the other label beside it), the label takes the
    free spot nearest one of them, off both shafts and the axes, ending nearest the tip.

    Parameters
    ----------
    plane
        The :class:`~scenes.widgets.plane.VectorPlane`.
    text, color, size
        The label.
    get, get_other
        Zero-argument callables: the labelled vector and the one to keep clear of.
    """
    mob = label(text, size, color)
    get, get_other = live_source(get), live_source(get_other)
    state = {"turn": None}

    def spot(m, tip, base, turn):
        a = base + np.radians(turn)
        u = np.array([np.cos(a), np.sin(a), 0.0])
        return tip + buff * u + 0.5 * np.array([u[0] * m.width, u[1] * m.height, 0])

    def clear(m, center, shaft, own=()):
        hw, hh = m.width / 2 + 0.04, m.height / 2 + 0.04
        if any(abs(p[0] - center[0]) <= hw and abs(p[1] - center[1]) <= hh for p in shaft):
            return False
        # and off its own arrow's shaft (a label swung round the tip could lie along it),
        # by the shared touch test of live labels
        box = (center[0] - m.width / 2, center[0] + m.width / 2,
               center[1] - m.height / 2, center[1] + m.height / 2)
        return not on_lines(box, own, reach=LINE_REACH)

    def fits(m, center):
        # inside the plane's grid (a long name beyond a tip near the edge would hang out)
        # and clear of the plane's other labels
        hw, hh = m.width / 2, m.height / 2
        box = (center[0] - hw, center[0] + hw, center[1] - hh, center[1] + hh)
        return is_clear(box, plane.label_boxes(mob, m), within=plane.frame_box())

    def place(m):
        o = plane.origin
        tip = plane.c2p(np.asarray(get(), float))
        other = plane.c2p(np.asarray(get_other(), float))
        d, od = unit_direction(tip - o), unit_direction(other - o)
        base = np.arctan2(d[1], d[0])
        away = 1.0 if d[0] * od[1] - d[1] * od[0] <= 0 else -1.0
        shaft = [o + f * (other - o) for f in np.linspace(0.05, 1.0, 24)]
        # its own shaft, to the head's base (the head as drawn: at most HEAD_LENGTH and
        # HEAD_RATIO of the arrow; a label beside the head is beyond the shaft)
        span = float(np.linalg.norm((tip - o)[:2]))
        own = (line_marks(o, tip - min(HEAD_LENGTH, HEAD_RATIO * span) * d) if span > 1e-6
               else [])
        turns = [0.0] + [away * a * s for a in (30, 60, 90, 120, 150) for s in (1, -1)]
        if state["turn"] is not None:
            c = spot(m, tip, base, state["turn"])
            if clear(m, c, shaft, own) and fits(m, c):
                m.move_to(c)
                return
        for turn in turns:
            c = spot(m, tip, base, turn)
            if clear(m, c, shaft, own) and fits(m, c):
                state["turn"] = turn
                m.move_to(c)
                return
        # No spot around the tip is clear of all: from each spot clear of the arrows, the
        # free spot nearest it inside the plane (clear of the labels and off both arrows'
        # shafts); the one that ends nearest the tip, so the label still names its arrow.
        state["turn"] = None
        marks = [*own, *(line_marks(o, other) if np.linalg.norm((other - o)[:2]) > 1e-6
                         else [])]
        obstacles = [*plane.label_boxes(mob, m), *marks, *plane.axis_marks()]  # axes too
        starts = [a for a in turns if clear(m, spot(m, tip, base, a), shaft, own)] or [away * 90]
        best, best_d = None, np.inf
        for turn in starts:
            m.move_to(spot(m, tip, base, turn))
            place_labels([m], box=plane.frame_box(), obstacles=obstacles)
            l, r, b, t = box_of(m)
            d_tip = float(np.hypot(max(l - tip[0], 0, tip[0] - r), max(b - tip[1], 0, tip[1] - t)))
            if d_tip < best_d - 1e-9:
                best, best_d = m.get_center().copy(), d_tip
        m.move_to(best)

    place(mob)
    mob.add_updater(place)
    plane.register_labels(mob)
    return mob
