"""The closing card of the stitched explainer: the attention map of the sentence (future cut
away) beside the four ways to break attention without an error, and a line kept free for
credits (narration voices).

A card is a clip and a chapter of its own, numbered outside the source's sections (the
registry's ``CARDS``): 99 closes the video.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, FadeIn, LaggedStart

import narration
from scenes import style, timing
from scenes.base import SectionScene
from scenes.registry import by_slug
from scenes.sections.s99_closing import WORDS_OF
from scenes.widgets.score_grid import ScoreGrid
from scenes.widgets.text import bullet_list, label, paragraph
from words import captions

#: Seconds the closing card's four failures take to come in, one after another.
LIST_SECONDS = 2.0
#: The attention-map section's caption keys bug_<name>_cause / _symptom: the card lists
#: that section's four failures in its words.
BUGS = ("mask", "pos", "div", "norm")
#: The section whose words and figures the card's list uses.
BUG_LIST_SECTION = WORDS_OF[0]


class ClosingCard(SectionScene):
    """The attention map beside the four silent failures; a line kept for credits."""

    def construct(self):
        s, t = self.story, self.theme
        n = s.n
        box = style.content_box()
        heading = label(self.caption_text("title"), style.TITLE_SIZE, t.fg)
        style.safe_box().place(heading, "top_left")
        # The narration voice is credited on the card of a narrated video (CC BY 3.0 asks
        # for attribution); a silent video shows the caption table's line, if any.
        credits = narration.closing_credit(self.lang) or self.caption_text("credits")
        credit_h = 0.4 if credits else 0.0
        body = box.above(box.b + credit_h)    # the credit line is kept free under it
        grid = ScoreGrid(s.Wc, self.names, box=body.columns(0.5, 0.5)[0], mode="weight")
        grid.set_presence(np.where(np.triu(np.ones((n, n), bool), 1), 0.0, 1.0))
        cut = grid.upper_region()
        bug_section = by_slug(BUG_LIST_SECTION).number
        ctx = s.caption_context(bug_section, self.lang)
        items = [(captions.render(self.lang, bug_section, f"bug_{k}_cause", ctx),
                  captions.render(self.lang, bug_section, f"bug_{k}_symptom", ctx)) for k in BUGS]
        rl = box.l + 0.55 * box.width
        listing = bullet_list(items, box.r - rl - style.NUDGE, t.fg, t.bad, t.bad)
        body.fit(listing, width=False, height=True)
        listing.move_to([rl + style.GAP + listing.width / 2, body.center[1], 0])
        box.pull_inside(listing)   # its widest line would pass the box's right edge
        self.play(FadeIn(heading, shift=style.GAP * DOWN), run_time=timing.FADE)
        self.say("intro")
        self.play(FadeIn(grid), FadeIn(cut), run_time=timing.ENTER)
        self.play(LaggedStart(*[FadeIn(it) for it in listing], lag_ratio=0.5),
                  run_time=LIST_SECONDS)
        if credits:
            line = paragraph(credits, box.width, style.SMALL_SIZE, t.muted, max_lines=1)
            line.move_to([0, box.b + credit_h / 2, 0])
            self.play(FadeIn(line), run_time=timing.QUICK)
        self.settle(timing.LAST_HOLD)
