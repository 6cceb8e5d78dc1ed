"""Section 16: divide every score by √d and the width stops mattering.

Same slider as section 15. Dividing by √d brings the spread back to 1 at every width, and
the top weight of the demo row stays put from d = 1 to 256. Dividing by d instead
overshoots: the spread falls to 1/√d and the row flattens toward a plain average. The
divisor is √d: 1.414 for the toy head, 8 for GPT-2 small's 64-wide heads.

One tracker ``p`` holds the divisor's exponent (divisor = d^p): 0 is section 15's row with
no divisor, 1/2 divides by √d, 1 divides by d. Switching divisors animates ``p``.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    ReplacementTransform,
    ValueTracker,
    VGroup,
)

from attn_math import core
from scenes import style, timing
from scenes.base import SectionScene
from scenes.widgets.bars_simple import titled_row_bars
from scenes.widgets.live_number import LiveNumber
from scenes.widgets.log_axis import AxisMarker, LiveCurve, weight_width_axis
from scenes.widgets.placement import least_cost
from scenes.widgets.readouts import ReadoutPanel
from scenes.widgets.slider import CountTracker
from scenes.widgets.text import label

SQRT, LINEAR = 0.5, 1.0   # the divisor's exponent: divide by √d, or by d
Y_TOP = 1.12              # as in section 15: room above 1 to name the no-divisor curve
FORMULA_SQRT = "w = softmax(√d · z / √d)"
FORMULA_LINEAR = "w = softmax(√d · z / d)"
READOUTS_BUFF = style.ROW  # bars to readouts
ROW_GAP = style.SPACED  # readout rows, baseline to baseline
TIGHT_ROW_GAP = style.ROW + style.SNUG  # the closest they come when the panel is short of room
CARD_BUFF = style.GAP + style.NUDGE  # readouts to the closing card (toy head, GPT-2 small)
SLIDE_SECONDS = 4.0       # the width sliding from the smallest to the widest
BACK_TO_SQRT = 1.5        # the divisor switching back from d to √d
#: Where the 1/n line's name may go, in order: (font size, side, gap, least height over the
#: x axis): above the line, below it, smaller and closer below it.
UNIFORM_TAG_SPOTS = ((style.SMALL_SIZE, UP, style.SNUG, 0.03), (style.SMALL_SIZE, DOWN, style.SNUG, 0.03),
                     (style.TINY_SIZE, DOWN, 0.03, 0.005))
BEFORE_DIVIDE = 0.8       # seconds section 15's end state holds before the divisor comes in


class TheDivisor(SectionScene):

    def construct(self):
        self.open()
        self.build()
        self.divide_by_sqrt_d()
        self.slide_flat()
        self.divide_by_d()
        self.the_divisor()

    # ------------------------------------------------------------ the math, live

    def divisor(self, d: float | None = None) -> float:
        """d^p: 1 with no divisor, √d, or d."""
        d = self.d.get_value() if d is None else d
        return core.power_divisor(d, self.p.get_value())

    def weights(self) -> np.ndarray:
        """The demo row at width d, every score divided by d^p."""
        return core.weights_divided(self.z, self.d.get_value(), self.p.get_value())

    def top(self, d: float | None = None) -> float:
        d = self.d.get_value() if d is None else d
        return float(core.weights_divided(self.z, d, self.p.get_value()).max())

    # ------------------------------------------------------------ set-up

    def build(self):
        s, t = self.story, self.theme
        self.z = s.width_z
        self.widths = list(self.fig("widths", of="spread-sqrt-d").value)
        self.d_real = self.fig("d_real", of="spread-sqrt-d").value
        # The bars and the marker glide with the slider; readouts show its whole width.
        self.d = CountTracker(self.d_real)
        self.p = ValueTracker(0.0)
        self.axis = weight_width_axis(style.left_panel(), self.widths, Y_TOP,
                                      self.ui("width"), self.ui("top"))
        self.ghost = self.axis.plot(lambda x: core.top_weight_unscaled(self.z, x), t.muted,
                                    stroke=2.5)
        # Curve names sit at the right end: the no-divisor curve's above the weight 1 line.
        self.ghost_tag = label(self.ui("tag_none"), style.SMALL_SIZE, t.muted)
        self.ghost_tag.next_to(self.axis.c2p(self.widths[-1], 1.0), UP, buff=style.SNUG - style.HAIR)
        self.ghost_tag.align_to(self.axis.c2p(self.widths[-1], 0), RIGHT)
        self.uniform = self.fig("uniform").value
        self.uniform_line = self.axis.hline(self.uniform, t.amber, stroke=3)
        self.uniform_tag = self.place_uniform_tag()
        self.marker = AxisMarker(self.axis, self.d, lambda x: self.top(x), t.weight)

        num = dict(font_size=style.NUMBER_SIZE)
        d_num = LiveNumber(1, decimals=0, color=t.fg, **num).follow(lambda: self.d.count())
        div_num = LiveNumber(1, decimals=2, color=t.fg, **num).follow(
            lambda: self.divisor(self.d.count()))
        spread_num = LiveNumber(1, decimals=2, color=t.fg, **num).follow(
            lambda: core.spread_divided(self.d.count(), self.p.get_value()))
        top_num = LiveNumber(1, decimals=3, color=t.weight, **num).follow(
            lambda: self.top(self.d.count()))
        rows = [("d =", d_num), (self.ui("divisor") + " =", div_num),
                (self.ui("spread") + " =", spread_num), (self.ui("top") + " =", top_num)]
        self.card = VGroup(label(self.ui("toy"), style.SMALL_SIZE, t.fg),
                           label(self.ui("real"), style.SMALL_SIZE, t.fg))
        self.card.arrange(DOWN, aligned_edge=LEFT, buff=style.NEAR)

        # The side panel holds the title, the bars, the readouts and (at the end) the card,
        # which must end above the caption bar: when it would not, the readouts' rows close
        # up first (down to TIGHT_ROW_GAP), and then the bars give up height.
        panel = style.right_panel()
        title = label(self.ui("row"), style.SMALL_SIZE, t.fg)
        self.formula = label(self.ui("none"), style.SMALL_SIZE, t.muted)
        labels = self.names
        room = titled_row_bars(labels, self.weights(), panel, title,
                               self.formula).get_bottom()[1] - panel.b

        def under_bars(row_gap):
            readouts = ReadoutPanel(rows, size=style.SMALL_SIZE, row_gap=row_gap, color=t.fg)
            return readouts, READOUTS_BUFF + readouts.height + CARD_BUFF + self.card.height

        self.readouts, below = under_bars(ROW_GAP)
        if below > room:
            squeeze = min((below - room) / (len(rows) - 1), ROW_GAP - TIGHT_ROW_GAP)
            self.readouts, below = under_bars(ROW_GAP - squeeze)
        self.bars = titled_row_bars(labels, self.weights(), panel, title, self.formula,
                                    below=below)
        self.bars.follow(lambda: self.weights())
        self.bars_uniform = self.bars.level_line(self.uniform, t.amber, stroke=2.5)
        self.title = title
        self.readouts.place_under(self.bars, panel, buff=READOUTS_BUFF)
        self.card.next_to(self.readouts, DOWN, buff=CARD_BUFF).align_to(self.title, LEFT)

    def curves(self):
        """The curves drawn on the axis by the end: no divisor, ÷ √d (flat), ÷ d."""
        w1 = core.top_weight_scaled(self.z, 1.0)
        return [lambda x: core.top_weight_unscaled(self.z, x), lambda x: w1,
                lambda x: core.top_weight_over_d(self.z, x)]

    def clear_of_curves(self, mob, buff: float = style.NUDGE, floor: float = 0.03) -> bool:
        """Whether ``mob`` sits inside the plot (``floor`` above its x axis) and no curve
        drawn by the end crosses it (:meth:`LogAxis.clear_of_curves`)."""
        return self.axis.clear_of_curves(mob, self.curves(), buff=buff, floor=floor)

    def place_uniform_tag(self):
        """Name the 1/n line at its left end: the first of :data:`UNIFORM_TAG_SPOTS` clear of
        the curves (with many tokens 1/n is low and the ÷ d curve runs just above the line),
        else above it."""
        t = self.theme
        start = self.axis.c2p(self.widths[0], self.uniform)

        def tag_at(spot):
            size, side, buff, _ = spot
            return label(self.ui("uniform"), size, t.amber).next_to(start, side + RIGHT, buff=buff)

        spot, blocked = least_cost(UNIFORM_TAG_SPOTS,
                                   lambda s: 0.0 if self.clear_of_curves(tag_at(s), floor=s[3])
                                   else 1.0)
        if not blocked:
            return tag_at(spot)
        tag = label(self.ui("uniform"), style.SMALL_SIZE, t.amber)
        return tag.next_to(start, UP + RIGHT, buff=style.SNUG)

    def switch_formula(self, text: str, p: float, run_time: float = timing.MOVE):
        """Animate the divisor's exponent to ``p`` while the formula line changes to ``text``."""
        new = label(text, style.SMALL_SIZE, self.theme.muted)
        new.move_to(self.formula, aligned_edge=LEFT)
        self.play(ReplacementTransform(self.formula, new),
                  self.p.animate.set_value(p), run_time=run_time)
        self.formula = new

    # ------------------------------------------------------------ beats

    def divide_by_sqrt_d(self):
        # Start where section 15 ended: d = 64, no divisor, one weight holds everything.
        self.add(self.title, self.formula, self.bars, self.axis, self.ghost, self.ghost_tag,
                 self.marker, self.readouts)
        self.say("divide")
        self.wait(BEFORE_DIVIDE)
        self.switch_formula(FORMULA_SQRT, SQRT)
        self.sqrt_curve = LiveCurve(self.axis, lambda x: core.top_weight_scaled(self.z, x),
                                    self.d, self.theme.weight, stroke=5, trace=True)
        self.add(self.sqrt_curve)
        self.play(Indicate(self.readouts.row(2), color=self.theme.amber), run_time=timing.BEAT)
        self.settle()

    def slide_flat(self):
        t = self.theme
        self.say("flat")
        self.play(self.d.animate.set_value(self.widths[-1]), run_time=timing.MOVE)
        self.play(self.d.animate.set_value(self.widths[0]), run_time=timing.LONG_MOVE)
        tag = label("÷ √d", style.SMALL_SIZE, t.weight)
        # Above the flat line, unless the no-divisor curve and its name crowd it there
        # (a row that is already sharp at d = 1): then just below the line.
        line_end = self.axis.c2p(self.widths[-1], core.top_weight_scaled(self.z, 1.0))
        tag.next_to(line_end, UP, buff=style.TIGHT).align_to(self.axis.c2p(self.widths[-1], 0), RIGHT)
        if tag.get_top()[1] + style.NUDGE > self.ghost_tag.get_bottom()[1] \
                or not self.clear_of_curves(tag, buff=style.SNUG):
            below = tag.copy().next_to(line_end, DOWN, buff=style.TIGHT)
            below.align_to(self.axis.c2p(self.widths[-1], 0), RIGHT)
            if self.clear_of_curves(below, buff=style.HAIR):
                tag = below
        self.play(FadeIn(tag), Indicate(self.readouts.row(3), color=t.amber), run_time=timing.BEAT)
        self.sqrt_tag = tag
        self.settle()

    def divide_by_d(self):
        t = self.theme
        self.say("over_d")
        # At d = 1 both divisors are 1, so the switch changes nothing until the width grows.
        self.switch_formula(FORMULA_LINEAR, LINEAR, run_time=timing.BEAT)
        self.play(Create(self.uniform_line), FadeIn(self.uniform_tag),
                  FadeIn(self.bars_uniform), run_time=timing.ENTER)
        self.lin_curve = LiveCurve(self.axis, lambda x: core.top_weight_over_d(self.z, x),
                                   self.d, t.fg, stroke=4, trace=True)
        self.add(self.lin_curve)
        self.play(self.d.animate.set_value(self.widths[-1]), run_time=SLIDE_SECONDS)
        tag = label("÷ d", style.SMALL_SIZE, t.fg)
        y_end = core.top_weight_over_d(self.z, self.widths[-1])
        end = self.axis.c2p(self.widths[-1], y_end)
        # Above its end unless the √d line is too close there; then below, over the 1/n line.
        room = min(self.axis.y_to_sy(core.top_weight_scaled(self.z, 1.0)),
                   self.sqrt_tag.get_bottom()[1]) - end[1]
        side = UP if room > 2.2 * tag.height else DOWN
        tag.next_to(end, side, buff=style.TIGHT).align_to(end, RIGHT).shift(style.TIGHT * LEFT)
        self.play(FadeIn(tag), run_time=timing.QUICK)
        self.settle()

    def the_divisor(self):
        self.say("divisor")
        self.switch_formula(FORMULA_SQRT, SQRT, run_time=BACK_TO_SQRT)
        self.play(FadeOut(self.bars_uniform), self.d.animate.set_value(self.d_real),
                  run_time=timing.MOVE)
        self.play(FadeIn(self.card, shift=style.TIGHT * UP), run_time=timing.ENTER)
        self.settle(timing.LAST_HOLD)
