"""Label placement shared by every plane and chart: labels clear of each other and of obstacles.

A widget first puts each label where it would like it (just beyond an arrow's tip, beside a
dot, above a bar); :func:`place_labels` then settles them one by one, each at the free spot
nearest its wish: a spot is free when the label's box keeps :data:`LABEL_GAP` from every label
already settled and from every obstacle box, and lies inside the allowed box (the plane, the
panel, the safe area). Candidate spots form rings around the wished position, so a label moves
as little as it must; when the nearest free spot is far from what it names, a leader line
joins them (the caller adds the returned leaders to its group).

Lines a label must not sit on (an arrow's shaft, a polygon's edge) become small boxes every
:data:`LINE_STEP` along them (:func:`line_marks`, :func:`arrow_marks`); :func:`clear_lines`
places again only the labels that touch another label, a line or an arrowhead, so a layout
where nothing touches stays exactly as it was.

Boxes are ``(left, right, bottom, top)`` in frame units, like :func:`scenes.style.safe_box`;
how two boxes meet is :mod:`scenes.geometry`'s, re-exported here with this engine's
default clearances.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Line, Mobject, VMobject

from .. import geometry, style
from ..geometry import Box, beside, near, near_any
from .arrows import QuickArrow

__all__ = ["BOX_PAD", "DIRECTIONS", "HEAD_OVERLAP", "LABEL_GAP", "LEADER_AFTER", "LINE_HALF",
           "LINE_REACH", "LINE_STEP", "RINGS", "SIDES", "SIDE_COST", "SPOT_COST", "TOUCH_SLACK", "SideCost",
           "SpotCost",
           "arrow_marks", "beside", "box_at", "box_of", "clear_lines", "count_near", "is_clear",
           "leader_lines", "least_cost", "line_marks", "near", "near_any", "on_lines", "outside",
           "overlap_area", "padded", "place_beside", "place_labels", "point_marks", "spread_labels"]

#: The clearance kept between two labels (frame units; about 7 px at 720p). Closer than
#: this, two words on different lines read as one (``and`` over ``ran``).
LABEL_GAP = 0.09
#: Distances (frame units) of the candidate rings around a label's wished position.
RINGS = (0.0, 0.08, 0.16, 0.26, 0.38, 0.52, 0.7, 0.9, 1.15, 1.45, 1.8)
#: Directions tried on each ring.
DIRECTIONS = 24
#: A label settled further than this from its wished position gets a leader line.
LEADER_AFTER = 0.45
#: Spacing of the marks along a line a label must not sit on (frame units).
LINE_STEP = 0.08
#: Half a mark's size: about half the width of an arrow's shaft.
LINE_HALF = 0.02
#: Reach of a live label's touch test on lines: half the step between two marks, so a label
#: whose corner slips between two marks still touches the line (marks sampled elsewhere
#: along it, as the layout probe's are, would reach it).
LINE_REACH = LINE_STEP / 2
#: An arrowhead's box may overlap a label's this much (the empty corners of the triangle's
#: box) before the label counts as lying on the head: it does not cross the word.
HEAD_OVERLAP = 0.03
#: The margin a label's box is grown by where a search counts what it covers (points along
#: another arrow's shaft, dots, other labels' boxes): about 4 px at 720p.
BOX_PAD = 0.04
#: Slack of the touch test, so that two labels settled exactly ``gap`` apart do not touch.
TOUCH_SLACK = 1e-6

T = TypeVar("T")


def box_of(mob) -> Box:
    """The bounding box of ``mob``: manim's (``get_left()[0]``, ``get_right()[0]``,
    ``get_bottom()[1]``, ``get_top()[1]``), read in one pass over its points.

    Manim bounds a ``VMobject`` by the anchors of its family's curves (not their handles)
    and any other mobject by all its points; each of its four getters gathers them again.
    This is on the hot path (live labels settle on every frame), hence one pass.
    """
    kind = type(mob).get_points_defining_boundary
    if kind is VMobject.get_points_defining_boundary:
        parts = []
        for m in mob.get_family():
            p = m.points
            if len(p) == 1:
                parts.append(p)
            elif len(p):
                n = m.n_points_per_cubic_curve
                parts += [p[::n], p[n - 1::n]]
        pts = np.concatenate(parts) if parts else np.zeros((0, 3))
    elif kind is Mobject.get_points_defining_boundary:
        pts = mob.get_all_points()
    else:
        pts = mob.get_points_defining_boundary()
    if not len(pts):
        return Box(0.0, 0.0, 0.0, 0.0)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    return Box(float(lo[0]), float(hi[0]), float(lo[1]), float(hi[1]))


def line_marks(start: np.ndarray, end: np.ndarray, half: float = LINE_HALF,
               count: int | None = None, begin: float = 0.0) -> list[Box]:
    """Small boxes (``half`` around a point) along the line from ``start`` to ``end``: a label
    kept clear of them is not crossed by the line.

    By default a mark every :data:`LINE_STEP`, both ends included; ``count`` marks instead,
    evenly from the fraction ``begin`` of the way to ``end`` (a shaft sampled away from the
    origin it shares with every other arrow).
    """
    start, end = np.asarray(start, float), np.asarray(end, float)
    if count is None and not begin:
        n = max(2, int(np.linalg.norm(end[:2] - start[:2]) / LINE_STEP) + 1)
        points = np.linspace(start[:2], end[:2], n)
    else:
        n = count or max(2, int((1 - begin) * np.linalg.norm(end[:2] - start[:2]) / LINE_STEP) + 1)
        points = [start[:2] + f * (end[:2] - start[:2]) for f in np.linspace(begin, 1.0, n)]
    return point_marks(points, half)


def point_marks(points, half: float = LINE_HALF) -> list[Box]:
    """A box ``half`` around each point (frame units): what a label must not cover."""
    return geometry.point_marks(points, half)


def padded(box: Box, pad: float = BOX_PAD) -> Box:
    """``box`` grown by ``pad`` on every side."""
    return geometry.padded(box, pad)


def box_at(mob, centre: np.ndarray) -> Box:
    """The box ``mob`` would have with its centre at ``centre`` (it is not moved)."""
    hw, hh = mob.width / 2, mob.height / 2
    return Box(centre[0] - hw, centre[0] + hw, centre[1] - hh, centre[1] + hh)


def count_near(box: Box, boxes: Sequence[Box], gap: float = 0.0) -> int:
    """How many of ``boxes`` come closer than ``gap`` to ``box`` (:func:`near`)."""
    return sum(near(box, b, gap) for b in boxes)


def overlap_area(a: Box, b: Box, pad: float = BOX_PAD) -> float:
    """Area of the overlap of boxes ``a`` and ``b`` grown by ``pad`` on each overlapping axis."""
    return geometry.overlap_area(a, b, pad)


def outside(box: Box, within: Box | None) -> float:
    """How far ``box`` reaches out of ``within`` (the sum over its four sides; 0 inside)."""
    return geometry.outside(box, within)


def least_cost(candidates: Iterable[T], cost: Callable[[T], float], enough: float = 0.0,
               margin: float = 0.0,
               floor: Callable[[T], float] | None = None) -> tuple[T | None, float]:
    """The search every label placement runs: the first of ``candidates`` (spots, turns,
    sizes: whatever the configuration tries, in its order of preference) with the least
    ``cost``, and that cost; it stops at the first candidate that costs ``enough`` or less.
    A later candidate wins only when it costs less by more than ``margin``.
    ``floor(c)``, when given, is the least any candidate after ``c`` can cost: the search
    stops once the best so far costs less (candidates ordered outward by distance).

    A configuration is its candidates and the weights of its cost (a search that asks only
    "is this spot clear" costs 0 or 1, and so takes the first clear candidate).
    """
    best, best_cost = None, np.inf
    for c in candidates:
        k = cost(c)
        if k < best_cost - margin:
            best, best_cost = c, k
            if k <= enough:
                break
        if floor is not None and best_cost < floor(c):
            break
    return best, float(best_cost)


def arrow_marks(arrows) -> tuple[list[Box], list[Box]]:
    """The marks along the shafts of ``arrows`` (from their start to their tip's centre) and
    the boxes of their heads: what :func:`clear_lines` keeps labels off.

    ``arrows`` are manim ``Arrow`` objects or the project's
    :class:`~scenes.widgets.arrows.QuickArrow` (its ``line`` and ``tip``); a quick arrow
    drawn as nothing (a vector of length zero) has no marks."""
    shafts, heads = [], []
    for a in arrows:
        start, tip = (a.line, a.tip) if isinstance(a, QuickArrow) else (a, a.get_tip())
        if not (start.has_points() and tip.has_points()):
            continue
        head = box_of(tip)
        centre = np.array([(head[0] + head[1]) / 2, (head[2] + head[3]) / 2])   # get_center()
        shafts += line_marks(start.get_start(), centre)
        heads.append(head)
    return shafts, heads


def on_lines(box: Box, lines: Sequence[Box] = (), heads: Sequence[Box] = (),
             reach: float = 0.0) -> bool:
    """Whether a label with box ``box`` lies on a line (comes within ``reach`` of one of the
    marks ``lines``; with no reach, overlaps one) or on an arrowhead (overlaps one of
    ``heads`` by more than :data:`HEAD_OVERLAP`): the touch test of :func:`clear_lines` and
    of live labels (:meth:`~scenes.widgets.plane.VectorPlane.settle_live`, with
    :data:`LINE_REACH`)."""
    return near_any(box, heads, -HEAD_OVERLAP) or near_any(box, lines, reach)


def clear_lines(labels: Sequence[VMobject], lines: Sequence[Box] = (), heads: Sequence[Box] = (),
                box: Box | None = None, touch: float = LABEL_GAP,
                gap: float = LABEL_GAP, avoid: Sequence[Box] = ()) -> list[int]:
    """Place again, in place, the labels that touch another label, a line or an arrowhead.

    A label is placed again (:func:`place_labels`, clear of the other labels, the heads and
    the lines) only when it comes closer than ``touch`` to another label, comes within
    :data:`LINE_REACH` of a mark in ``lines`` or lies on a head by more than
    :data:`HEAD_OVERLAP`; every other label
    keeps its spot, so a layout where nothing touches is left exactly as it was.

    Parameters
    ----------
    labels
        Mobjects already placed (e.g. by :func:`place_labels`); earlier ones go first.
    lines
        Marks along the lines labels must not sit on (:func:`line_marks`, :func:`arrow_marks`).
    heads
        Boxes of arrowheads (:func:`arrow_marks`).
    box
        (left, right, bottom, top) a label placed again stays inside (the safe area when
        omitted).
    touch
        Two labels closer than this touch.
    gap
        Clearance a label placed again keeps from labels, heads and lines.
    avoid
        Further boxes a label placed again keeps clear of (e.g. marks along a plane's
        axes), which do not make a label touch: a label resting on them stays put.

    Returns
    -------
    list of int
        The indices of the labels placed again (leader lines: :func:`leader_lines`).
    """
    moved = []
    labels = list(labels)
    for i, m in enumerate(labels):
        others = [box_of(o) for o in labels if o is not m]
        here = box_of(m)
        # a line's marks are LINE_STEP apart: within LINE_REACH of one is on the line (a
        # box's corner between two marks touches it), as for live labels
        if (any(near(here, o, touch - TOUCH_SLACK) for o in others)
                or on_lines(here, lines, heads, reach=LINE_REACH)):
            place_labels([m], box=box, obstacles=[*others, *heads, *lines, *avoid], gap=gap)
            moved.append(i)
    return moved


def spread_labels(labels: Sequence[VMobject], anchors: Sequence[np.ndarray] | None = None,
                  pad: float = 0.06,
                  box: Box | None = None, lines: Sequence[Box] = (), heads: Sequence[Box] = (),
                  settle: bool = True, touch: float | None = None,
                  avoid: Sequence[Box] = ()) -> list[Line]:
    """Move overlapping labels apart, in place, each to the free spot nearest its wish
    (:func:`place_labels`); then place again the labels that still
    touch another label or lie on one of ``lines`` or ``heads``
    (:func:`clear_lines`). Returns leader lines for labels moved
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
        keep off (:func:`arrow_marks`); without them the labels
        are only kept apart.
    settle
        Settle every label first (the first pass); ``False`` leaves labels that touch
        nothing exactly where they are (labels already placed by another pass, such as
        :func:`scenes.widgets.tip_labels.tip_labels`) and only places again those that touch.
    touch
        Two labels closer than this touch (default: the clearance, ``pad`` or
        :data:`LABEL_GAP`, whichever is larger).
    avoid
        Further boxes a label placed again keeps clear of without their making it touch
        (:func:`clear_lines`).
    """
    gap = max(pad, LABEL_GAP)
    wishes = [m.get_center().copy() for m in labels]
    leaders = place_labels(labels, box=box, anchors=anchors, gap=gap) if settle else []
    if (len(lines) or len(heads)) and clear_lines(labels, lines, heads, box=box,
                                                  touch=gap if touch is None else touch,
                                                  gap=gap, avoid=avoid):
        # A label placed twice gets one leader line, for where it ends up.
        leaders = leader_lines(labels, wishes, anchors)
    return leaders


def leader_lines(labels: Sequence[VMobject], wishes: Sequence[np.ndarray],
                 anchors: Sequence[np.ndarray] | None = None,
                 leader_color: str | None = None) -> list[Line]:
    """A leader line for every label now further than :data:`LEADER_AFTER` from its wished
    centre (``wishes``), from its anchor (default: the wish) to the label's nearest point."""
    leaders = []
    for i, (m, wish) in enumerate(zip(labels, wishes)):
        if np.hypot(*(m.get_center() - wish)[:2]) > LEADER_AFTER:
            leaders.append(_leader(m, wish if anchors is None else anchors[i], leader_color))
    return leaders


def _leader(mob, anchor, leader_color: str | None) -> Line:
    anchor = np.asarray(anchor, float)
    end = geometry.nearest_point(np.array(box_of(mob)), anchor)
    return Line(anchor, end, stroke_width=1.5, color=leader_color or style.theme().muted)


def is_clear(box: Box, obstacles: Sequence[Box], gap: float = LABEL_GAP,
             within: Box | None = None) -> bool:
    """Whether a label with box ``box`` keeps ``gap`` from every box in ``obstacles`` (and
    lies inside ``within``, when given): the test :func:`place_labels` settles labels by."""
    a = np.array(box, float)
    others = np.array(obstacles, float).reshape(-1, 4)
    return geometry.clash(a, others, gap) == 0.0 and geometry.outside(a, within) == 0.0


def _ring_offsets() -> np.ndarray:
    offs = [(0.0, 0.0)]
    for r in RINGS[1:]:
        for k in range(DIRECTIONS):
            a = 2 * np.pi * k / DIRECTIONS
            offs.append((r * np.cos(a), r * np.sin(a)))
    return np.array(offs)


_OFFSETS = _ring_offsets()


@dataclass(frozen=True)
class SpotCost:
    """What a spot on the rings costs a label (:func:`place_labels`), summed.

    Attributes
    ----------
    clash
        Per unit of area it intrudes on an obstacle or a settled label (each grown by the
        clearance): any clash outweighs the longest move.
    outside
        Per unit it reaches out of the allowed box.
    distance
        Per unit it lies from the wished position: the nearest free spot wins.
    """

    clash: float = 1e3
    outside: float = 1e2
    distance: float = 1.0


#: Covering something is worst, leaving the box next; among free spots, the nearest.
SPOT_COST = SpotCost()


def place_labels(labels: Sequence[VMobject], box: Box | None = None,
                 obstacles: Sequence[Box] = (), anchors: Sequence[np.ndarray] | None = None,
                 gap: float = LABEL_GAP, leader_color: str | None = None) -> list[Line]:
    """Move ``labels`` (in place) to the free spots nearest where they stand.

    Parameters
    ----------
    labels
        Mobjects already at their wished positions; earlier ones get first choice.
    box
        (left, right, bottom, top) every label must stay inside (e.g. the plane's frame);
        the safe area when omitted.
    obstacles
        Boxes labels keep clear of (other text, a readout, a tip dot).
    anchors
        The point each label names (its arrow's tip, its dot); leader lines start there.
        Defaults to each label's wished centre.
    gap
        Clearance kept between labels and from obstacles.
    leader_color
        Colour of leader lines (default: the theme's muted colour).

    Returns
    -------
    list of Line
        A leader line for every label settled more than :data:`LEADER_AFTER` from its wish.
    """
    box = style.safe_box() if box is None else box
    placed: list[np.ndarray] = [np.array(o, float) for o in obstacles]
    leaders = []
    w = SPOT_COST
    for i, m in enumerate(labels):
        wish = m.get_center().copy()
        a = np.array(box_of(m))
        others = np.array(placed) if placed else np.zeros((0, 4))

        def spot_cost(off: np.ndarray, a=a, others=others) -> float:
            dx, dy = off
            c = a + np.array([dx, dx, dy, dy])
            return (w.clash * geometry.clash(c, others, gap) + w.outside * geometry.outside(c, box)
                    + w.distance * np.hypot(dx, dy))

        # rings grow outward: once the best is nearer than a ring, no later spot is better
        found, _ = least_cost(_OFFSETS, spot_cost,
                              floor=lambda off: 1e-9 + w.distance * np.hypot(off[0], off[1]))
        best = np.array(found, float)
        m.shift(np.array([best[0], best[1], 0.0]))
        placed.append(np.array(box_of(m)))
        if np.hypot(*best) > LEADER_AFTER:
            leaders.append(_leader(m, wish if anchors is None else anchors[i], leader_color))
    return leaders


# ---------------------------------------------------------------- a label beside a point


#: The eight sides of a point a label may take, in order of preference: right (a label
#: reads on from its point), the right diagonals, below, above, then the left ones.
SIDES = tuple(np.asarray(d, float) / np.linalg.norm(d)
              for d in (RIGHT, UP + RIGHT, DOWN + RIGHT, DOWN, UP, LEFT, UP + LEFT, DOWN + LEFT))


@dataclass(frozen=True)
class SideCost:
    """What a side of a point costs a label (:func:`place_beside`), summed.

    Attributes
    ----------
    covered
        Per unit of area of an obstacle's box (grown by :data:`BOX_PAD`) under the label.
    crowded
        Per unit of area of a placed label's box (grown by :data:`LABEL_GAP`) under it.
    on_line
        Per mark of a line or head within :data:`LABEL_GAP` of it.
    rank
        Per step down the order of :data:`SIDES` (breaks ties toward the preferred side).
    outside
        Per unit it reaches out of the box.
    """

    covered: float = 1.0
    crowded: float = 1.0
    on_line: float = 0.01
    rank: float = 1e-3
    outside: float = 10.0


#: Covering a thing is the fault; a line nearby only tips the balance; leaving the box is
#: worst.
SIDE_COST = SideCost()


def place_beside(mob, point: np.ndarray, obstacles: Sequence, buff: float = style.NEAR,
                 box: Box | None = None, labels: Sequence = (), lines: Sequence[Box] = (),
                 heads: Sequence[Box] = (), cost: SideCost = SIDE_COST) -> list[Line]:
    """Put ``mob`` beside ``point`` on the side (of :data:`SIDES`) where it covers the least
    of ``obstacles`` (mobjects), of ``labels`` (texts already placed) and of ``lines`` and
    ``heads`` (arrows' shafts and heads, :func:`arrow_marks`), staying inside ``box`` when
    one is given; ``cost`` weighs them.

    ``labels``, ``lines`` and ``heads`` are then kept :data:`LABEL_GAP` away: from the side
    chosen, :func:`place_labels` moves ``mob`` to the free spot nearest it. Returns the
    leader line that pass drew, if it moved ``mob`` far (add it beside ``mob``).
    """
    point = np.asarray(point, float)
    placed = [box_of(o) for o in labels]
    things = [box_of(o) for o in obstacles]

    spots: list[np.ndarray] = []    # where each side puts the label

    def side_cost(side) -> float:
        rank, d = side
        spots.append(beside(point, d, mob, buff))
        mob.move_to(spots[-1])
        here = box_of(mob)
        return (cost.covered * sum(overlap_area(here, o) for o in things)
                + cost.crowded * sum(overlap_area(here, o, LABEL_GAP) for o in placed)
                + cost.on_line * count_near(here, (*lines, *heads), LABEL_GAP)
                + cost.rank * rank + cost.outside * outside(here, box))

    (rank, _), _ = least_cost(enumerate(SIDES), side_cost, enough=-np.inf)
    mob.move_to(spots[rank])
    if not (len(labels) or len(lines) or len(heads)):
        return []
    return place_labels([mob], box=box, obstacles=[*placed, *lines, *heads], anchors=[point])
