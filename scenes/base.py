"""The base class of every section's scene: configuration, story, captions, pacing.

A section's scene subclasses :class:`SectionScene`, sets ``SECTION``, and writes
``construct`` as a short sequence of named beats::

    class TheSquare(SectionScene):
        SECTION = 8

        def construct(self):
            self.open()                    # title card
            self.say("intro")              # caption beat from assets/captions/<lang>.toml
            ...
            self.say("cost"); self.settle()

The configuration comes from the environment (see docs/ARCHITECTURE.md), so the
plain manim CLI renders any scene unchanged.
"""

from __future__ import annotations

import os

from manim import DOWN, FadeIn, FadeOut, Scene

from attn_math import Story, load_story

from . import captions, style
from narration import pacing as narration  # narration (issue 14): ATTN_NARRATION=1
from .registry import by_number
from .widgets.chrome import CaptionBar, SectionTitle

_STORIES: dict[str, Story] = {}


def story() -> Story:
    """The story of the configured head (``ATTN_HEAD``), loaded once per process and head."""
    key = os.environ.get("ATTN_HEAD", "")
    if key not in _STORIES:
        _STORIES[key] = load_story(key or None)
    return _STORIES[key]


class SectionScene(Scene):
    """A scene that knows its section, its story, its language and its theme."""

    SECTION: int = 0

    def setup(self) -> None:
        self.theme = style.theme()
        self.camera.background_color = self.theme.background
        self.lang = captions.lang()
        self.caption_mode = captions.mode()
        self.story = story()
        self.section = by_number(self.SECTION)
        self._caption = None          # the CaptionBar on screen
        self._sub = None              # (text, start time) of the open subcaption
        self._read_until = 0.0        # scene time by which the caption has been read
        # narration (issue 14): lays each beat's line and makes the scene wait for the voice
        self.narrator = narration.Narrator(self.lang, self.SECTION) if narration.enabled() else None

    # ------------------------------------------------------------ chrome

    def open(self) -> SectionTitle:
        """Show the section title."""
        title = SectionTitle(self.section.number, self.title_text())
        self.play(FadeIn(title, shift=0.2 * DOWN), run_time=0.6)
        self.title_mob = title
        return title

    def title_text(self) -> str:
        """The section's title in the caption language, for this sentence's token count
        (a title that counts tokens must not contradict a custom sentence)."""
        return self.section.title(self.lang, self.story.n)

    def caption_text(self, beat: str, **extra) -> str:
        ctx = self.story.caption_context(self.SECTION)
        return captions.render(self.lang, self.SECTION, beat, ctx, **extra)

    def say(self, beat: str, **extra) -> str:
        """Show the caption of ``beat`` (and open its subcaption); returns the text.

        The previous caption's subcaption closes now; the scene keeps playing
        while the caption is up, and :meth:`settle` waits out any reading time left.
        """
        text = self.caption_text(beat, **extra)
        if self.narrator:  # narration: the previous line is spoken to its end first
            self.narrator.before_beat(self)
        self._close_subcaption()
        if self.caption_mode != "none":
            self._sub = (text, self.time)
        if self.caption_mode == "burned":
            bar = CaptionBar(text)
            if self._caption is None:
                self.play(FadeIn(bar), run_time=0.4)
            else:
                self.play(FadeOut(self._caption), FadeIn(bar), run_time=0.4)
            self._caption = bar
        self._read_until = self.time + captions.reading_time(text, self.lang)
        if self.narrator:  # narration: the beat holds until its line (+ a pause) is spoken
            self._read_until = max(self._read_until, self.narrator.speak(self, beat, text))
        return text

    def settle(self, minimum: float = 0.5) -> None:
        """Wait until the current caption has had its reading time (at least ``minimum``)."""
        left = self._read_until - self.time
        self.wait(max(minimum, left))

    def _close_subcaption(self) -> None:
        if self._sub is None:
            return
        text, start = self._sub
        dur = self.time - start
        if dur > 0:
            self.add_subcaption(text, duration=dur, offset=-dur)
        self._sub = None

    def tear_down(self) -> None:
        if self.narrator:  # narration: the last line ends, the track lasts as long as the video
            self.narrator.finish(self)
        self._close_subcaption()
        super().tear_down()
