"""The base class of every section's scene: configuration, story, captions, pacing.

A section's scene (``scene.py`` in the section's folder) subclasses :class:`SectionScene`
and writes ``construct`` as a short sequence of named beats; the registry knows which
section it is (:func:`scenes.registry.of_scene`)::

    class TheSquare(SectionScene):
        def construct(self):
            self.open()                    # title card
            self.say("intro")              # caption beat from the section's captions/<lang>.toml
            ...
            self.say("cost"); self.settle()

The configuration comes from the environment (see docs/ARCHITECTURE.md), so the
plain manim CLI renders any scene unchanged.
"""

from __future__ import annotations

from manim import DOWN, FadeIn, FadeOut, Mobject, Scene, Transform

import patches
from attn_math import Figure, Story
from attn_math.beats import BeatCursor
from narration import pacing as narration
from words import captions, config, cues

from . import registry, style, timing
from .widgets.chrome import CaptionBar, SectionTitle
from .widgets.tokens import shown_names
from .widgets.weights import WeightBars

# The start-up of every scene process, a plain ``manim`` run's too: manim as the project
# changes it (the patches' table, :mod:`patches`).
patches.install()

_STORIES: dict[str, Story] = {}

#: How much larger a block opening a section alone is drawn (:meth:`SectionScene.stage`).
STAGE_SCALE = 1.5


def story() -> Story:
    """The story of the configured head (``ATTN_HEAD``), loaded once per process and head."""
    key = str(config.current().head or "")
    if key not in _STORIES:
        _STORIES[key] = registry.load_story(key or None)
    return _STORIES[key]


