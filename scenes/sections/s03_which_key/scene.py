"""Section 3: which key does each query pick?

Every key on one plane. The queries step through the sentence; each is projected onto
every key (dashed perpendicular, shadow along the key), and a table shows, live,
shadow x key length = raw score for each key, with the winner (largest score) and the
longest shadow marked: the two can differ, because a long key multiplies its shadow.
The scene ends on the followed token's row.
"""

from __future__ import annotations

import numpy as np
from manim import (
    Create,
    FadeIn,
    GrowArrow,
    ValueTracker,
    VGroup,
    smooth,
)

from attn_math import core
from scenes import style, timing
from scenes.base import SectionScene
from scenes.layout import Box
from scenes.sections.s03_which_key.derived import shadow_winners
from scenes.widgets.arrows import FastArrow
from scenes.widgets.legend import MarkLegend
from scenes.widgets.plane import VectorPlane, data_range
from scenes.widgets.shadow import ShadowLines, ShadowTable
from scenes.widgets.tip_labels import TipLabels
from scenes.widgets.tokens import TokenStrip

# Presentation: the walk through all queries takes about this long, whatever n.
SWEEP_SECONDS = 11.0
#: Seconds the keys take to grow (and the query to reach the followed row); the share of each
#: query's step spent moving (the rest it holds still to be read).
KEYS_GROW = 1.2
MOVE_SHARE = 0.55
#: Seconds the legend's first two marks are on screen before the query starts moving.
LEGEND_READ = 0.8


