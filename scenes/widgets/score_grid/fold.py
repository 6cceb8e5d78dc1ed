"""Folding a score grid over its diagonal: the transpose as a page turning."""

from __future__ import annotations

import numpy as np
from manim import PI, Animation, Mobject, rotation_matrix, smooth

__all__ = ["GridFold"]


class GridFold:
    """The fold of :class:`~scenes.widgets.score_grid.ScoreGrid` (square matrices)."""

    def fold(self, run_time: float = 2.5) -> Animation:
        """Reflect the matrix over its diagonal (square matrices): the squares flip about the
        diagonal like a page, row labels travel to the top and column labels to the left.

        Numbers in cells ride with their squares. At the end :attr:`transposed` toggles,
        so data cell ``(i, j)`` is drawn at screen ``(j, i)``; fold again to undo.
        """
        if self.n != self.m:
            raise ValueError("only a square matrix can be folded over its diagonal")
        l, r, b, t = self.grid_rect()
        center = np.array([(l + r) / 2, (b + t) / 2, 0.0])
        axis = np.array([1.0, -1.0, 0.0]) / np.sqrt(2.0)
        # Every piece with points (a discarded cell is a group of dashes) turns with the page.
        pieces = [sm for s in self.squares for sm in s.family_members_with_points()]
        home = [sm.points.copy() for sm in pieces]
        moving_numbers = {k: v.get_center() for k, v in self.numbers.items()}
        # Labels: rows go on top, columns to the left (keeping their own text upright).
        rows_old, cols_old = self.row_labels, self.col_labels
        starts = [m.copy() for m in list(rows_old) + list(cols_old)]
        targets = []
        for k, m in enumerate(rows_old):
            tgt = m.copy()
            if self.col_rotated:
                tgt.rotate(PI / 2)
            self._place_top(tgt, k, self._row_strings[k])
            targets.append(tgt)
        for k, m in enumerate(cols_old):
            tgt = m.copy()
            if self.col_rotated:
                tgt.rotate(-PI / 2)
            self._place_left(tgt, k, self._col_strings[k])
            targets.append(tgt)
        movers = list(rows_old) + list(cols_old)

        flip = rotation_matrix(PI, axis)
        done = [False]

        def update(_, a: float) -> None:
            if done[0]:
                return
            R = rotation_matrix(PI * a, axis)
            for sm, p in zip(pieces, home):
                sm.points = (p - center) @ R.T + center
            for key, num in self.numbers.items():
                c0 = moving_numbers[key]
                c1 = (c0 - center) @ flip.T + center
                num.move_to(c0 + (c1 - c0) * a)
            # Labels fade while they cross the corner, so the crowd mid-fold stays quiet.
            opacity = 1.0 - 0.75 * np.sin(PI * a)
            for mob, s0, s1 in zip(movers, starts, targets):
                for sm, f0, f1 in zip(mob.family_members_with_points(),
                                      s0.family_members_with_points(),
                                      s1.family_members_with_points()):
                    sm.interpolate(f0, f1, a)
                    sm.set_fill(opacity=opacity)
            if a >= 1.0:
                done[0] = True
                self._finish_fold()

        return _Driven(self, update, run_time=run_time, rate_func=smooth)

    def _finish_fold(self) -> None:
        self.transposed = not self.transposed
        self.row_labels, self.col_labels = self.col_labels, self.row_labels
        self._row_strings, self._col_strings = self._col_strings, self._row_strings
        for i in range(self.n):
            for j in range(self.m):
                if not self.discarded[i, j] and self._grown[i, j]:
                    self.square(i, j).set_points(self._target_points(i, j))


class _Driven(Animation):
    """Calls ``update(mobject, alpha)`` each frame without copying the (large) mobject.

    Unlike ``UpdateFromAlphaFunc`` it does not deep-copy the grid at the start, and the grid
    is one of the animation's mobjects, so the renderer redraws it every frame.
    """

    def __init__(self, mobject, update, **kwargs):
        self._update = update
        super().__init__(mobject, suspend_mobject_updating=False, **kwargs)

    def create_starting_mobject(self):
        return Mobject()

    def interpolate_mobject(self, alpha: float) -> None:
        self._update(self.mobject, self.rate_func(alpha))
