"""The value plane's shared helpers: the sections that draw the mix (``out = w @ v``) as
geometry place their values and labels with these.

- :func:`value_range`: a plane range that the values fill;
- :func:`merged_labels`: one label for tokens that share a value;
- :func:`radial_labels`: labels just outside points, away from their centre, spread apart;
- :func:`place_clear`: a label beside a point, on the side where it covers the least.

The chain of weighted values (section 20: ``scenes/sections/s20_mixing_chain/chain.py``),
the hull and the zoomed window (section 21: ``hull.py``, ``zoom.py``) live in their
sections' folders.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Line,
)

from .placement import LABEL_GAP, box_of, near, place_labels
from .projection import backed, spread_labels
from .text import label

Vec = Callable[[], np.ndarray]


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


def value_range(V: np.ndarray, pad: float = 0.2, step: float = 0.5,
                include_origin: bool = True) -> tuple[float, float, float, float]:
    """``(x_min, x_max, y_min, y_max)`` around the values, on multiples of ``step``.

    Unlike :func:`scenes.widgets.plane.data_range` the origin is included without padding
    and the bounds snap to half units, so values bunched in one quadrant fill the plane.
    """
    P = np.asarray(V, float).reshape(-1, 2)
    lo, hi = P.min(axis=0) - pad, P.max(axis=0) + pad
    if include_origin:
        lo, hi = np.minimum(lo, 0.0), np.maximum(hi, 0.0)
    lo = np.floor(lo / step) * step
    hi = np.ceil(hi / step) * step
    return float(lo[0]), float(hi[0]), float(lo[1]), float(hi[1])


def _overlap(a, b, pad: float = 0.04) -> float:
    """Area of overlap of two mobjects' bounding boxes (grown by ``pad``)."""
    dx = min(a.get_right()[0], b.get_right()[0]) - max(a.get_left()[0], b.get_left()[0]) + pad
    dy = min(a.get_top()[1], b.get_top()[1]) - max(a.get_bottom()[1], b.get_bottom()[1]) + pad
    return max(dx, 0.0) * max(dy, 0.0)


def place_clear(mob, point: np.ndarray, obstacles: Sequence, buff: float = 0.14,
                box: tuple[float, float, float, float] | None = None,
                labels: Sequence = (), lines: Sequence[tuple] = (),
                heads: Sequence[tuple] = ()) -> list[Line]:
    """Put ``mob`` beside ``point`` on the side (of eight) where it covers the least of
    ``obstacles`` (mobjects), of ``labels`` (texts already placed) and of ``lines`` and
    ``heads`` (arrows' shafts and heads, :func:`~scenes.widgets.placement.arrow_marks`),
    staying inside ``box`` when one is given.

    ``labels``, ``lines`` and ``heads`` are kept :data:`~scenes.widgets.placement.LABEL_GAP`
    away: the side chosen, the shared placement pass
    (:func:`~scenes.widgets.placement.place_labels`) moves ``mob`` to the free spot nearest
    it. Returns the leader line that pass drew, if it moved ``mob`` far (add it beside
    ``mob``).
    """
    point = np.asarray(point, float)
    best, best_cost = None, float("inf")
    dirs = [RIGHT, UP + RIGHT, DOWN + RIGHT, DOWN, UP, LEFT, UP + LEFT, DOWN + LEFT]
    for rank, d in enumerate(dirs):
        d = np.asarray(d, float) / np.linalg.norm(d)
        off = buff + 0.5 * abs(d[0]) * mob.width + 0.5 * abs(d[1]) * mob.height
        mob.move_to(point + off * d)
        here = box_of(mob)
        cost = (sum(_overlap(mob, o) for o in obstacles)
                + sum(_overlap(mob, o, LABEL_GAP) for o in labels)
                + 0.01 * sum(near(here, m, LABEL_GAP) for m in (*lines, *heads)) + 1e-3 * rank)
        if box is not None:
            l, r, b, t = box
            out = (max(0, l - mob.get_left()[0]) + max(0, mob.get_right()[0] - r)
                   + max(0, b - mob.get_bottom()[1]) + max(0, mob.get_top()[1] - t))
            cost += 10 * out
        if cost < best_cost:
            best, best_cost = point + off * d, cost
    mob.move_to(best)
    if not (len(labels) or len(lines) or len(heads)):
        return []
    return place_labels([mob], box=box, obstacles=[*(box_of(o) for o in labels), *lines, *heads],
                        anchors=[point])


def radial_labels(plane, points: np.ndarray, texts: Sequence[str], color: str,
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
        off = (buff + 0.5 * abs(d[0]) * m.width + 0.5 * abs(d[1]) * m.height)
        m.move_to(plane.c2p(p) + off * np.array([d[0], d[1], 0.0]))
        mobs.append(m)
    anchors = [plane.c2p(q) for q in P] if len(lines) or len(heads) else None
    leaders = spread_labels(mobs, box=plane.frame_box(), anchors=anchors, lines=lines,
                            heads=heads)
    return mobs, leaders


