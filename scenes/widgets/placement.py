"""Label placement shared by every plane and chart: labels clear of each other and of obstacles.

A widget first puts each label where it would like it (just beyond an arrow's tip, beside a
dot, above a bar); :func:`place_labels` then settles them one by one, each at the free spot
nearest its wish: a spot is free when the label's box keeps :data:`LABEL_GAP` from every label
already settled and from every obstacle box, and lies inside the allowed box (the plane, the
panel, the safe area). Candidate spots form rings around the wished position, so a label moves
as little as it must; when the nearest free spot is far from what it names, a leader line
joins them (the caller adds the returned leaders to its group).

Boxes are ``(left, right, bottom, top)`` in frame units, like :func:`scenes.style.safe_box`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import Line, VMobject

from .. import style

#: The clearance kept between two labels (frame units; about 7 px at 720p). Closer than
#: this, two words on different lines read as one (``and`` over ``ran``).
LABEL_GAP = 0.09
#: Distances (frame units) of the candidate rings around a label's wished position.
RINGS = (0.0, 0.08, 0.16, 0.26, 0.38, 0.52, 0.7, 0.9, 1.15, 1.45, 1.8)
#: Directions tried on each ring.
DIRECTIONS = 24
#: A label settled further than this from its wished position gets a leader line.
LEADER_AFTER = 0.45

Box = tuple[float, float, float, float]


def box_of(mob) -> Box:
    """The bounding box of ``mob``."""
    return (float(mob.get_left()[0]), float(mob.get_right()[0]),
            float(mob.get_bottom()[1]), float(mob.get_top()[1]))


def _clash(a: np.ndarray, others: np.ndarray, gap: float) -> float:
    """How much box ``a`` intrudes on the boxes ``others`` (with ``gap`` around each)."""
    if not len(others):
        return 0.0
    ox = np.minimum(a[1], others[:, 1]) - np.maximum(a[0], others[:, 0]) + gap
    oy = np.minimum(a[3], others[:, 3]) - np.maximum(a[2], others[:, 2]) + gap
    return float(np.sum(np.clip(ox, 0, None) * np.clip(oy, 0, None) * ((ox > 0) & (oy > 0))))


def is_clear(box: Box, obstacles: Sequence[Box], gap: float = LABEL_GAP,
             within: Box | None = None) -> bool:
    """Whether a label with box ``box`` keeps ``gap`` from every box in ``obstacles`` (and
    lies inside ``within``, when given): the test :func:`place_labels` settles labels by."""
    a = np.array(box, float)
    others = np.array(obstacles, float).reshape(-1, 4)
    return _clash(a, others, gap) == 0.0 and _outside(a, within) == 0.0


def _outside(a: np.ndarray, box: Box | None) -> float:
    if box is None:
        return 0.0
    l, r, b, t = box
    return float(max(0, l - a[0]) + max(0, a[1] - r) + max(0, b - a[2]) + max(0, a[3] - t))


def _ring_offsets() -> np.ndarray:
    offs = [(0.0, 0.0)]
    for r in RINGS[1:]:
        for k in range(DIRECTIONS):
            a = 2 * np.pi * k / DIRECTIONS
            offs.append((r * np.cos(a), r * np.sin(a)))
    return np.array(offs)


_OFFSETS = _ring_offsets()


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
    for i, m in enumerate(labels):
        wish = m.get_center().copy()
        a = np.array(box_of(m))
        best, best_cost = np.zeros(2), np.inf
        others = np.array(placed) if placed else np.zeros((0, 4))
        for dx, dy in _OFFSETS:
            c = a + np.array([dx, dx, dy, dy])
            cost = 1e3 * _clash(c, others, gap) + 1e2 * _outside(c, box) + np.hypot(dx, dy)
            if cost < best_cost:
                best, best_cost = np.array([dx, dy]), cost
                if cost == 0.0:
                    break
            if best_cost < 1e-9 + np.hypot(dx, dy):
                # rings grow outward: no later candidate can be nearer and free
                break
        m.shift(np.array([best[0], best[1], 0.0]))
        placed.append(np.array(box_of(m)))
        if np.hypot(*best) > LEADER_AFTER:
            anchor = wish if anchors is None else np.asarray(anchors[i], float)
            end = _nearest_point(np.array(box_of(m)), anchor)
            leaders.append(Line(anchor, end, stroke_width=1.5,
                                color=leader_color or style.theme().muted))
    return leaders


def _nearest_point(b: np.ndarray, p: np.ndarray) -> np.ndarray:
    """The point of box ``b`` nearest ``p`` (where a leader line ends)."""
    return np.array([np.clip(p[0], b[0], b[1]), np.clip(p[1], b[2], b[3]), 0.0])


def fit_into(mob, box: Box | None = None) -> VMobject:
    """Shift ``mob`` (no scaling) so that it lies inside ``box`` (default: the safe area)."""
    l, r, b, t = style.safe_box() if box is None else box
    ml, mr, mb, mt = box_of(mob)
    dx = max(0.0, l - ml) - max(0.0, mr - r)
    dy = max(0.0, b - mb) - max(0.0, mt - t)
    mob.shift(np.array([dx, dy, 0.0]))
    return mob
