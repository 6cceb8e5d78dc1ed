"""Two progress bars, each a fraction of its own track (section 8: the cost of the
projections against the square's as the context grows)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import Line, Rectangle, VGroup

from .. import style
from .columns import set_rect
from .redrawn import Redrawn
from .text import label

__all__ = ["CostBars"]


class CostBars(Redrawn, VGroup):
    """Two horizontal bars whose lengths follow ``get()`` -> ``(a, b)`` (fractions of ``width``).

    Used by section 8 to compare the projections' cost with the square's as the context grows.

    Not a configuration of :class:`scenes.widgets.columns.ColumnChart`, though both draw bars
    with :func:`~scenes.widgets.columns.set_rect`: a column chart stands one bar per token
    in slots of one pitch on a value axis, with numbers past the bars' ends and names under
    a baseline; these are two progress bars, each a fraction of its own track under its own
    title (a row as tall as its title, not a slot of a common pitch), with no axis, numbers
    or names, and they read their position from the group (the scene moves it).

    Parameters
    ----------
    names
        The two bar titles (localised by the caller), drawn above each bar.
    colors
        The two bar colours (theme roles).
    get
        Callable returning the two lengths as fractions of ``width`` (clipped to [0, 1]).
    """

    def __init__(self, names: Sequence[str], colors: Sequence[str],
                 get: Callable[[], tuple[float, float]], *, width: float = 4.0,
                 size: float = style.SMALL_SIZE, bar_h: float = 0.26):
        t = style.theme()
        self.get, self.width_units, self.bar_h = get, width, bar_h
        parts, self.bars, self.tracks = [], [], []
        y = 0.0
        for name, color in zip(names, colors):
            title = label(name, size, t.fg)
            title.move_to([title.width / 2, y - title.height / 2, 0])
            y -= title.height + style.TIGHT
            bar = Rectangle(width=width, height=bar_h, fill_color=color, fill_opacity=1,
                            stroke_width=0)
            bar.move_to([width / 2, y - bar_h / 2, 0])
            track = Line([0, y - bar_h / 2, 0], [width, y - bar_h / 2, 0]).set_stroke(t.grid, 2)
            self.bars.append((bar, y - bar_h / 2))
            self.tracks.append(track)
            parts += [track, bar, title]
            y -= bar_h + style.ROW
        super().__init__(*parts)
        self.redraw_every_frame()

    def redraw(self) -> None:
        fractions = self.get()
        x0 = self.tracks[0].get_start()[0]
        for (bar, _), f in zip(self.bars, fractions):
            w = max(1e-3, self.width_units * float(np.clip(f, 0.0, 1.0)))
            y = bar.get_center()[1]          # where the bar is now: the scene moves the group
            set_rect(bar, x0, x0 + w, y - self.bar_h / 2, y + self.bar_h / 2)
