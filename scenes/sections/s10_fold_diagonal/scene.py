"""Section 10, fold on the diagonal: the square is not a similarity table.

Storyboard: frame the asymmetric pair's two cells (a -> b solid, b -> a dashed),
read both numbers in the panel, then reflect the whole grid over its diagonal:
queries move to the top, every square swaps with its mirror, and the picture
changes, because a -> b and b -> a are two different numbers about one pair.
"""

from __future__ import annotations

from manim import DOWN, LEFT, UP, Create, FadeIn, VGroup

from scenes import style, timing
from scenes.base import SectionScene
from scenes.widgets.readouts import CellReadout
from scenes.widgets.score_grid import ScoreGrid, dashed_square, opening_pitch

FOLD_TIME = 3.0
ICON = 0.34      # size of the frame icons beside the panel's lines
class FoldDiagonal(SectionScene):

    def construct(self):
        self.open()
        self.build()
        self.say("intro")
        self.play(FadeIn(self.grid), run_time=timing.ENTER)
        self.settle()
        self.say("pair")
        self.frame_the_pair()
        self.settle()
        self.play(self.grid.fold(run_time=FOLD_TIME))
        self.say("fold")
        self.settle()
        self.say("why")
        self.settle(timing.LAST_HOLD)

    # ------------------------------------------------------------ building

    def build(self):
        s = self.story
        self.grid = ScoreGrid(s.S, self.names, box=style.left_panel(), corner=f"/ √{s.d}",
                              max_pitch=opening_pitch(s.n))
        a, b = s.asym
        self.frames = VGroup(self.frame(a, b, dashed=False), self.frame(b, a, dashed=True))
        panel = style.right_panel()
        # The panel names the cells as the grid does (one abbreviation of a long token).
        rows, cols = self.grid.row_texts, self.grid.col_texts
        pairs = ((a, b), (b, a))
        size = CellReadout.fit_size([(rows[i], cols[j]) for i, j in pairs], panel.width,
                                    icon_width=ICON)
        lines = []
        for (i, j), fr in zip(pairs, self.frames):
            icon = fr.copy().clear_updaters()
            icon.scale(ICON / icon.width)
            lines.append(CellReadout(rows[i], cols[j], lambda i=i, j=j: self.grid.values[i, j],
                                     icon=icon, size=size))
        self.readouts = VGroup(*lines).arrange(DOWN, buff=style.SPACED, aligned_edge=LEFT)
        self.readouts.move_to(panel.center)

    def frame(self, i: int, j: int, dashed: bool):
        """A frame around data cell (i, j) that rides with its square through the fold."""
        g = self.grid
        if dashed:
            fr = dashed_square(g.square_center(i, j), g.pitch, self.theme.amber, stroke=5,
                               dash=g.pitch / 5)
        else:
            fr = g.cell_marker(i, j, color=self.theme.amber, stroke=5)
        fr.add_updater(lambda m: m.move_to(self.grid.square(i, j).get_center()))
        return fr

    # ------------------------------------------------------------ beats

    def frame_the_pair(self):
        self.play(Create(self.frames), run_time=timing.BEAT)
        self.play(FadeIn(self.readouts, shift=style.TIGHT * UP), run_time=timing.ENTER)
