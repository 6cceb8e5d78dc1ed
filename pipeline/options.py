"""What a run is asked for: qualities, languages, themes, caption modes, and :class:`Options`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from words.config import CAPTION_MODES, LANGS, THEMES

__all__ = ["QUALITIES", "HIDDEN_QUALITIES", "LANGS", "THEMES", "CAPTION_MODES", "BadInput", "Options"]

#: quality name -> (width, height, fps). Documented ones first; the rest are hidden (tests).
QUALITIES: dict[str, tuple[int, int, int]] = {
    "preview": (854, 480, 15),
    "medium": (1280, 720, 30),
    "high": (1920, 1080, 30),
    "production": (1920, 1080, 60),
    "4k": (3840, 2160, 60),
}
HIDDEN_QUALITIES: dict[str, tuple[int, int, int]] = {"tiny": (128, 72, 5), "tiny15": (192, 108, 15)}


class BadInput(ValueError):
    """Input a run cannot start with (an unknown section, an unwritable folder, a missing
    voice...): the command line reports its one-line message and exits 2, before any
    rendering."""


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
    # a voice reads every beat; lines are cached in voice_cache
    narration: bool = False
    voice_cache: Path | None = None
    voice: str | None = None     # the narration voice's name (narration.voices), resolved
    captions_file: Path | None = None  # the lecturer's words (words/captions_file.py), checked
    recordings: Path | None = None     # the lecturer's recordings (narration/recordings.py)

    @property
    def size(self) -> tuple[int, int, int]:
        return {**QUALITIES, **HIDDEN_QUALITIES}[self.quality]