class WhichKey(SectionScene):

    def construct(self):
        self.open()
        self.layout()
        self.show_keys()
        self.sweep_queries()
        self.shadow_versus_score()
        self.follow_row()
        self.say("trained")
        self.settle(timing.LAST_HOLD)

    # ------------------------------------------------------------ the moving query

    def q_now(self) -> np.ndarray:
        s = self.step.get_value()
        return (1.0 - s) * self.q_from + s * self.q_to

    def winner_now(self) -> int:
        return core.best_key(self.story.K, self.q_now())

    def longest_now(self) -> int:
        return core.longest_shadow_key(self.story.K, self.q_now())

    def go_to(self, i: int, run_time: float):
        """Move the query to token ``i``'s (the strip's marker follows)."""
        self.q_from, self.q_to = self.q_now(), self.story.Q[i].copy()
        self.step.set_value(0.0)
        self.play(self.step.animate.set_value(1.0),
                  self.marker.animate.move_to(self.strip.box(i)),
                  run_time=run_time, rate_func=smooth)
        self.q_from = self.q_to          # exact: the scene now holds Q[i] itself
        self.current = i

    # ------------------------------------------------------------ beats

    def layout(self):
        """Strip on top; the plane at left; the table at right."""
        s, t = self.story, self.theme
        box = style.content_box()
        names = self.names
        strip = TokenStrip(names, width=box.width, size=style.SMALL_SIZE, chip_height=0.45)
        strip.move_to(np.array([0.0, box.t - strip.height / 2, 0.0]))
        self.strip = strip
        below = strip.get_bottom()[1] - (style.GAP + style.NUDGE)
        x0, x1, y0, y1 = data_range(np.vstack([s.Q, s.K]), pad=0.5)
        self.plane = VectorPlane(style.left_panel().below(below), (x0, x1), (y0, y1))
        side = style.right_panel()
        self.step = ValueTracker(1.0)
        self.q_from = self.q_to = s.Q[0].copy()
        self.current = 0
        # A lambda, not the bound method: mobjects get deep-copied by animations, and a
        # bound method would drag the whole scene into the copy.
        q = lambda: self.q_now()  # noqa: E731
        norms = np.linalg.norm(s.K, axis=1)
        heads = [self.caption_text("ui_key"), self.caption_text("ui_shadow"), "|k|", "R"]
        # What the outlines in the table mark, on one line under it.
        self.legend = MarkLegend([(t.highlight, self.caption_text("ui_winner")),
                                  (t.fg, self.caption_text("ui_longest")),
                                  (t.muted, self.caption_text("ui_self"))])
        side.fit(self.legend)
        self.legend.move_to(np.array([side.center[0], side.b + self.legend.height / 2, 0]))
        self.table = ShadowTable(names, norms, q, s.K, heads,
                                 Box(side.l, side.r, side.b + self.legend.height + style.GAP, below))
        self.shadows = ShadowLines(self.plane, q, s.K,
                                   lambda: {self.winner_now(), self.longest_now()})
        self.key_arrows = VGroup(*[self.plane.arrow(k, t.key, stroke=3.5) for k in s.K])
        # The labels keep off the keys and off the query where it rests (at every token's
        # query in turn): a key label under the query's head would be unreadable there.
        rests = [self.plane.arrow(q_i, t.query) for q_i in s.Q]
        self.key_labels = TipLabels(self.plane, s.K, names, t.key,
                                    arrows=[*self.key_arrows, *rests])
        self.query = FastArrow(self.plane, q, t.query)
        # No tip label on the query: the strip's marker names it, and a label at its tip
        # would sit on the key labels it leans toward.
        self.marker = strip.mark(0)

        # Markers in the table: they follow the live winner and the live longest shadow.
        self.win_box = self.table.row_box(0, t.highlight)
        self.long_box = self.table.cell_box(0, 1, t.fg)
        table = self.table

        def follow_winner(m):
            m.move_to(np.array([m.get_center()[0], table.row_y[self.winner_now()], 0]))

        def follow_longest(m):
            m.move_to(np.array([m.get_center()[0], table.row_y[self.longest_now()], 0]))

        self.win_box.add_updater(follow_winner)
        self.long_box.add_updater(follow_longest)

    def show_keys(self):
        """The plane and every token's key, labelled."""
        self.say("keys")
        self.play(FadeIn(self.strip), FadeIn(self.plane), run_time=timing.ENTER)
        self.play(*[GrowArrow(a) for a in self.key_arrows], FadeIn(self.key_labels),
                  run_time=KEYS_GROW)
        self.settle()

    def sweep_queries(self):
        """Every query in turn: shadows on every key, the live table, the winner marked."""
        s = self.story
        self.say("sweep")
        self.add(self.shadows, self.key_arrows, self.key_labels)
        self.play(FadeIn(self.table), Create(self.marker), run_time=timing.ENTER)
        self.play(FadeIn(self.query), FadeIn(self.shadows), run_time=timing.FADE)
        self.bring_to_front(self.key_labels)   # the labels stay readable over the query
        self.add(self.win_box, self.long_box)
        self.play(FadeIn(VGroup(*self.legend.items[:2])), run_time=timing.FLASH)
        self.wait(LEGEND_READ)
        per = min(1.5, SWEEP_SECONDS / max(1, s.n - 1))
        for i in range(1, s.n):
            self.go_to(i, run_time=MOVE_SHARE * per)
            self.wait((1 - MOVE_SHARE) * per)
        self.settle()

    def shadow_versus_score(self):
        """Stop on a row where the longest shadow is not the winner (if there is one)."""
        s = self.story
        rows = [i for i in range(s.n) if s.row_winners[i] != shadow_winners(s)[i]]
        if not rows:
            self.say("shadow")
            self.settle()
            return
        # Prefer a row other than the followed one (that one closes the scene), and among
        # those the longest query: its shadows are the easiest to see.
        others = [r for r in rows if r != s.follow] or rows
        i = max(others, key=lambda r: float(np.linalg.norm(s.Q[r])))
        self.say("shadow")
        self.go_to(i, run_time=timing.BEAT)
        self.settle()

    def follow_row(self):
        """The followed token's row: the winner against its own key."""
        s, t = self.story, self.theme
        f = s.follow
        self.say("follow")
        self.go_to(f, run_time=KEYS_GROW)
        if s.winner != f:
            own = self.table.cell_box(f, 3, t.muted)
            self.play(Create(own), FadeIn(self.legend.items[2]), run_time=timing.FADE)
        self.settle()
