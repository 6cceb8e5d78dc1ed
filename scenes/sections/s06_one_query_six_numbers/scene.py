"""Section 6. One query, six numbers.

One query meets every key at once: the plane becomes a row of n numbers. The query
walks through the sentence (smoothly from one token's query to the next) and the
columns show its raw-score row live. Raw dot products have no bounds: the largest
and the smallest score of the whole matrix are marked when the walk reaches them.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    Create,
    FadeIn,
    Flash,
    GrowArrow,
    LaggedStart,
    ValueTracker,
    VGroup,
    smooth,
)

from attn_math import core
from scenes import style, timing
from scenes.base import SectionScene
from scenes.layout import Box, fit_width
from scenes.sections.s06_one_query_six_numbers.derived import extreme_cells
from scenes.widgets.placement import LABEL_GAP, arrow_marks, spread_labels
from scenes.widgets.plane import VectorPlane, data_range
from scenes.widgets.score_columns import ScoreColumns
from scenes.widgets.text import label
from scenes.widgets.tip_labels import tip_labels
from scenes.widgets.tokens import TokenStrip

WALK_SECONDS = 13.0     # the whole walk through the sentence, pauses excluded
KEYS_GROW = 1.2         # the keys growing in, one after another
TIP_CLEAR = style.SNUG        # names closer than this are placed again (tip_labels itself keeps LABEL_GAP)
STEP_PAUSE = 0.3        # seconds the query rests on each token, so the row it stops on is read


#: The most names a shared key's label lists in full; past it, the first and the last.
SHARED_NAMES = 3


def shared_key_name(names: list[str]) -> str:
    """The label of a key several tokens share (one word repeated): ``the₁, the₂``; past
    :data:`SHARED_NAMES` names, ``🍎₁, …, 🍎₁₁`` (eleven names side by side would run off the
    plane)."""
    if len(names) > SHARED_NAMES:
        names = [names[0], "\u2026", names[-1]]
    return ", ".join(names)


class OneQuerySixNumbers(SectionScene):

    @property
    def cells(self):
        """The cells of the largest and the smallest raw score (``derived.py``)."""
        return extreme_cells(self.story)

    def construct(self):
        self.open()
        self.build()
        self.say("intro")
        self.show_row()
        self.settle()
        self.walk()
        self.say("no_scale")
        self.settle(timing.LAST_HOLD_LONG)

    # ------------------------------------------------------------ set-up

    def layout(self, names: list[str]) -> TokenStrip:
        """The sentence across the top (the query walks along it); below, the plane on
        the left and the columns on the right, which take more room for long sentences.
        Returns the strip of ``names``."""
        s, t = self.story, self.theme
        box = style.content_box()
        self.q_tag = label("q", style.LABEL_SIZE, t.query)
        strip = TokenStrip(names, width=box.width - self.q_tag.width - style.ROW,
                           size=style.SMALL_SIZE, chip_height=0.45)
        strip.move_to(np.array([box.center[0] + (self.q_tag.width + style.ROW) / 2,
                                box.t - strip.height / 2, 0]))
        self.q_tag.next_to(strip, LEFT, buff=style.ROW)
        below = strip.get_bottom()[1] - style.ROW
        w = box.width
        cols_w = float(np.clip(0.72 * s.n, 0.42 * w, 0.6 * w))
        self.plane_box = Box(box.l, box.r - cols_w - (style.ROW + style.NUDGE), box.b, below)
        self.right_box = Box(box.r - cols_w, box.r, box.b, below)
        return strip

    def chart(self, names: list[str]) -> ScoreColumns:
        """The legend's lines and, under them, the columns of ``names`` (right of the plane,
        under the strip: after :meth:`layout`)."""
        s = self.story
        side = self.right_box
        self.legend_y = side.t - style.NEAR
        # The two legend entries share one line when each fits half of it (shrunk by 10 % at
        # most); otherwise the maximum's goes on a first line and the minimum's on a second.
        half = side.width / 2 - style.TIGHT
        entries = [self._entry(w, names) for w in ("max", "min")]
        shrink = min(1.0, *[half / e.width for e in entries])
        self.legend_rows = 1 if shrink >= 0.9 else 2
        # A line's step keeps the two entries LABEL_GAP apart (its brackets reach down).
        self.legend_step = max(e.height for e in entries) + LABEL_GAP
        lo, hi = float(min(s.R.min(), 0.0)), float(max(s.R.max(), 0.0))
        pad = 0.04 * (hi - lo)
        chart_top = self.legend_y - style.ROW - (self.legend_rows - 1) * self.legend_step
        return ScoreColumns(names, self.row, side.below(chart_top), lo - pad, hi + pad)

    def build(self):
        s, t = self.story, self.theme
        # The strip and the columns name the tokens at once: one abbreviation for both (and
        # for the key names and the legend).
        self.pos = ValueTracker(0.0)       # where the query is along the sentence
        self.strip, self.columns = self.layout(self.names), self.chart(self.names)
        x0, x1, y0, y1 = data_range(np.vstack([s.K, s.Q]), pad=0.35)
        self.plane = VectorPlane(self.plane_box, (x0, x1), (y0, y1))
        p = self.plane
        size = style.SMALL_SIZE if s.n > 6 else style.LABEL_SIZE
        self.keys = VGroup(*[p.arrow(k, t.key, stroke=4) for k in s.K])
        items = self._key_labels()
        self.key_labels = tip_labels(p, items, t.key, size, avoid=[p.c2p(q) for q in s.Q])
        self.key_leaders = self._settle_key_labels(items)
        self.q_dots = VGroup(*[p.dot(q, t.query, radius=0.05).set_opacity(0.45) for q in s.Q])
        self.q_arrow = p.live_arrow(self.get_q, t.query, stroke=6)

        self.marker = self.strip.mark(0, t.query)
        self.marker.add_updater(lambda m: m.move_to(self._strip_point()))

        self.play(FadeIn(self.strip), FadeIn(self.q_tag), run_time=timing.FADE)
        self.play(FadeIn(p), run_time=timing.FADE)
        self.play(LaggedStart(*[GrowArrow(a) for a in self.keys], lag_ratio=0.1),
                  FadeIn(self.key_labels), FadeIn(self.key_leaders), run_time=KEYS_GROW)
        self.play(FadeIn(self.q_dots), run_time=timing.FLASH)
        self.add(self.q_arrow)
        self.play(Create(self.marker), run_time=timing.QUICK)

    def _settle_key_labels(self, items) -> VGroup:
        """Many keys crowd the plane, and tip_labels may find no free spot for a name: a name
        touching another (closer than TIP_CLEAR) or lying on an arrow's shaft or head (its
        own included) is placed again by the shared pass (:func:`~scenes.widgets.placement.
        spread_labels` without its first pass: the other names stay where tip_labels put
        them), clear of the names, arrowheads and shafts, with a leader line from its tip
        when it moves far. The arrows are the keys and the query at every token it stops on
        (the names are placed once, the query walks over them). Returns the leader lines."""
        p, t = self.plane, self.theme
        stops = [p.arrow(q, t.query, stroke=6) for q in self.story.Q]
        shafts, heads = arrow_marks([*self.keys, *stops])
        return VGroup(*spread_labels(list(self.key_labels), [p.c2p(k) for k, _ in items],
                                     box=self.plane_box, lines=shafts, heads=heads,
                                     settle=False, touch=TIP_CLEAR))

    def _key_labels(self):
        """(key, text) per distinct key: repeated words share one key and one label."""
        s = self.story
        groups: list[tuple[np.ndarray, list[str]]] = []
        for k, name in zip(s.K, self.names):
            for gk, names in groups:
                if np.allclose(gk, k, atol=1e-9):
                    names.append(name)
                    break
            else:
                groups.append((k, [name]))
        return [(k, shared_key_name(names)) for k, names in groups]

    # ------------------------------------------------------------ live quantities

    def get_q(self) -> np.ndarray:
        Q = self.story.Q
        x = float(np.clip(self.pos.get_value(), 0, len(Q) - 1))
        i = min(int(np.floor(x)), len(Q) - 2) if len(Q) > 1 else 0
        f = x - i
        return (1 - f) * Q[i] + f * Q[min(i + 1, len(Q) - 1)]

    def row(self) -> np.ndarray:
        """The current query against every key: a row of raw scores."""
        return core.raw_scores(self.get_q()[None, :], self.story.K)[0]

    def _strip_point(self) -> np.ndarray:
        c = self.strip.centers()
        x = float(np.clip(self.pos.get_value(), 0, len(c) - 1))
        i = min(int(np.floor(x)), len(c) - 2) if len(c) > 1 else 0
        f = x - i
        return (1 - f) * c[i] + f * c[min(i + 1, len(c) - 1)]

    # ------------------------------------------------------------ beats

    def show_row(self):
        self.play(FadeIn(self.columns), run_time=timing.BEAT)

    def walk(self):
        """Step the query through the sentence; mark the matrix's extremes when reached."""
        s = self.story
        step = float(np.clip(WALK_SECONDS / max(1, s.n - 1), 0.9, 2.2))
        self.say("walk")
        for i in range(s.n):
            if i > 0:
                self.play(self.pos.animate.set_value(i), run_time=step, rate_func=smooth)
                self.wait(STEP_PAUSE)
            if i == self.cells.max_cell[0]:
                self.mark_extreme("max")
            if i == self.cells.min_cell[0]:
                self.mark_extreme("min")

    def _entry(self, which: str, names: list[str]):
        """The legend entry of the matrix's maximum or minimum: value and (query → key),
        the tokens as ``names`` shows them."""
        row, col = self.cells.max_cell if which == "max" else self.cells.min_cell
        value = self.fig("R_max" if which == "max" else "R_min")
        return label(f"{self.caption_text(f'ui_{which}')} {value.text}  ({names[row]} → {names[col]})",
                     style.SMALL_SIZE, self.theme.amber)

    def mark_extreme(self, which: str):
        """Tick the column at its extreme, add it to the legend, say it."""
        t = self.theme
        row, col = self.cells.max_cell if which == "max" else self.cells.min_cell
        value = self.fig("R_max" if which == "max" else "R_min")
        tick = self.columns.tick(col, float(value.value), t.amber)
        entry = self._entry(which, self.names)
        side = self.right_box
        fit_width(entry, side.width / 2 - style.TIGHT if self.legend_rows == 1 else side.width)
        # The maximum's entry on the left, the minimum's on the right (a line lower when
        # the two do not fit on one line).
        y = self.legend_y - (self.legend_step if which == "min" and self.legend_rows == 2 else 0)
        edge = np.array([side.l if which == "max" else side.r, y, 0])
        entry.move_to(edge, aligned_edge=LEFT if which == "max" else RIGHT)
        self.say(which)
        self.play(Create(tick), FadeIn(entry, shift=style.TIGHT * DOWN),
                  Flash(self.columns.tip(col), color=t.amber, flash_radius=0.35),
                  run_time=timing.ENTER)
        self.settle()
