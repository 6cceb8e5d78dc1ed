"""The deck: a title slide, then one entry per section (what every output format draws)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from words.captions import language_name

if TYPE_CHECKING:
    from .beats import Beat

#: How a deck steps through a section: ``beats`` stops at the end of every caption beat
#: (a slide per beat in PowerPoint), ``sections`` plays the whole clip per slide.
STEPS = ("beats", "sections")


@dataclass(frozen=True)
class SectionSlide:
    """One section: its number and title, its clip and poster frame, its speaker notes."""

    number: int
    stem: str          # NN-slug: the name of the clip and poster beside the page
    title: str
    clip: Path         # an MP4 (H.264)
    poster: Path       # a PNG of the clip's end state (pipeline.poster)
    notes: str         # the section's caption script, one cue per line
    clip_key: str      # the clip's cache key: same key, same bytes
    duration: float    # seconds
    #: one sentence on what the section shows (``[summaries]`` of the caption tables): with
    #: the title, the clip's text alternative (alt text, the transcript's still)
    summary: str = ""
    #: ``(lang, WebVTT file)`` per subtitle language, the caption language first
    subtitles: tuple[tuple[str, Path], ...] = ()
    #: the clip cut at its caption beats (:mod:`slides.beats`), in order; empty when the
    #: deck plays whole sections
    beats: tuple[Beat, ...] = ()


@dataclass(frozen=True)
class Deck:
    """Everything the pptx, html and pdf writers need; nothing about how they draw it."""

    title: str
    sentence: str
    lang: str
    theme: str = "dark"
    sections: tuple[SectionSlide, ...] = field(default_factory=tuple)
    #: True when the clips carry narration: the html deck then plays them with sound.
    narrated: bool = False
    #: True when the captions are burned into the clips: the deck's caption tracks then
    #: start off (the caption language is already on the picture).
    captions_burned: bool = True
    #: one of :data:`STEPS`
    step: str = "sections"

    @property
    def stepped(self) -> bool:
        """True when the deck stops at every caption beat."""
        return self.step == "beats"

    def alt_text(self, s: SectionSlide) -> str:
        """The text alternative of section ``s``'s video: its title and its summary."""
        return alt_text(s.title, s.summary, self.lang)

    @property
    def language(self) -> str:
        """The language line of the title slide, written in that language."""
        return language_name(self.lang)

    def key(self, fmt: str, code_digest: str) -> str:
        """A hash of everything the ``fmt`` output depends on (its inputs and the writer's code)."""
        src = json.dumps([fmt, code_digest, self.title, self.sentence, self.lang, self.theme, self.narrated,
                          self.captions_burned, self.step,
                          [(s.number, s.stem, s.title, s.clip_key, s.notes, s.summary, [lang for lang, _ in s.subtitles],
                            [(b.first, b.end, b.caption) for b in s.beats])
                           for s in self.sections]],
                         ensure_ascii=False)
        return hashlib.sha256(src.encode()).hexdigest()[:24]


#: How the title and the summary are joined, per language: as two sentences (a summary may
#: hold a colon of its own).
ALT_TEXT_JOIN = {"ja": "。", "en": ". "}


def alt_text(title: str, summary: str, lang: str) -> str:
    """``Title. Summary`` (a title alone when there is no summary)."""
    return f"{title}{ALT_TEXT_JOIN.get(lang, '. ')}{summary}" if summary else title


def script_of(srt_text: str) -> str:
    """A section's caption script from its clip's subtitles: the cue texts in order, one a line.

    ``render.py script`` (:mod:`pipeline.script`) prints the same cues (tests/test_script.py
    holds the script equal to the rendered ``.srt``), but it runs every scene again to get
    them; the clip's own subtitles cost nothing. To take the notes from the script instead,
    this is the one function to change.
    """
    import srt

    return "\n".join(" ".join(c.content.split()) for c in srt.parse(srt_text) if c.content.strip())
