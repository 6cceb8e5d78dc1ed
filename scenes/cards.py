"""The title cards of the stitched explainer: an opening and a closing card.

Each is a clip and a chapter of its own, numbered outside the source's sections
(``scenes.registry.CARDS``). The opening names what the viewer will follow: the title, the
sentence with the followed token marked, the caption language. The closing shows the
attention map of that sentence (future cut away) beside the four ways to break attention
without an error, and keeps a line free for credits (narration voices).
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, UP, FadeIn, LaggedStart

import narration
from scenes import style, timing
from scenes.base import SectionScene
from scenes.registry import SECTIONS
from scenes.widgets.score_grid import ScoreGrid
from scenes.widgets.text import bullet_list, label, paragraph
from scenes.widgets.tokens import TokenStrip
from words import captions

#: Seconds the opening card holds after its caption has been read.
HOLD = 1.0
#: Seconds the closing card's four failures take to come in, one after another.
LIST_SECONDS = 2.0
BUGS = ("mask", "pos", "div", "norm")   # the s25 caption keys bug_<name>_cause / _symptom


class OpeningCard(SectionScene):
    """Title, the sentence with the followed token marked, and the caption language."""

    SECTION = 0

    def construct(self):
        s, t = self.story, self.theme
        box = style.content_box()
        title = label(self.caption_text("title"), style.TITLE_SIZE * 1.5, t.fg)
        title.move_to([0, box.t - 0.6, 0])
        strip = TokenStrip(s.labels, width=box.width)
        strip.move_to([0, box.center[1] - 0.1, 0])
        mark = strip.mark(s.follow)
        follow = label(self.caption_text("following"), style.LABEL_SIZE, t.muted)
        follow.next_to(strip, UP, buff=0.3)
        lang = label(self.caption_text("language", language_name=captions.language_name(self.lang)),
                     style.LABEL_SIZE, t.muted)
        lang.next_to(strip, DOWN, buff=0.6)
        self.play(FadeIn(title, shift=0.2 * DOWN), run_time=timing.FADE)
        self.say("intro", sections=len(SECTIONS))
        self.play(FadeIn(follow), FadeIn(strip, lag_ratio=0.1), run_time=timing.ENTER)
        self.play(FadeIn(mark), FadeIn(lang), run_time=timing.QUICK)
        self.settle(HOLD)


class ClosingCard(SectionScene):
    """The attention map beside the four silent failures; a line kept for credits."""

    SECTION = 99

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
        grid = ScoreGrid(s.Wc, s.labels, box=body.columns(0.5, 0.5)[0], mode="weight")
        grid.set_presence(np.where(np.triu(np.ones((n, n), bool), 1), 0.0, 1.0))
        cut = grid.upper_region()
        ctx = s.caption_context(25, self.lang)
        items = [(captions.render(self.lang, 25, f"bug_{k}_cause", ctx),
                  captions.render(self.lang, 25, f"bug_{k}_symptom", ctx)) for k in BUGS]
        rl = box.l + 0.55 * box.width
        listing = bullet_list(items, box.r - rl - 0.35, t.fg, t.bad, t.bad)
        body.fit(listing, width=False, height=True)
        listing.move_to([rl + 0.2 + listing.width / 2, body.center[1], 0])
        self.play(FadeIn(heading, shift=0.2 * DOWN), run_time=timing.FADE)
        self.say("intro")
        self.play(FadeIn(grid), FadeIn(cut), run_time=timing.ENTER)
        self.play(LaggedStart(*[FadeIn(it) for it in listing], lag_ratio=0.5),
                  run_time=LIST_SECONDS)
        if credits:
            line = paragraph(credits, box.width, style.SMALL_SIZE, t.muted, max_lines=1)
            line.move_to([0, box.b + credit_h / 2, 0])
            self.play(FadeIn(line), run_time=timing.QUICK)
        self.settle(timing.LAST_HOLD)
