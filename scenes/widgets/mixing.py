"""The value plane's shared helpers: the sections that draw the mix (``out = w @ v``) as
geometry place their values and labels with these.

- :func:`merged_labels`: one label for tokens that share a value;
- :func:`radial_labels`: labels just outside points, away from their centre, spread apart
  (:func:`~scenes.widgets.placement.beside`, then
  :func:`~scenes.widgets.placement.spread_labels`).

The value plane's range is :func:`scenes.widgets.plane.data_range` with ``step=0.5``; a label
beside a point is :func:`scenes.widgets.placement.place_beside`. The chain of weighted values
(section 20: ``scenes/sections/s20_mixing_chain/chain.py``), the hull and the zoomed window
(section 21: ``hull.py``, ``zoom.py``) live in their sections' folders.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import style
from .placement import beside, spread_labels
from .text import backed, label

__all__ = ["merged_labels", "radial_labels"]


def merged_labels(points: np.ndarray, labels: Sequence[str], tol: float = 1e-9
                  ) -> list[tuple[list[int], str]]:
    """Group tokens whose points coincide: ``[(indices, "the₁,₂"), ...]`` in first order.

    Repeated words share their value; drawing two labels on one tip would print them on top
    of each other. One word repeated is written once with its subscripts (``the₁,₂``: five
    repeats of a long word would otherwise span the plane); different words that share a
    point are listed (``cat dog``).
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
    return [(g, _joined([labels[i] for i in g])) for g in groups]


_SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉"


def _joined(names: list[str]) -> str:
    """One label for the names of one point: a repeated word once with its subscripts."""
    words = {n.rstrip(_SUBSCRIPTS) for n in names}
    if len(names) > 1 and len(words) == 1:
        word = words.pop()
        return word + ",".join(n[len(word):] for n in names)
    return " ".join(names)


def radial_labels(plane, points: np.ndarray, texts: Sequence[str], color: str,
                  size: float, center: np.ndarray | None, buff: float = style.NEAR,
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
