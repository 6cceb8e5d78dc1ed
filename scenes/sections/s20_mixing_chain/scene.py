"""Section 20, the mixing chain: the output as weighted values laid head to tail.

Row ``follow`` of the weights scales every value; the terms ``w_j v_j`` are added one at a
time (:func:`attn_math.core.mixing_chain`), each shrinking from its value, travelling to the
tip of the partial sum, and the running sum advancing along it. A ledger on the right lists
the terms and reads the running sum live. The chain ends on the output of ``follow``
(``story.O[follow]``): the amber arrow and dot.
"""

from __future__ import annotations

from manim import (
    FadeIn,
    GrowFromCenter,
    ShowPassingFlash,
    ValueTracker,
    VGroup,
    VMobject,
    linear,
)

from scenes import style, timing
from scenes.base import SectionScene
from scenes.sections.s20_mixing_chain.chain import ChainLedger, ValueArrows
from scenes.sections.s20_mixing_chain.chain import MixingChain as Chain
from scenes.widgets.placement import arrow_marks, place_beside
from scenes.widgets.plane import VectorPlane, data_range
from scenes.widgets.text import backed, label

#: Seconds per term: slower for short sentences, so a whole chain takes about the same time.
STEP_TIME_MAX = 1.6
CHAIN_TIME = 9.0
FIRST_STEP_TIME = 2.6


class MixingChain(SectionScene):

    def construct(self):
        self.open()
        self.values()
        self.chain()
        self.never_back()
        self.output()

    # ------------------------------------------------------------ beats

    def values(self):
        """The plane with every value; the ledger of terms beside it."""
        s = self.story
        f = s.follow
        self.w = s.W[f]
        x0, x1, y0, y1 = data_range(s.V, pad=0.2, step=0.5, pad_origin=False)
        self.plane = VectorPlane(style.left_panel(), (x0, x1), (y0, y1))
        self.k = ValueTracker(0.0)
        k = self.k
        self.mix = Chain(self.plane, self.w, s.V, k.get_value)
        mix = self.mix
        self.out_arrow = self.plane.arrow(s.O[f], self.theme.amber, stroke=4)
        # The value labels are placed now, the chain and the output arrow drawn over them
        # later: the labels keep off those arrows too.
        self.chain_marks = mix.marks()
        chain_shafts, chain_heads = self.chain_marks
        out_shafts, out_heads = arrow_marks([self.out_arrow])
        self.vals = ValueArrows(self.plane, s.V, self.names,
                                later=([*chain_shafts, *out_shafts], [*chain_heads, *out_heads]))
        fl = self.names[f]
        self.ledger = ChainLedger(
            self.names, self.w, style.right_panel(), current=mix.current,
            running=mix.running_sum, done=lambda: mix.state()[0],
            header=f"o[{fl}] = Σ w[{fl}, j] · v[j]", sum_name="Σ =")
        self.say("values")
        self.play(FadeIn(self.plane), FadeIn(self.vals), run_time=timing.BEAT)
        self.play(FadeIn(self.ledger), run_time=timing.ENTER)
        self.settle()

    def chain(self):
        """Add the terms one at a time."""
        n = self.story.n
        step = min(STEP_TIME_MAX, CHAIN_TIME / n)
        self.say("chain")
        self.play(self.vals.animate.become(self.vals.faded()), run_time=timing.FADE)
        self.add(self.mix)
        self.bring_to_front(self.vals.names)     # labels stay readable over the chain
        for j in range(n):
            # The first term slowly, to teach the motion (shrink, carry, add); then faster.
            self.play(self.k.animate(rate_func=linear).set_value(j + 1),
                      run_time=FIRST_STEP_TIME if j == 0 else step)
        self.settle()

    def never_back(self):
        """Every step runs along its own value; no negative weight to reverse one."""
        self.say("step")
        path = VMobject(stroke_color=self.theme.highlight, stroke_width=7)
        path.set_points_as_corners([self.plane.c2p(p) for p in self.mix.partials])
        self.play(ShowPassingFlash(path, time_width=0.5), run_time=timing.MOVE)
        self.settle()

    def output(self):
        """The end of the chain is the new representation of the followed token."""
        s, t = self.story, self.theme
        o = s.O[s.follow]
        arrow = self.out_arrow
        dot = self.plane.dot(o, t.amber, radius=0.09)
        name = backed(label(f"o[{self.names[s.follow]}]", style.SMALL_SIZE, t.amber))
        # Clear of the value labels and of every arrow on the plane: the faint values, the
        # chain's terms and its own.
        shafts, heads = arrow_marks([*self.vals.arrows, arrow])
        chain_shafts, chain_heads = self.chain_marks
        leaders = place_beside(name, self.plane.c2p(o), self.mix.terms,
                               box=self.plane.frame_box(), labels=self.vals.names,
                               lines=[*shafts, *chain_shafts], heads=[*heads, *chain_heads])
        name = VGroup(name, *leaders)
        self.say("output")
        self.play(GrowFromCenter(dot), FadeIn(arrow), FadeIn(name), run_time=timing.BEAT)
        self.bring_to_front(self.mix, dot, self.vals.names)  # the chain over the arrow
        self.ledger.sum_color(t.amber)
        self.settle(timing.LAST_HOLD)