class SectionScene(Scene):
    """A scene that knows its section, its story, its language and its theme."""

    #: Set by the caption timeline (scenes.timeline), which runs the scene with frames
    #: skipped to time a movie render: the scene then behaves as in a movie (its end fade).
    timing_only: bool = False

    def setup(self) -> None:
        self.theme = style.theme()
        self.camera.background_color = self.theme.background
        self.lang = config.current().lang
        self.caption_mode = config.current().captions
        self.story = story()
        # One abbreviation per token for every widget and text of the section, decided from
        # the tightest room any widget gives a name.
        self.names = shown_names(self.story.labels, WeightBars.name_room(self.story.n))
        self.section = registry.of_scene(type(self))
        self._caption = None          # the CaptionBar on screen
        self._sub = None              # (beat, cue text, start time, beat's index) of the cue on screen
        self._pending = []            # (beat, cue text) still to show for the current beat
        self._read_until = 0.0        # scene time by which the cue has been read
        self.cue_log = []             # (beat, cue text, start, end), as written to the .srt
        #: [start, end, {lang: text}] per beat said: its span and its text in every language,
        #: from which the other languages' subtitles are placed (pipeline.subtitles)
        self.subtitle_beats = []
        self.beat_cursor = BeatCursor(self.SECTION, self.section.plan(self.story))
        # lays each cue's line and makes the scene wait for the voice
        self.narrator = narration.Narrator(self.lang, self.SECTION) if narration.enabled() else None

    @property
    def SECTION(self) -> int:
        """This scene's section number (captions ``[sNN]``, figures, narration)."""
        return self.section.number

    def fig(self, name: str, of: str | None = None) -> Figure:
        """This section's figure ``name``; one borrowed from another section names it by slug
        (``of="spread-sqrt-d"``)."""
        number = self.SECTION if of is None else registry.by_slug(of).number
        return self.story.fig(number, name)

    def figures(self) -> dict[str, Figure]:
        """This section's figures by name, in the order it shows them."""
        return self.story.figures[self.SECTION]

    def wait(self, *args, **kwargs):
        """Manim's ``wait``, after every easing widget on screen has finished its easing
        (``finish_easing()``, e.g. :class:`~scenes.widgets.readouts.TotalReadout`'s note).

        An easing widget holds a time-based updater while it eases, and a wait with a
        time-based updater is drawn frame by frame where one without is a frozen frame;
        the two count frames differently. A render eases over frames, the caption-timing
        run (:mod:`scenes.timeline`, frames skipped) in one step: an easing left running
        into a wait would make the two disagree on the scene's clock (the script would
        drift from the rendered .srt). Finished first, every wait is timed alike.
        """
        for top in self.mobjects:
            for m in top.get_family():
                finish = getattr(m, "finish_easing", None)
                if finish is not None:
                    finish()
        return super().wait(*args, **kwargs)

    # ------------------------------------------------------------ chrome

    def open(self) -> SectionTitle:
        """Show the section title."""
        title = SectionTitle(self.section.number, self.title_text())
        self.play(FadeIn(title, shift=style.GAP * DOWN), run_time=timing.FADE)
        self.title_mob = title
        return title

    def stage(self, mob: Mobject, scale: float = STAGE_SCALE) -> Mobject:
        """Show ``mob`` enlarged at the centre of the content area, while it is all there is
        to see, so that a section never opens on one small block in a corner.

        ``mob`` is built where it stays once the rest of the section arrives; it is moved to
        the centre (scaled by ``scale``, at most to fill the content area) and the returned
        copy keeps its place for :meth:`unstage`. The caller fades ``mob`` in.
        """
        home = mob.copy()
        mob.scale(scale)
        style.content_box().fit(mob, height=True)
        mob.move_to(style.content_center())
        return home

    def unstage(self, mob: Mobject, home: Mobject, run_time: float = timing.ENTER) -> None:
        r"""Move a :meth:`stage`\ d ``mob`` back to its place (and size) to make room."""
        self.play(Transform(mob, home), run_time=run_time)

    def title_text(self) -> str:
        """The section's title in the caption language, for this sentence's token count
        (a title that counts tokens must not contradict a custom sentence)."""
        return self.section.title(self.lang, self.story.n)

    def caption_text(self, beat: str, **extra) -> str:
        """The text of caption key ``beat`` (also on-screen words, ``ui_*``), filled."""
        ctx = self.story.caption_context(self.SECTION, self.lang)
        return captions.render(self.lang, self.SECTION, beat, ctx, **extra)

    def ui(self, key: str) -> str:
        """An on-screen label of this section, in the caption language (the ``ui_<key>``
        entry of its caption table)."""
        return self.caption_text(f"ui_{key}")

    def ui_words(self, *names: str) -> dict[str, str]:
        """On-screen words of this section (``ui_<name>`` in the caption table), by name."""
        return {n: self.ui(n) for n in names}

    # ------------------------------------------------------------ captions and pacing
    #
    # A beat's text is shown as one or two cues (cues.cues_of). A cue stays up at
    # least its reading time (cues.reading_time): say() and settle() first wait out
    # what is left of the cue on screen, so no caption is cut short; the scene keeps
    # playing while a cue is up. Timing is the same in every caption mode.

    def say(self, slot: str, **extra) -> str:
        """Show the caption the story's plan gives ``slot``; returns its text.

        Waits until the caption on screen has been read, then shows the beat's first
        cue (a second one follows at the next say/settle, once the first has been read).
        """
        beat = self.beat_cursor.next(slot)
        if beat.key is None:
            return ""
        text = self.caption_text(beat.key, **extra)
        self._read_out()
        self.subtitle_beats.append([None, None, self._beat_in_every_language(beat.key, extra)])
        shown = cues.cues_of(text, self.lang)
        self._show_cue(beat.key, shown[0], whole_beat=len(shown) == 1)
        self._pending = [(beat.key, c) for c in shown[1:]]
        return text

    def _beat_in_every_language(self, key: str, extra: dict) -> dict[str, str]:
        """The text of caption ``key`` in every caption language that has it, filled from
        the story (a language without the beat has no subtitles for it; the render goes on)."""
        texts = {}
        for lang in config.LANGS:
            try:
                texts[lang] = captions.render(lang, self.SECTION, key,
                                              self.story.caption_context(self.SECTION, lang), **extra)
            except KeyError:
                continue
        return texts

    def settle(self, minimum: float = 0.5) -> None:
        """Wait until the caption has had its reading time (at least ``minimum``)."""
        self._read_out(keep_last=True)
        self.wait(max(minimum, self._read_until - self.time))

    def _read_out(self, keep_last: bool = False) -> None:
        """Wait out the cue on screen and show (and wait out) any cue left of its beat."""
        while True:
            if keep_last and not self._pending:
                return
            left = self._read_until - self.time
            if left > 0:
                self.wait(left)
            if not self._pending:
                return
            self._show_cue(*self._pending.pop(0))

    def _show_cue(self, beat: str, cue: str, whole_beat: bool = False) -> None:
        """Show one cue of ``beat``; with narration, its line is spoken and the cue holds
        until the voice (and a pause) is done. A spoken variant, written for the whole beat,
        is used only when the beat is one cue (``whole_beat``)."""
        self._close_subcaption()
        self._sub = (beat, cue, self.time, len(self.subtitle_beats) - 1)
        if self.caption_mode == "burned":
            bar = CaptionBar(cue)
            if self._caption is None:
                self.play(FadeIn(bar), run_time=timing.FLASH)
            else:
                self.play(FadeOut(self._caption), FadeIn(bar), run_time=timing.FLASH)
            self._caption = bar
        else:
            self.wait(timing.FLASH)   # the same clock as a burned render
        self._read_until = self._sub[2] + cues.reading_time(cue.replace("\n", " "), self.lang)
        if self.narrator:
            said = self.narrator.speak(self, beat, cue.replace("\n", " "), use_variant=whole_beat)
            self._read_until = max(self._read_until, said)

    def _close_subcaption(self) -> None:
        if self._sub is None:
            return
        beat, text, start, said = self._sub
        dur = self.time - start
        if dur > 0:
            self.cue_log.append((beat, text, start, self.time))
            span = self.subtitle_beats[said]
            span[0] = start if span[0] is None else span[0]
            span[1] = self.time
            if self.caption_mode != "none":
                self.add_subcaption(text, duration=dur, offset=-dur)
        self._sub = None

    def tear_down(self) -> None:
        if self._pending:
            self.settle()
        if self.narrator:  # narration: the last line is spoken to its end under its caption
            self.narrator.finish(self)
        self._close_subcaption()
        if not self.beat_cursor.finished():
            raise RuntimeError(f"section {self.SECTION} ended before its plan "
                               f"({self.beat_cursor.beats[self.beat_cursor.pos].slot!r} unsaid)")
        self._fade_out()
        if self.narrator:  # narration: the track lasts as long as the video, fade included
            self.narrator.pad_to_end(self)
        super().tear_down()

    def _fade_out(self) -> None:
        """The transition between sections: every clip ends with the same short fade to the
        background, and opens by fading its title in. Only in a movie: a still (or a test's
        last frame) shows the end state, not the empty background."""
        output = getattr(self.renderer.file_writer, "output_spec", None)
        movie = self.timing_only or (output is not None and output.is_video)
        if movie and self.mobjects:
            self.play(*[FadeOut(m) for m in self.mobjects], run_time=style.TRANSITION)
