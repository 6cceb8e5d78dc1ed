"""Section 9, reading rows: one row is one query against the whole sentence.

Storyboard: a highlight walks down the grid while the panel reads the highlighted
row live (its numbers, its range, its largest entry framed); it stops on the
followed token's row (the winner's square, framed for good) and on the flattest
row, a query with nothing in particular to look for.
"""

from __future__ import annotations

import numpy as np
from manim import Create, FadeIn, ValueTracker, smooth

from scenes import style, timing
from scenes.base import SectionScene
from scenes.sections.s09_reading_rows.derived import flattest_row, shown_range
from scenes.widgets.readouts import RowReadout
from scenes.widgets.score_grid import ScoreGrid

STEP_TIME = 0.35   # one row down during the walk
STEP_PAUSE = 0.2


class ReadingRows(SectionScene):

    def construct(self):
        self.open()
        self.build()
        self.say("intro")
        self.play(FadeIn(self.grid), run_time=timing.ENTER)
        self.play(FadeIn(self.highlight), FadeIn(self.readout), FadeIn(self.max_frame),
                  run_time=timing.FADE)
        self.settle()
        self.say("walk")
        self.walk_down()
        self.settle()
        self.say("winner")
        self.stop_on_followed_row()
        self.settle()
        self.say("flattest")
        self.go_to_row(flattest_row(self.story))
        self.settle(timing.LAST_HOLD)

    # ------------------------------------------------------------ building

    def current_row(self) -> int:
        return int(np.clip(round(self.row.get_value()), 0, self.story.n - 1))

    def build(self):
        s = self.story
        self.grid = ScoreGrid(s.S, self.names, box=style.left_panel(), corner=f"/ √{s.d}")
        self.row = ValueTracker(0)
        self.highlight = self.grid.row_highlight(self.row)
        titles = [f"{lab} →" for lab in self.names]
        self.readout = RowReadout(
            self.names, lambda: s.S[self.current_row()], style.right_panel(),
            title=lambda: self.current_row(), titles=titles,
            extra=[(self.caption_text("ui_range"), lambda: shown_range(s, self.current_row()))],
            mark=lambda: s.row_winners[self.current_row()])
        # The row's largest square, framed; the frame follows the highlighted row.
        self.max_frame = self.grid.cell_marker(0, s.row_winners[0])
        self.max_frame.add_updater(lambda m: m.move_to(self.grid.square_center(
            self.current_row(), s.row_winners[self.current_row()])))

    # ------------------------------------------------------------ beats

    def go_to_row(self, i: int, run_time: float | None = None):
        dist = abs(i - self.row.get_value())
        rt = run_time or float(np.clip(0.25 * dist, 0.6, 1.8))
        self.play(self.row.animate(rate_func=smooth).set_value(i), run_time=rt)

    def walk_down(self):
        for i in range(1, self.story.n):
            self.go_to_row(i, run_time=STEP_TIME)
            self.wait(STEP_PAUSE)

    def stop_on_followed_row(self):
        s = self.story
        self.go_to_row(s.follow)
        keep = self.grid.cell_marker(s.follow, s.winner, color=self.theme.highlight, stroke=5)
        self.play(Create(keep), run_time=timing.FADE)
