"""Caption texts as data: ``assets/captions/<lang>.toml``, one table per section.

Each table maps a beat name to a sentence with ``{placeholders}`` filled from
the story (:meth:`attn_math.Story.caption_context`), so a caption can only say
what the numbers on screen show. No manim import: tests check every key and
placeholder without rendering.
"""

from __future__ import annotations

import string
import tomllib
from functools import lru_cache
from pathlib import Path

from . import env

CAPTIONS_DIR = Path(__file__).resolve().parent.parent / "assets" / "captions"
LANGS = ("ja", "en")
MODES = ("burned", "srt", "none")


def lang() -> str:
    """The caption language chosen by ``ATTN_LANG`` (default Japanese)."""
    return env.choice("ATTN_LANG", LANGS, "ja")


def mode() -> str:
    """``burned`` (drawn and written to .srt), ``srt`` (written only) or ``none``."""
    return env.choice("ATTN_CAPTIONS", MODES, "burned")


@lru_cache(maxsize=4)
def table(language: str) -> dict:
    """The parsed caption file of ``language``."""
    with open(CAPTIONS_DIR / f"{language}.toml", "rb") as f:
        return tomllib.load(f)


def section_key(number: int) -> str:
    return f"s{number:02d}"


def raw(language: str, section: int, beat: str) -> str:
    try:
        return table(language)[section_key(section)][beat]
    except KeyError:
        raise KeyError(f"captions/{language}.toml: no beat {beat!r} in [{section_key(section)}]") from None


def placeholders(text: str) -> list[str]:
    """The field names a caption uses."""
    return [f for _, f, _, _ in string.Formatter().parse(text) if f]


class _Strict(dict):
    def __missing__(self, key):
        raise KeyError(f"caption placeholder {{{key}}} has no value in the story")


def render(language: str, section: int, beat: str, context: dict, **extra) -> str:
    """The caption of ``beat`` with its placeholders filled."""
    ctx = _Strict(context)
    ctx.update(extra)
    return raw(language, section, beat).format_map(ctx)


def reading_time(text: str, language: str) -> float:
    """Seconds a student needs to read ``text``: ~8 characters/s in Japanese, ~15 in English."""
    rate = 8.0 if language == "ja" else 15.0
    return max(1.5, len(text) / rate)
