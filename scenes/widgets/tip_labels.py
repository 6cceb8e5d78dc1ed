"""Labels at the tips of vectors on a plane: one core, five configurations.

The core is where a label wishes to sit: ``buff`` beyond a tip along a direction, its box's
near edge facing the tip (:func:`beyond`). What differs between the variants is which
directions are tried and what a spot costs; the search itself is the placement engine's
(:func:`scenes.widgets.placement.least_cost`, :func:`~scenes.widgets.placement.place_labels`):

===========================  =========  ========================================================
configuration                drawn      directions tried, and what settles the label
===========================  =========  ========================================================
:func:`live_tip_label`       live       along the vector; settled each frame clear of the
                                        plane's labels and arrows (``VectorPlane.settle_live``)
:class:`LiveTipLabel`        live       along the vector, lifted off an axis
                                        (:func:`tip_label_position`), or beside the tip; in
                                        the plane's pass once :func:`live_tip_labels` puts it
:class:`TipLabels`           static     as :class:`LiveTipLabel`; then the shared pass
                                        (:func:`~scenes.widgets.placement.spread_labels`)
:func:`tip_labels`           static     turned round the tip (:data:`STATIC_TURNS`), weighed
                                        by :data:`STATIC_COST` (:class:`TurnCost`)
:func:`tip_label_away`       live       turned round the tip, away from another arrow first
                                        (:func:`away_turns`); keeps its turn while clear
===========================  =========  ========================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from manim import RIGHT, UP, VGroup, VMobject

from .. import style
from ..geometry import beside, beyond
from .arrows import HEAD_LENGTH, HEAD_RATIO, Vec, unit
from .placement import (
    BOX_PAD,
    LABEL_GAP,
    LINE_REACH,
    arrow_marks,
    box_at,
    box_of,
    count_near,
    is_clear,
    least_cost,
    line_marks,
    near,
    on_lines,
    outside,
    padded,
    place_labels,
    point_marks,
    spread_labels,
)
from .redrawn import live_source
from .text import backed, label

__all__ = [
    "STATIC_COST", "STATIC_TURNS", "LiveTipLabel", "TipLabels", "TurnCost", "TurnSearch",
    "away_turns", "beyond", "live_tip_label", "live_tip_labels", "tip_label_away",
    "tip_label_position", "tip_labels",
]


# ---------------------------------------------------------------- along the vector


def tip_label_position(plane, v, mob, buff: float = style.GAP, side: int = 0,
                       lift: bool = True) -> np.ndarray:
    """Where a label ``mob`` should sit just beyond the tip of the vector ``v`` on ``plane``.

    ``side`` = +1 / -1 puts it beside the tip instead, on the left / right of the vector
    (seen looking along it), so two labels of vectors that may coincide never collide.
    With ``lift`` a vector along an axis lifts its label off the axis line.
    """
    v = np.asarray(v, float)
    n = np.linalg.norm(v)
    d = v / n if n > 1e-9 else np.array([0.0, 1.0])
    if side:
        perp = side * np.array([-d[1], d[0], 0.0])
        return beside(plane.c2p(v), perp, mob, buff)
    pos = beyond(plane.c2p(v), d, mob, buff)
    if not lift:
        return pos
    # A vector along an axis would put its label on the axis line: lift it off.
    if abs(d[1]) < 0.3:
        pos = pos + (0.3 - abs(d[1])) / 0.3 * 0.6 * mob.height * UP
    elif abs(d[0]) < 0.3:
        pos = pos + (0.3 - abs(d[0])) / 0.3 * 0.6 * mob.width * RIGHT
    return pos


def live_tip_label(plane, text: str, get: Vec, color: str, size: float = style.LABEL_SIZE,
                   buff: float = style.SNUG + style.GAP):
    """A label that sits just beyond the tip of the vector ``get()``, following it, settled
    on every frame clear of the plane's labels and arrows
    (:meth:`VectorPlane.settle_live <scenes.widgets.plane.VectorPlane.settle_live>`)."""
    mob = label(text, size, color)
    state = plane.live_state(mob)

    def place(m):
        plane.settle_live(m, tip_label_position(plane, get(), m, buff, lift=False), state)

    place(mob)
    mob.add_updater(place)
    return mob


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
        (:func:`~scenes.widgets.placement.spread_labels`), with a leader line from its tip
        when it moves far. Labels clear of them keep their spots.
    """

    def __init__(self, plane, vectors, texts: Sequence[str], color: str,
                 size: float = style.SMALL_SIZE, buff: float = style.NEAR, side: int = 0,
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


class LiveTipLabel(VMobject):
    """A label that follows the tip of a moving vector, just beyond it.

    Parameters
    ----------
    plane, get
        As for :class:`~scenes.widgets.arrows.FastArrow`.
    mob
        The label mobject (made by :func:`scenes.widgets.text.label`).
    """

    def __init__(self, plane, get: Vec, mob, buff: float = style.NEAR, side: int = 0):
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


# ---------------------------------------------------------------- turned round the tip


@dataclass(frozen=True)
class TurnSearch:
    """Spots round a tip: turned by each of ``turns`` (degrees, from straight beyond the
    tip, in order of preference), at each of ``reaches`` further out than the label's
    ``buff`` (all turns at the first reach before the next)."""

    turns: tuple[float, ...]
    reaches: tuple[float, ...] = (0.0,)

    def spots(self, tip: np.ndarray, base: float, mob, buff: float):
        """``(turn, centre)`` of every spot, in order (``base``: the vector's angle)."""
        for extra in self.reaches:
            for turn in self.turns:
                yield turn, turned(tip, base, turn, mob, buff + extra)


def turned(tip: np.ndarray, base: float, turn: float, mob, buff: float) -> np.ndarray:
    """:func:`beyond` the tip, turned by ``turn`` degrees from the angle ``base`` (radians)."""
    a = base + np.radians(turn)
    return beyond(tip, np.array([np.cos(a), np.sin(a)]), mob, buff)


@dataclass(frozen=True)
class TurnCost:
    """What a spot round a tip costs (:func:`tip_labels`), summed.

    Attributes
    ----------
    outside
        A spot whose box (grown by :data:`~scenes.widgets.placement.BOX_PAD`) leaves the plane.
    crowded
        Per label placed before that the spot comes within ``LABEL_GAP`` of.
    covered
        Per point of another arrow's shaft, or avoided point, under the grown box.
    """

    outside: float = 100.0
    crowded: float = 10.0
    covered: float = 1.0


#: Static tip labels: straight beyond the tip, then swung either way by 30 degree steps up
#: to 180, then all of it again a little further out.
STATIC_TURNS = TurnSearch(turns=(0, 30, -30, 60, -60, 90, -90, 120, -120, 150, -150, 180),
                          reaches=(0.0, 0.25))
#: Leaving the plane is worst, a word on a word next, a shaft under a word least.
STATIC_COST = TurnCost()
#: Points sampled along a shaft a static label must not cover, and where they start (a
#: fraction of the way from the origin, which every arrow shares).
SHAFT_POINTS, SHAFT_FROM = 18, 0.15


def tip_labels(plane, items, color, size: float, avoid=(), buff: float = style.CLOSE,
               obstacles=(), search: TurnSearch = STATIC_TURNS,
               cost: TurnCost = STATIC_COST) -> VGroup:
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
    search, cost
        The spots tried round each tip and what a spot costs.

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
    tips = [plane.c2p(v) for v, _ in items]
    # Every other arrow is avoided along its whole shaft, not only at its tip.
    shafts = [line_marks(plane.origin, tip, BOX_PAD, SHAFT_POINTS, SHAFT_FROM)
              for tip in tips + [plane.c2p(v) for v in obstacles]]
    dots = point_marks(avoid, BOX_PAD)
    frame = box_of(plane)
    placed, out = [], [None] * len(items)
    order = sorted(range(len(items)), key=lambda i: -float(np.linalg.norm(items[i][0])))
    for i in order:
        v, text = items[i]
        m = label(text, size, colors[i])
        tip = tips[i]
        base = (np.arctan2(*(tip - plane.origin)[[1, 0]])
                if np.linalg.norm(tip - plane.origin) > 1e-6 else np.pi / 2)
        others = [mk for j, marks in enumerate(shafts) if j != i for mk in marks] + dots
        tried: list[np.ndarray] = []    # where each spot tried put the label

        def spot_cost(spot, m=m, others=others, tried=tried):
            _, (_, centre) = spot
            m.move_to(centre)
            tried.append(m.get_center())
            here = box_of(m)
            return (cost.outside * (outside(padded(here), frame) > 0)
                    + cost.crowded * count_near(here, placed, LABEL_GAP)
                    + cost.covered * count_near(here, others))

        best, _ = least_cost(enumerate(search.spots(tip, base, m, buff)), spot_cost)
        m.move_to(tried[best[0]])
        if any(near(box_of(m), o, LABEL_GAP) for o in placed):
            # No spot around the tip is clear of the labels placed before (two arrows
            # pointing the same way): the nearest one that is, inside the plane.
            place_labels([m], box=frame, obstacles=placed)
        placed.append(box_of(m))
        out[i] = m
    plane.register_labels(*out)   # live labels on the plane keep clear of these
    return VGroup(*out)


def away_turns(away: float) -> list[float]:
    """Straight beyond the tip, then swung by 30 degree steps up to 150, each first to the
    side ``away`` (+1 or -1) from the arrow to keep off."""
    return [0.0] + [away * a * s for a in (30, 60, 90, 120, 150) for s in (1, -1)]


#: Points sampled along the other arrow's shaft that :func:`tip_label_away` keeps off, and
#: where they start.
AWAY_SHAFT_POINTS, AWAY_SHAFT_FROM = 24, 0.05


def _head_box(tip: np.ndarray, d: np.ndarray, length: float) -> tuple[float, float, float, float]:
    """The box of an arrowhead drawn as :class:`~scenes.widgets.arrows.QuickArrow` draws it:
    ``length`` long and as wide, its point at ``tip``, along the unit direction ``d``."""
    base = tip[:2] - length * d[:2]
    side = 0.5 * length * np.array([-d[1], d[0]])
    xs, ys = zip(tip[:2], base + side, base - side)
    return min(xs), max(xs), min(ys), max(ys)


def tip_label_away(plane, text: str, get: Vec, color: str, get_other: Vec,
                   size: float = style.LABEL_SIZE, buff: float = style.NEAR):
    """A label that follows the tip of ``get()`` and keeps off the arrow of ``get_other()``.

    Two vectors a few degrees apart would put a plain tip label on the other arrow. This
    label tries spots around the tip (straight beyond it first, then swinging either way,
    the side away from the other vector first: :func:`away_turns`) and keeps the spot it has
    as long as that stays clear, so it does not flicker while the vectors move. A spot
    swung round the tip must also keep off the label's own shaft (up to its head). When no
    spot around the tip is free (a tip near the plane's edge, the other label beside it),
    the label takes the free spot nearest one of them, off both shafts and the axes, ending
    nearest the tip.

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

    def clear(m, center, shaft, own=(), head=()) -> bool:
        box = box_at(m, center)
        # off the other arrow, and off its own arrow's shaft and head (a label swung round
        # the tip could lie along it; a wide label beyond a slanted tip reaches back over the
        # head), by the shared touch test of live labels
        return (not count_near(padded(box), shaft)
                and not on_lines(box, own, head, reach=LINE_REACH))

    def fits(m, center) -> bool:
        # inside the plane's grid (a long name beyond a tip near the edge would hang out)
        # and clear of the plane's other labels
        return is_clear(box_at(m, center), plane.label_boxes(mob, m), within=plane.frame_box())

    def place(m):
        o = plane.origin
        tip = plane.c2p(np.asarray(get(), float))
        other = plane.c2p(np.asarray(get_other(), float))
        d, od = unit(tip - o), unit(other - o)
        base = np.arctan2(d[1], d[0])
        away = 1.0 if d[0] * od[1] - d[1] * od[0] <= 0 else -1.0
        shaft = line_marks(o, other, 0.0, AWAY_SHAFT_POINTS, AWAY_SHAFT_FROM)
        # its own shaft, to the head's base (the head as drawn: at most HEAD_LENGTH and
        # HEAD_RATIO of the arrow; a label beside the head is beyond the shaft)
        span = float(np.linalg.norm((tip - o)[:2]))
        head_length = min(HEAD_LENGTH, HEAD_RATIO * span)
        own = line_marks(o, tip - head_length * d) if span > 1e-6 else []
        head = [_head_box(tip, d, head_length)] if span > 1e-6 else []
        turns = away_turns(away)

        def blocked(turn) -> float:
            """0 for a spot clear of the arrows and inside the plane, clear of its labels."""
            c = turned(tip, base, turn, m, buff)
            return 0.0 if clear(m, c, shaft, own, head) and fits(m, c) else 1.0

        if state["turn"] is not None and not blocked(state["turn"]):
            m.move_to(turned(tip, base, state["turn"], m, buff))
            return
        turn, cost = least_cost(turns, blocked)
        if not cost:
            state["turn"] = turn
            m.move_to(turned(tip, base, turn, m, buff))
            return
        # No spot around the tip is clear of all: from each spot clear of the arrows, the
        # free spot nearest it inside the plane (clear of the labels and off both arrows'
        # shafts); the one that ends nearest the tip, so the label still names its arrow.
        state["turn"] = None
        marks = [*own, *head, *(line_marks(o, other) if np.linalg.norm((other - o)[:2]) > 1e-6
                         else [])]
        obstacles = [*plane.label_boxes(mob, m), *marks, *plane.axis_marks()]  # axes too
        starts = ([a for a in turns if clear(m, turned(tip, base, a, m, buff), shaft, own, head)]
                  or [away * 90])

        def settled(turn) -> tuple[np.ndarray, float]:
            """Where the pass settles the label from this turn, and how far from the tip."""
            m.move_to(turned(tip, base, turn, m, buff))
            place_labels([m], box=plane.frame_box(), obstacles=obstacles)
            l, r, b, t = box_of(m)
            return m.get_center().copy(), float(np.hypot(max(l - tip[0], 0, tip[0] - r),
                                                         max(b - tip[1], 0, tip[1] - t)))

        ends = [settled(turn) for turn in starts]
        (best, _), _ = least_cost(ends, lambda end: end[1], enough=-np.inf, margin=1e-9)
        m.move_to(best)

    place(mob)
    mob.add_updater(place)
    plane.register_labels(mob)
    return mob
