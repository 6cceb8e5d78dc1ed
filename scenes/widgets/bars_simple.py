"""Simple bars for one softmax row, cheap to update.

Used by sections 15 and 16 (a row of weights that sharpens or flattens as the width
slides); updates resize existing rectangles, nothing is rebuilt per frame. The bars are a
:class:`scenes.widgets.columns.ColumnChart` (the token names under them are laid out by
:func:`scenes.widgets.columns.line_up_labels`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import DOWN, LEFT, UP, DashedVMobject, Line, Mobject, VMobject

from .. import style
from ..layout import Box
from .columns import ColumnChart, ColumnSlots, ValueAxis, line_up_labels, set_bar
from .redrawn import Redrawn, live_source
from .text import label

__all__ = ["TITLED_BARS_HEIGHT", "RowBars", "titled_row_bars"]


class RowBars(Redrawn, ColumnChart):
    """One vertical bar per token over a baseline, heights = values on a 0..1 scale.

    Parameters
    ----------
    labels
        Token labels, one per bar, under the baseline, laid out by
        :func:`scenes.widgets.columns.line_up_labels`.
    values
        Initial values, each in [0, 1] (softmax weights).
    box
        (left, right, bottom, top) in frame units: bars, labels and the top line fit inside.
    color
        Bar fill colour (weights are teal: ``theme.weight``).
    size
        Largest font size of the labels.

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
        self.slots = ColumnSlots.across(l, r, len(labels))
        self.bar_w = 0.62 * self.pitch
        names = line_up_labels(labels, self.xs, (l, r), size, t.fg)
        # The bars stand a row (ROW) above an x-height over the box's bottom, and a second line of
        # names pushes them up by its step.
        lab_h = label("x", size).height
        self.base_y = b + lab_h + (names.height - names.line_height) + style.ROW
        self.top_y = top
        base_line = self.axis_line(self.base_y)
        top_line = Line([l, self.top_y, 0], [r, self.top_y, 0], color=t.muted, stroke_width=1.5,
                        stroke_opacity=0.6)
        top_line = DashedVMobject(top_line, num_dashes=30, dashed_ratio=0.5)
        self.bars = [VMobject(stroke_width=0, fill_color=color or t.weight, fill_opacity=0.9)
                     for _ in range(self.n)]
        names.shift((self.base_y - style.NEAR - names.get_top()[1]) * UP)
        self.labels = names
        self.top_line = top_line
        self.add(top_line, base_line, *self.bars, self.labels)
        self._source = None
        self.set_values(values)

    def value_axis(self) -> ValueAxis:
        """Weights: 0 on the baseline, 1 on the dashed top line."""
        return ValueAxis(0.0, 1.0, self.base_y, self.top_y)

    def set_values(self, values: Sequence[float]) -> RowBars:
        """Resize the bars to ``values`` (0..1); cheap enough for every frame."""
        for x, bar, v in zip(self.xs, self.bars, values):
            set_bar(bar, x, self.base_y, self.y_of(max(float(v), 0.0)), self.bar_w)
        self.values = np.asarray(values, float)
        return self

    def follow(self, source: Callable[[], Sequence[float]]) -> RowBars:
        """Show ``source()`` on every frame (in place of an earlier source)."""
        following = self._source is not None
        self._source = live_source(source)
        if following:
            self.redraw()
        else:
            self.redraw_every_frame()
        return self

    def redraw(self) -> None:
        self.set_values(self._source())


#: Height of the bars under a titled row (sections 15 and 16).
TITLED_BARS_HEIGHT = 1.6


def titled_row_bars(labels: Sequence[str], values: Sequence[float], box: Box, title: Mobject,
                    formula: Mobject, below: float = 0.0) -> RowBars:
    """Sections 15 and 16's side panel: ``title`` at the box's top left (shrunk to the box's
    width if needed), ``formula`` under it, and the row's bars under both.

    A second line of token names takes its room under the bars' usual height, not out of
    it. ``below`` is the height the caller will stack under the bars (readouts, a card): the
    bars are made shorter when that is what it takes for it to end inside the box.

    ``title`` and ``formula`` are moved in place; the bars are returned.
    """
    box = Box(*box)
    box.place(box.fit(title), "top_left")
    formula.next_to(title, DOWN, buff=style.CLOSE, aligned_edge=LEFT)
    top = formula.get_bottom()[1] - style.GAP
    bars = RowBars(labels, values, Box(box.l, box.r, top - TITLED_BARS_HEIGHT, top))
    # The names keep their layout whatever the box's height: only the bars change.
    height = TITLED_BARS_HEIGHT + bars.labels.height - bars.labels.line_height
    over = max(0.0, box.b - (bars.get_bottom()[1] - (height - TITLED_BARS_HEIGHT) - below))
    if height - over != TITLED_BARS_HEIGHT:
        bars = RowBars(labels, values, Box(box.l, box.r, top - height + over, top))
    return bars
