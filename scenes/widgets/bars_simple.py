"""Simple bars for one softmax row, and a horizontal level gauge; both cheap to update.

Used by sections 15 and 16 (a row of weights that sharpens or flattens as the width
slides); updates resize existing rectangles, nothing is rebuilt per frame.
:func:`line_up_labels` lays the token names under a row of columns, for these bars and for
:class:`scenes.widgets.score_columns.ScoreColumns` alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import DOWN, LEFT, UP, DashedVMobject, Line, Mobject, Rectangle, VGroup

from .. import style
from ..layout import Box
from .placement import LABEL_GAP
from .text import TOKEN_CELLS, baseline, label, screen_label
from .tokens import CUT_STEPS

#: The smallest font size token names under columns shrink to (15 px per em at 720p); past
#: it they stagger on two lines, then are cut shorter (the captions keep the whole word).
MIN_NAME_SIZE = style.TINY_SIZE
#: Step of the search for the largest scale at which the names fit.
_SCALE_STEP = 0.02


def _fits(widths: Sequence[float], xs: Sequence[float], span: tuple[float, float],
          rows: int) -> list[float] | None:
    """Centres of names of ``widths`` wished at ``xs``, on ``rows`` alternating lines, pulled
    inside ``span``; None when two names of one line come closer than :data:`LABEL_GAP`."""
    lo, hi = span
    out = []
    for w, x in zip(widths, xs):
        if w > hi - lo:
            return None
        out.append(min(max(x, lo + w / 2), hi - w / 2))
    for j in range(rows, len(out)):
        i = j - rows
        if out[j] - widths[j] / 2 - (out[i] + widths[i] / 2) < LABEL_GAP:
            return None
    return out


def line_up_labels(names: Sequence[str], xs: Sequence[float], span: tuple[float, float],
                   size: float = style.SMALL_SIZE, color: str | None = None) -> VGroup:
    """Token names under a row of columns: name ``j`` centred under ``xs[j]``, all inside
    ``span`` (left, right).

    Each name is drawn as :func:`scenes.widgets.text.screen_label` shows it. The names take
    one line if they fit, shrunk down to :data:`MIN_NAME_SIZE` at most; otherwise they
    alternate between two lines (each may then spread under its neighbours' columns),
    again shrunk within that limit, and then are cut shorter with an ellipsis
    (:data:`scenes.widgets.tokens.CUT_STEPS`); only the shortest cut shrinks further.
    Names at the ends are pulled inside ``span``; names of one line keep
    :data:`~scenes.widgets.placement.LABEL_GAP` apart, and so do the two lines. Every line
    sits on one baseline (``the`` and ``ran`` on the same one).

    Returns the names as a VGroup, the first line's baseline at y = 0; ``rows`` (1 or 2),
    ``shown`` (the strings drawn) and ``line_height`` (one line, ascent to descent) are
    set on it.
    """
    color = color or style.theme().fg
    min_k = min(1.0, MIN_NAME_SIZE / size)
    within = [*np.arange(1.0, min_k, -_SCALE_STEP), min_k]      # 1.0 down to min_k
    beyond = np.arange(min_k - _SCALE_STEP, 0.0, -_SCALE_STEP)  # the last resort only
    tries = [(TOKEN_CELLS, 1), (TOKEN_CELLS, 2)] + [(c, 2) for c in CUT_STEPS if c < TOKEN_CELLS]
    for n_try, (max_cells, rows) in enumerate(tries):
        shown = [screen_label(s, max_cells) for s in names]
        texts = [label(s, size, color) for s in shown]
        widths = [m.width for m in texts]
        last = n_try == len(tries) - 1
        for k in [*within, *beyond] if last else within:
            centres = _fits([k * w for w in widths], xs, span, rows)
            if centres is not None:
                break
        if centres is not None:
            break
    if centres is None:      # nothing fits: the shortest cut at the smallest size, as wished
        centres, k = list(xs), min_k
    for m in texts:
        if k < 1.0:
            m.scale(k)
    rise = max(m.get_top()[1] - baseline(m, s) for m, s in zip(texts, shown))
    drop = max(baseline(m, s) - m.get_bottom()[1] for m, s in zip(texts, shown))
    step = rise + drop + LABEL_GAP
    for j, (m, s, x) in enumerate(zip(texts, shown, centres)):
        m.move_to(np.array([x, 0.0, 0.0]))
        m.shift((-(j % rows) * step - baseline(m, s)) * UP)
    group = VGroup(*texts)
    group.rows, group.shown, group.line_height = rows, shown, rise + drop
    return group


class RowBars(VGroup):
    """One vertical bar per token over a baseline, heights = values on a 0..1 scale.

    Parameters
    ----------
    labels
        Token labels, one per bar, under the baseline, laid out by :func:`line_up_labels`.
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
        n = len(labels)
        slot = (r - l) / n
        bar_w = 0.62 * slot
        self.xs = [l + (i + 0.5) * slot for i in range(n)]
        names = line_up_labels(labels, self.xs, (l, r), size, t.fg)
        # The bars stand 0.3 above an x-height over the box's bottom, and a second line of
        # names pushes them up by its step.
        lab_h = label("x", size).height
        self.base_y = b + lab_h + (names.height - names.line_height) + 0.3
        self.top_y = top
        self.height_per_unit = self.top_y - self.base_y
        self.slot, self.bar_w = slot, bar_w
        base_line = Line([l, self.base_y, 0], [r, self.base_y, 0], color=t.muted, stroke_width=2)
        top_line = Line([l, self.top_y, 0], [r, self.top_y, 0], color=t.muted, stroke_width=1.5,
                        stroke_opacity=0.6)
        top_line = DashedVMobject(top_line, num_dashes=30, dashed_ratio=0.5)
        self.bars = [Rectangle(width=bar_w, height=1.0, stroke_width=0,
                               fill_color=color or t.weight, fill_opacity=0.9)
                     for _ in range(n)]
        names.shift((self.base_y - 0.15 - names.get_top()[1]) * UP)
        self.labels = names
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
    formula.next_to(title, DOWN, buff=0.12, aligned_edge=LEFT)
    top = formula.get_bottom()[1] - 0.25
    bars = RowBars(labels, values, Box(box.l, box.r, top - TITLED_BARS_HEIGHT, top))
    # The names keep their layout whatever the box's height: only the bars change.
    height = TITLED_BARS_HEIGHT + bars.labels.height - bars.labels.line_height
    over = max(0.0, box.b - (bars.get_bottom()[1] - (height - TITLED_BARS_HEIGHT) - below))
    if height - over != TITLED_BARS_HEIGHT:
        bars = RowBars(labels, values, Box(box.l, box.r, top - height + over, top))
    return bars
