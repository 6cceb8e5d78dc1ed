"""What a run is asked for: qualities, languages, themes, caption modes, and :class:`Options`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import click

#: quality name -> (width, height, fps). Documented ones first; the rest are hidden (tests).
QUALITIES: dict[str, tuple[int, int, int]] = {
    "preview": (854, 480, 15),
    "medium": (1280, 720, 30),
    "high": (1920, 1080, 30),
    "production": (1920, 1080, 60),
    "4k": (3840, 2160, 60),
}
HIDDEN_QUALITIES: dict[str, tuple[int, int, int]] = {"tiny": (128, 72, 5), "tiny15": (192, 108, 15)}
LANGS = ("ja", "en")
THEMES = ("dark", "light")
CAPTION_MODES = ("burned", "srt", "none")


class BadInput(click.UsageError):
    """Bad command-line input: one line on stderr, exit code 2, before any rendering."""


@dataclass(frozen=True)
class Options:
    """Everything (besides the code) that decides what a section looks like.

    A custom-sentence feature adds its inputs here (``head`` is the TOML passed as
    ``ATTN_HEAD``); :func:`section_env` and :func:`section_hash` are the only readers.
    """

    lang: str = "ja"
    theme: str = "dark"
    captions: str = "burned"
    quality: str = "high"
    head: Path | None = None
    n_tokens: int | None = None  # the sentence's length, for titles that count tokens
    # narration (issue 14): a voice reads every beat; lines are cached in voice_cache
    narration: bool = False
    voice_cache: Path | None = None
    voice: str | None = None     # the narration voice's name (narration.voices), resolved
    captions_file: Path | None = None  # the lecturer's words (scenes/captions_file.py), checked
    recordings: Path | None = None     # the lecturer's recordings (narration/recordings.py)

    @property
    def size(self) -> tuple[int, int, int]:
        return {**QUALITIES, **HIDDEN_QUALITIES}[self.quality]

