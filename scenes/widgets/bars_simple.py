"""Simple bars for one softmax row, and a horizontal level gauge; both cheap to update.

Used by sections 15 and 16 (a row of weights that sharpens or flattens as the width
slides); updates resize existing rectangles, nothing is rebuilt per frame.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import DOWN, LEFT, UP, DashedVMobject, Line, Mobject, Rectangle, VGroup

from .. import style
from ..layout import Box
from .text import baseline, label


class RowBars(VGroup):
    """One vertical bar per token over a baseline, heights = values on a 0..1 scale.

    Parameters
    ----------
    labels
        Token labels, one per bar, under the baseline; when they would not fit side by side
        they alternate between two lines, and shrink only if that is still not enough.
    values
        Initial values, each in [0, 1] (softmax weights).
    box
        (left, right, bottom, top) in frame units: bars, labels and the top line fit inside.
    color
        Bar fill colour (weights are teal: ``theme.weight``).
    size
        Font size of the labels; shrunk to fit when there are many tokens.

    Attributes
    ----------
    bars
        The rectangles, in token order.
    top_line
        A faint dashed line at value 1 (the most any weight can reach).
    """

    def __init__(self, labels: Sequence[str], values: Sequence[float], box,
                 color: str | None = None, size: float = style.SMALL_SIZE):
        super().__init__()
        t = style.theme()
        l, r, b, top = box
        n = len(labels)
        slot = (r - l) / n
        bar_w = 0.62 * slot
        texts = [label(s, size, t.fg) for s in labels]
        widest = max(m.width for m in texts)
        # Many or long tokens: first stagger the labels on two lines (each then has two slots
        # of room), and only then shrink every label alike.
        rows = 2 if n > 2 and widest > 0.95 * slot else 1
        k = min(1.0, 0.95 * rows * slot / widest)
        if k < 1.0:
            for m in texts:
                m.scale(k)
        lab_h = label("x", size).height * k
        # Baseline to baseline: the upper line's descenders must clear the lower line's
        # ascenders ("dog" over "chased"), so at least one full label height.
        row_step = max(1.6 * lab_h, max(m.height for m in texts) + 0.05)
        self.base_y = b + lab_h + (rows - 1) * row_step + 0.3
        self.top_y = top
        self.height_per_unit = self.top_y - self.base_y
        self.xs = [l + (i + 0.5) * slot for i in range(n)]
        self.slot, self.bar_w = slot, bar_w
        base_line = Line([l, self.base_y, 0], [r, self.base_y, 0], color=t.muted, stroke_width=2)
        top_line = Line([l, self.top_y, 0], [r, self.top_y, 0], color=t.muted, stroke_width=1.5,
                        stroke_opacity=0.6)
        top_line = DashedVMobject(top_line, num_dashes=30, dashed_ratio=0.5)
        self.bars = [Rectangle(width=bar_w, height=1.0, stroke_width=0,
                               fill_color=color or t.weight, fill_opacity=0.9)
                     for _ in range(n)]
        ref_y = self.base_y - 0.15
        for x, m, s in zip(self.xs, texts, labels):
            m.move_to([x, 0, 0], aligned_edge=UP)
            m.shift((ref_y - m.get_top()[1]) * UP)
        # One baseline per label line (the top edges of "the" and "ran" differ).
        base = min(baseline(m, s) for m, s in zip(texts, labels))
        for i, (m, s) in enumerate(zip(texts, labels)):
            m.shift((base - (i % rows) * row_step - baseline(m, s)) * UP)
        self.labels = VGroup(*texts)
        self.top_line = top_line
        self.add(top_line, base_line, *self.bars, self.labels)
        self._follow = None
        self.set_values(values)

    def set_values(self, values: Sequence[float]) -> RowBars:
        """Resize the bars to ``values`` (0..1); cheap enough for every frame."""
        for x, bar, v in zip(self.xs, self.bars, values):
            h = max(float(v), 0.0) * self.height_per_unit
            w = self.bar_w
            bar.set_points_as_corners([
                [x - w / 2, self.base_y, 0], [x + w / 2, self.base_y, 0],
                [x + w / 2, self.base_y + h, 0], [x - w / 2, self.base_y + h, 0],
                [x - w / 2, self.base_y, 0],
            ])
        self.values = np.asarray(values, float)
        return self

    def follow(self, source: Callable[[], Sequence[float]]) -> RowBars:
        """Show ``source()`` on every frame."""
        if self._follow is not None:
            self.remove_updater(self._follow)
        self._follow = lambda m: m.set_values(source())
        self.add_updater(self._follow, call_updater=True)
        return self

    def level_line(self, value: float, color: str, stroke: float = 3) -> Line:
        """A horizontal line across the bars at ``value`` (e.g. the uniform weight 1/n)."""
        y = self.base_y + value * self.height_per_unit
        half = 0.5 * self.slot
        return Line([self.xs[0] - half, y, 0], [self.xs[-1] + half, y, 0], color=color,
                    stroke_width=stroke)

    def bar_top(self, i: int) -> np.ndarray:
        """Top centre of bar ``i`` (for a label that follows it)."""
        return np.array([self.xs[i], self.base_y + self.values[i] * self.height_per_unit, 0.0])


class LevelGauge(VGroup):
    """A horizontal track filled to ``value / full`` (e.g. the gradient factor w(1 − w)).

    Parameters
    ----------
    full
        The value that fills the track.
    width, height
        Track size in frame units.
    color
        Fill colour.
    """

    def __init__(self, full: float, width: float = 2.0, height: float = 0.16,
                 color: str | None = None):
        t = style.theme()
        self.full = float(full)
        track = Rectangle(width=width, height=height, stroke_color=t.muted, stroke_width=1.5,
                          fill_color=t.panel, fill_opacity=1.0)
        fill = Rectangle(width=width, height=height, stroke_width=0,
                         fill_color=color or t.weight, fill_opacity=1.0)
        super().__init__(track, fill)
        self.track, self.fill = track, fill
        self._follow = None
        self.set_value(full)

    def set_value(self, value: float) -> LevelGauge:
        a = float(np.clip(value / self.full, 0.0, 1.0))
        l = self.track.get_left()
        w, h = self.track.width, self.track.height
        x0, y0 = l[0], l[1]
        x1 = x0 + max(a * w, 1e-4)
        self.fill.set_points_as_corners([
            [x0, y0 - h / 2, 0], [x1, y0 - h / 2, 0], [x1, y0 + h / 2, 0],
            [x0, y0 + h / 2, 0], [x0, y0 - h / 2, 0],
        ])
        return self

    def follow(self, source: Callable[[], float]) -> LevelGauge:
        if self._follow is not None:
            self.remove_updater(self._follow)
        self._follow = lambda m: m.set_value(source())
        self.add_updater(self._follow, call_updater=True)
        return self


#: Height of the bars under a titled row (sections 15 and 16).
TITLED_BARS_HEIGHT = 1.6


def titled_row_bars(labels: Sequence[str], values: Sequence[float], box: Box, title: Mobject,
                    formula: Mobject) -> RowBars:
    """Sections 15 and 16's side panel: ``title`` at the box's top left (shrunk to the box's
    width if needed), ``formula`` under it, and the row's bars under both.

    ``title`` and ``formula`` are moved in place; the bars are returned.
    """
    box = Box(*box)
    box.place(box.fit(title), "top_left")
    formula.next_to(title, DOWN, buff=0.12, aligned_edge=LEFT)
    top = formula.get_bottom()[1] - 0.25
    return RowBars(labels, values, Box(box.l, box.r, top - TITLED_BARS_HEIGHT, top))
