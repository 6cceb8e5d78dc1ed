"""The opening card of the stitched explainer: the title, the sentence with the followed token
marked, the caption language.

A card is a clip and a chapter of its own, numbered outside the source's sections (the
registry's ``CARDS``): 00 opens the video.
"""

from __future__ import annotations

from manim import DOWN, UP, FadeIn

from scenes import style, timing
from scenes.base import SectionScene
from scenes.widgets.text import label
from scenes.widgets.tokens import TokenStrip
from words import captions

#: Seconds the opening card holds after its caption has been read.
HOLD = 1.0


class OpeningCard(SectionScene):
    """Title, the sentence with the followed token marked, and the caption language."""

    def construct(self):
        s, t = self.story, self.theme
        box = style.content_box()
        title = label(self.caption_text("title"), style.TITLE_SIZE * 1.5, t.fg)
        title.move_to([0, box.t - style.APART, 0])
        strip = TokenStrip(self.names, width=box.width)
        strip.move_to([0, box.center[1] - style.TIGHT, 0])
        mark = strip.mark(s.follow)
        follow = label(self.caption_text("following"), style.LABEL_SIZE, t.muted)
        follow.next_to(strip, UP, buff=style.ROW)
        lang = label(self.caption_text("language", language_name=captions.language_name(self.lang)),
                     style.LABEL_SIZE, t.muted)
        lang.next_to(strip, DOWN, buff=style.APART)
        self.play(FadeIn(title, shift=style.GAP * DOWN), run_time=timing.FADE)
        self.say("intro")
        self.play(FadeIn(follow), FadeIn(strip, lag_ratio=0.1), run_time=timing.ENTER)
        self.play(FadeIn(mark), FadeIn(lang), run_time=timing.QUICK)
        self.settle(HOLD)
