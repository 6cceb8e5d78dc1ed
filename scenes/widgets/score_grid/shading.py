"""What a score grid's cells show: squares sized by score, tiles shaded by weight."""

from __future__ import annotations

from collections.abc import Callable
from typing import Self

import numpy as np
from manim import Animation, LaggedStart, Square, Transform, VMobject

from ... import contrast, style

__all__ = ["INSET", "NUMBER_RATIO", "WEIGHT_GAMMA", "GridShading"]

#: Fraction of a cell the largest square (score mode) or the shaded tile (weight mode) fills.
INSET = 0.9
#: Weight mode: shade = weight ** WEIGHT_GAMMA (a perceptual curve; small weights stay visible).
WEIGHT_GAMMA = 0.5
#: Weight mode: the least contrast a number in a cell keeps against its shaded tile; the
#: tile's densest shade is the one that leaves it (``contrast.densest_tint``), so one text
#: colour reads on every shade (no text colour reaches WCAG's 4.5:1 on every shade between
#: the background and the full weight colour). A tenth over 4.5 spares cairo's rounding.
NUMBER_RATIO = contrast.TEXT_RATIO + 0.1


def _unit_square() -> np.ndarray:
    """Bezier points of a square of side 1 centred on the origin (drawn once, reused)."""
    return Square(side_length=1.0).points.copy()


class GridShading:
    """Cell drawing of :class:`~scenes.widgets.score_grid.ScoreGrid`: a score's square (side
    by size, sign by colour and style: :func:`scenes.style.sign_mark`) or a weight's shade, updated in place from the values, and
    grown in when filled."""

    def side(self, v: float) -> float:
        """Score mode: side of the square of a score ``v`` (frame units)."""
        return INSET * self.pitch * min(1.0, abs(float(v)) / self.scale_value)

    def shade(self, w: float) -> float:
        """Weight mode: fill opacity of a cell of weight ``w``."""
        return self.full_shade * float(np.clip(w, 0.0, 1.0)) ** WEIGHT_GAMMA

    def _target_points(self, i: int, j: int, v: float | None = None) -> np.ndarray:
        v = self.values[i, j] if v is None else v
        side = self.side(v) if self.mode == "score" else INSET * self.pitch
        return self._unit * max(side, 1e-4) + self.square_center(i, j)

    def _style_cell(self, i: int, j: int, s: VMobject | None = None) -> None:
        """Colour data cell ``(i, j)``'s shape (or ``s``, a copy of it at its target size)."""
        s, v = s if s is not None else self.square(i, j), self.values[i, j]
        if self.mode == "score":
            style.sign_mark(s, v, opacity=self.presence[i, j])
        else:
            s.set_fill(self.theme.weight, opacity=self.shade(v) * self.presence[i, j])

    def _redraw(self) -> None:
        for i in range(self.n):
            for j in range(self.m):
                if self.discarded[i, j]:
                    continue
                s = self.square(i, j)
                if self._grown[i, j]:
                    s.set_points(self._target_points(i, j))
                self._style_cell(i, j)
        for (i, j), num in self.numbers.items():
            self._update_number(i, j, num)

    def set_values(self, values) -> Self:
        """Show new values in place (sizes, colours, shades, numbers); returns ``self``."""
        self.values = np.array(values, dtype=float).reshape(self.n, self.m)
        self._redraw()
        return self

    def set_presence(self, presence) -> Self:
        """Per-cell visibility in [0, 1] (a scalar or an ``(n, m)`` array): fades fills and numbers."""
        self.presence = np.broadcast_to(np.asarray(presence, float), (self.n, self.m)).copy()
        self._redraw()
        return self

    def bind(self, get_values: Callable[[], np.ndarray],
             get_presence: Callable[[], np.ndarray | float] | None = None) -> Self:
        """Follow ``get_values()`` (and ``get_presence()``) on every frame, e.g. a tracker's blend."""
        def follow(_):
            if get_presence is not None:
                self.presence = np.broadcast_to(np.asarray(get_presence(), float),
                                                (self.n, self.m)).copy()
            self.set_values(get_values())

        self.unbind()
        self._binding = follow
        self.add_updater(follow)
        return self

    def unbind(self) -> Self:
        """Remove the updater added by :meth:`bind`."""
        f = getattr(self, "_binding", None)
        if f is not None:
            self.remove_updater(f)
            self._binding = None
        return self

    def fill_cell(self, i: int, j: int) -> Animation:
        """The square of data cell ``(i, j)`` grows from its centre."""
        self._grown[i, j] = True
        s = self.square(i, j)
        target = s.copy().set_points(self._target_points(i, j))
        self._style_cell(i, j, target)          # the sign's outline is sized to the target
        return Transform(s, target)

    def fill_row(self, i: int, run_time: float = 1.0, lag_ratio: float = 0.25) -> Animation:
        """Grow the squares of row ``i`` left to right."""
        return LaggedStart(*[self.fill_cell(i, j) for j in range(self.m)],
                           lag_ratio=lag_ratio, run_time=run_time)

    def fill_all(self) -> Self:
        """Show every square at once (no animation)."""
        self._grown[:] = True
        self._redraw()
        return self
