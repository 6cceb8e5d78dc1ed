"""Section 19, the silent bug: the causal mask multiplied by 0 instead of added as −∞.

One row (``story.bug_row``) under both mask applications, a toggle flipping between them.
The right way is ``core.mask_add_neg_inf`` (the story's ``Wc``); the wrong one is computed by
the real wrong code path ``core.mask_multiply_zero`` (the story's ``Wbug``), never drawn by
hand. Under × 0 the future keeps a share of the row: the leak readout shows it.
"""

from __future__ import annotations

import numpy as np
from manim import LEFT, RIGHT, FadeIn, ValueTracker

from attn_math import core
from scenes import style, timing
from scenes.base import SectionScene
from scenes.sections.s19_silent_bug.derived import bug_future
from scenes.widgets.readouts import Readout
from scenes.widgets.slider import rows_at
from scenes.widgets.text import label
from scenes.widgets.weights import MaskToggle, RowLayout, ScoreRow, WeightBars

FLIP_TIME = 1.2
#: Seconds the right mask holds between the flips back and forth, so both states are seen.
BETWEEN_FLIPS = 0.4


class SilentBug(SectionScene):

    def construct(self):
        self.open()
        self.build()
        self.flip_to_bug()
        self.silent()
        self.fix()

    # ------------------------------------------------------------ live quantities

    def between_masks(self, pair):
        """``pair``'s value under the right mask (t = 0) and the × 0 bug (t = 1), blended."""
        return rows_at(pair, self.t.get_value())

    def weights(self) -> np.ndarray:
        """The row's weights between the right mask (t = 0) and the × 0 bug (t = 1)."""
        s = self.story
        return self.between_masks((s.Wc[s.bug_row], s.Wbug[s.bug_row]))

    def scores(self) -> np.ndarray:
        """The masked scores the softmax sees in the current mode."""
        return self.masked_scores[1] if self.t.get_value() > 0.5 else self.masked_scores[0]

    # ------------------------------------------------------------ beats

    def build(self):
        s, t = self.story, self.theme
        r, future = s.bug_row, bug_future(s)
        mask = core.causal_mask(s.n)
        self.masked_scores = (core.mask_add_neg_inf(s.S, mask)[r],
                              core.mask_multiply_zero(s.S, mask)[r])
        self.t = ValueTracker(0.0)
        self.future = np.arange(s.n) > r
        top = float(max(s.Wc[r].max(), s.Wbug[r].max()))
        layout = RowLayout.make(header_lines=2, score_row=True)
        self.layout = layout
        colors = [t.bad if self.future[j] else t.weight for j in range(s.n)]
        # The future's bars and the leak, their sum, at decimals at which they add up.
        places = s.sum_places[self.SECTION]
        self.bars = WeightBars(self.names, self.weights, layout, value_range=(0.0, 1.05 * top),
                               colors=lambda: colors, decimals=places.parts,
                               masked=lambda: self.future * (1.0 - self.t.get_value()))
        self.row = ScoreRow(self.bars, self.scores, layout.score_y, name="q·k", tag=f"/ √{s.d}")
        name = self.bars.row_name(f"{self.names[r]} →", t.query)
        self.toggle = MaskToggle(self.t, "+ (−∞)", "× 0")
        self.toggle.move_to(layout.header_left(0), aligned_edge=LEFT)
        fut = [self.names[j] for j in future]
        leak_name = f"w[{fut[0]}] =" if len(fut) == 1 else f"Σ w[{fut[0]}…{fut[-1]}] ="
        leaks = (self.fig("bug_leak_correct").value, self.fig("bug_leak").value)
        self.leak = Readout(leak_name, lambda: float(self.between_masks(leaks)),
                            decimals=places.total, color=t.bad, sample=0.999)
        self.leak.place_right(layout.header_right(0))
        self.wrong = label("s = s * (~mask)", style.SMALL_SIZE, t.bad, mono=True)
        self.right = label('s = s.masked_fill(mask, float("-inf"))', style.SMALL_SIZE, t.fg,
                           mono=True)
        for code in (self.wrong, self.right):
            code.move_to(layout.header_left(1), aligned_edge=LEFT)
        self.say("natural")
        self.play(FadeIn(self.bars), FadeIn(self.row), FadeIn(name), FadeIn(self.toggle),
                  FadeIn(self.leak), run_time=timing.BEAT)
        self.settle()

    def flip(self, to_bug: bool, run_time: float = FLIP_TIME):
        """Move the toggle; the bars, scores, leak and code line follow."""
        new, old = (self.wrong, self.right) if to_bug else (self.right, self.wrong)
        anims = [self.t.animate.set_value(1.0 if to_bug else 0.0)]
        if old in self.mobjects:
            anims.append(old.animate.set_opacity(0))
        anims.append(FadeIn(new))
        self.play(*anims, run_time=run_time)
        self.remove(old)
        old.set_opacity(1)

    def flip_to_bug(self):
        self.say("leak")
        self.flip(True)
        self.settle()

    def silent(self):
        self.say("silent")
        self.flip(False)
        self.wait(BETWEEN_FLIPS)
        self.flip(True)
        self.settle()

    def fix(self):
        t = self.theme
        record = label(f"× 0 → {self.fig('bug_leak')}", style.SMALL_SIZE, t.bad)
        record.next_to(self.leak, LEFT, buff=style.APART)
        check = label("assert (w[mask] == 0).all()", style.SMALL_SIZE, t.weight, mono=True)
        check.move_to(self.layout.header_right(1), aligned_edge=RIGHT)
        self.say("fix")
        self.flip(False)
        self.play(FadeIn(record), FadeIn(check), run_time=timing.FADE)
        self.settle(timing.LAST_HOLD)
