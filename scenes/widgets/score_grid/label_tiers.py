"""How a score grid lays out its token labels and its cells: sizes and tiers."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from manim import Mobject

from ... import style
from ...geometry import Box
from ..glyph_cache import EM_PER_FONT_SIZE
from ..placement import LABEL_GAP
from ..text import baseline, label

__all__ = ["MAX_PITCH", "MAX_TIERS", "MIN_LABEL_SIZE", "TIER_SPACE_EM",
           "GridLabels", "opening_pitch"]

#: Column labels too wide to stand side by side are staggered into at most this many tiers.
MAX_TIERS = 3
#: Least space between two neighbouring labels of one tier, in ems of the label font.
TIER_SPACE_EM = 1.25
#: Labels shrink to this font size (no lower) before their columns turn, when the cells
#: they fit at the given size are too small for the rows to keep :data:`LABEL_GAP`.
MIN_LABEL_SIZE = style.TINY_SIZE


#: The largest cell side (units) a grid takes when its box leaves room.
MAX_PITCH = 1.1


def opening_pitch(n: int) -> float:
    """The cell cap of a grid that opens a section alone: its cells may grow until it spans
    what a three-token grid spans at :data:`MAX_PITCH`, so a two-token grid is not a small
    block in a corner (the layout probe's opening rule); from three tokens on, the usual cap."""
    return 3 * MAX_PITCH / min(n, 3)


class GridLabels:
    """The label layout of :class:`~scenes.widgets.score_grid.ScoreGrid`: which font size,
    cut and number of tiers the token labels take, the cell size that leaves, and where
    each label stands."""

    @staticmethod
    def auto_label_size(n: int) -> float:
        """Label font size for ``n`` tokens: full size up to 6, down to 17 at 12."""
        if n <= 6:
            return style.LABEL_SIZE
        return max(17.0, style.LABEL_SIZE - (n - 6) * (style.LABEL_SIZE - 17.0) / 6.0)

    def _layout(self, box: Box, row_strings: list[str], col_strings: list[str], size: float,
                max_pitch: float, corner: str | None) -> tuple[list, list]:
        """Choose how the labels are drawn, their font size and the cell size; returns the
        (unplaced) row and column label mobjects.

        In order of preference: column labels upright side by side; then staggered into 2,
        then :data:`MAX_TIERS` tiers. Every layout keeps its rows far enough apart for their
        labels (:meth:`_row_pitch`). If none fits at ``size``, the same at
        :data:`MIN_LABEL_SIZE`. Vertical labels are the last resort (at the first of those sizes
        that leaves the rows their pitch). The labels are drawn as
        given: :func:`scenes.widgets.tokens.shown_names` cuts a sentence's long tokens once,
        for every widget.
        """
        self.buff = style.NEAR
        th = self.theme
        corner_mob = label(corner, style.TINY_SIZE) if corner else None
        made: dict[float, tuple] = {}

        def mobs(sz: float):
            if sz not in made:
                rows = [label(x, sz, th.query) for x in row_strings]
                cols = [label(x, sz, th.key) for x in col_strings]
                need = self._row_pitch(rows, row_strings)
                if self.n == self.m:     # after a fold the column labels stand in the rows
                    need = max(need, self._row_pitch(cols, col_strings))
                made[sz] = (rows, cols, need, self._line_height(cols, col_strings))
            return made[sz]

        sizes = [size] + ([MIN_LABEL_SIZE] if size > MIN_LABEL_SIZE else [])
        for sz, tiers in [(sz, tiers) for sz in sizes for tiers in range(1, MAX_TIERS + 1)]:
            self.label_size = sz
            rows, cols, need, line = mobs(sz)
            geo = self._fit(box, rows, cols, tiers, max_pitch, corner_mob, need, line=line)
            if geo is not None:
                self.col_rotated = False
                break
        else:
            # Turned column labels free the width; the rows still need their pitch, so the
            # labels take the first size at which the cells leave it, down to the floor of a
            # crowded widget's words if they must (twelve rows in a narrow panel).
            floor = [float(x) for x in np.arange(sizes[-1] - 1, style.FLOOR_SIZE - 0.01, -1)]
            for sz in [*sizes, *floor]:
                rows, cols, need, _ = mobs(sz)
                geo = self._fit(box, rows, cols, 1, max_pitch, None, rotated=True)
                if geo[2] >= need:
                    break
            self.label_size = sz
            self.col_rotated = True
        rs, cs = list(row_strings), list(col_strings)
        self.row_texts, self.col_texts = rs, cs
        self.col_tiers, self.tier_step, pitch, over_l, over_r, top_h = geo
        rw = max(m.width for m in rows)
        l, r, b, t = box
        self.pitch = float(pitch)
        self.left_w, self.top_h = rw + self.buff, top_h
        block_w = over_l + self.left_w + self.m * pitch + over_r
        block_h = top_h + self.n * pitch
        cx, cy = (l + r) / 2, (b + t) / 2
        # origin = top-left corner of the cell block
        self.origin = (cx - block_w / 2 + over_l + self.left_w, cy + block_h / 2 - top_h)
        return rows, cols

    def _fit(self, box: Box, rows, cols, tiers: int, max_pitch: float, corner,
             need: float = 0.0, rotated: bool = False, line: float = 0.0):
        """Geometry of a layout with column labels in ``tiers`` tiers, or None if they would
        not fit (or the cells would be smaller than ``need``, the least row pitch; ``line``
        is the labels' ascent to descent on one baseline):
        ``(tiers, tier step, pitch, left overhang, right overhang, top height)``."""
        l, r, b, t = box
        buff, m = self.buff, self.m
        rw = max(x.width for x in rows)
        widths = np.array([x.width for x in cols])
        ch = max(x.height for x in cols)
        if rotated:
            top_h = float(widths.max()) + buff
            pitch = min((r - l - rw - buff) / m, (t - b - top_h) / self.n, max_pitch)
            return 1, 0.0, pitch, 0.0, 0.0, top_h
        # Tiers stand on baselines: the tallest ascent of one and the deepest descent of the
        # next may belong to different labels (an emoji over a "y").
        step = max(ch, line) + LABEL_GAP
        top_h = ch + (tiers - 1) * step + buff
        pitch = min((r - l - rw - buff) / m, (t - b - top_h) / self.n, max_pitch)
        if pitch < need:
            return None
        if tiers == 1:
            return (1, step, pitch, 0.0, 0.0, top_h) if widths.max() <= 0.92 * pitch else None
        centres = np.arange(m) + 0.5
        over_l = over_r = 0.0
        for _ in range(3):   # labels past the cell block take room from the cells
            over_r = max(0.0, float(np.max(centres * pitch + widths / 2)) - m * pitch)
            over_l = max(0.0, float(np.max(widths / 2 - centres * pitch)) - rw - buff)
            pitch = min(pitch, (r - l - rw - buff - over_l - over_r) / m)
        if pitch < need:
            return None
        # Neighbours in a tier are a word space apart at least, so that a tier does not read
        # as a phrase ("old chased red").
        space = max(LABEL_GAP, TIER_SPACE_EM * self.label_size * EM_PER_FONT_SIZE)
        if any((widths[c] + widths[c + tiers]) / 2 + space > tiers * pitch
               for c in range(m - tiers)):
            return None
        if corner is not None:  # the corner text sits left of the first column, in tier 0
            for c in range(m):
                if self.tier_of(c, tiers) == 0 and (c + 0.5) * pitch - widths[c] / 2 < LABEL_GAP - buff:
                    return None
        return tiers, step, pitch, over_l, over_r, top_h

    @staticmethod
    def _line_height(mobs, strings) -> float:
        """Ascent to descent of these labels set on one baseline."""
        asc = [m.get_top()[1] - baseline(m, s) for m, s in zip(mobs, strings)]
        desc = [baseline(m, s) - m.get_bottom()[1] for m, s in zip(mobs, strings)]
        return max(asc) + max(desc)

    @staticmethod
    def _row_pitch(mobs, strings) -> float:
        """The least cell size at which these labels, one per row on a common baseline (as
        :meth:`_place_left` sets them), keep :data:`LABEL_GAP` between neighbours."""
        asc, desc = [], []
        for mob, s in zip(mobs, strings):
            base = baseline(mob, s)
            asc.append(mob.get_top()[1] - base)
            desc.append(base - mob.get_bottom()[1])
        pairs = [desc[k] + asc[k + 1] for k in range(len(mobs) - 1)]
        return max(pairs, default=0.0) + LABEL_GAP

    def min_pitch(self, beside: Iterable[Mobject] = ()) -> float:
        """The smallest cell size at which the row labels (and texts drawn one per row
        ``beside`` the grid, e.g. a column of results) keep :data:`LABEL_GAP` between rows."""
        return max(m.height for m in [*self.row_labels, *beside]) + LABEL_GAP

    @staticmethod
    def tier_of(c: int, tiers: int) -> int:
        """Tier of screen column ``c``'s label (0 next to the grid); the first column is
        highest, clear of the corner text."""
        return tiers - 1 - c % tiers

    def _place_left(self, mob, r: int, s: str | None = None) -> None:
        """Right-align a (horizontal) label to the left of screen row ``r``, on a common baseline."""
        s = s if s is not None else ""
        y = self.cell_center(r, 0)[1]
        mob.move_to([self.origin[0] - self.buff - mob.width / 2, y, 0])
        if s:
            mob.shift([0, y - self._drop - baseline(mob, s), 0])

    def _place_top(self, mob, c: int, s: str | None = None, rotated: bool | None = None) -> None:
        """Put a label above screen column ``c`` (vertical when the columns are narrow)."""
        rotated = self.col_rotated if rotated is None else rotated
        x = self.cell_center(0, c)[0]
        y0 = self.origin[1] + self.buff + self.tier_of(c, self.col_tiers) * self.tier_step
        mob.move_to([x, y0 + mob.height / 2, 0])      # vertical labels: bottoms on the grid
        if s and not rotated:  # horizontal ones: baselines on one line just above the grid
            mob.shift([0, y0 + 0.06 - baseline(mob, s), 0])

    def _corner_label(self, text: str):
        t = self.theme
        mob = label(text, style.TINY_SIZE, t.muted)
        room_w, room_h = self.left_w - self.buff, self.top_h - self.buff
        # Shrunk into the corner, but never under the floor: a narrow row of labels ('c₁')
        # leaves it room to reach left, beyond them, clear of the column labels on its right.
        if mob.width > room_w or mob.height > room_h:
            mob.scale(max(style.FLOOR_SIZE / style.TINY_SIZE,
                          min(room_w / mob.width, room_h / mob.height)))
        mob.move_to([self.origin[0] - self.buff - mob.width / 2,
                     self.origin[1] + self.buff + mob.height / 2, 0])
        return mob
