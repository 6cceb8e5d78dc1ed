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

from babel import Locale

__all__ = ["CAPTIONS_DIR", "table", "language_name", "section_key", "raw", "placeholders",
           "plural_category", "render", "texts"]

CAPTIONS_DIR = Path(__file__).resolve().parent.parent / "assets" / "captions"


@lru_cache(maxsize=4)
def table(language: str) -> dict:
    """The parsed caption file of ``language``."""
    with open(CAPTIONS_DIR / f"{language}.toml", "rb") as f:
        return tomllib.load(f)


def language_name(language: str) -> str:
    """The name of ``language`` written in that language ("日本語", "English"): CLDR's, through
    Babel, so no table of ours holds it (the opening card and the title slide both say it)."""
    return Locale.parse(language).get_display_name(language) or language


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


def plural_category(count: float, language: str) -> str:
    """The CLDR plural category (``one``, ``other``, ...) of ``count`` in ``language``."""
    return Locale.parse(language).plural_form(abs(count))


class _Strict(dict):
    def __missing__(self, key):
        raise KeyError(f"caption placeholder {{{key}}} has no value in the story")


def render(language: str, section: int, beat: str, context: dict, **extra) -> str:
    """The caption of ``beat`` with its placeholders filled.

    A beat whose count decides its grammar is a table: ``by`` names the count's
    placeholder, and one text per CLDR plural category (``one``, ``other``, ...) of the
    language (Babel), ``other`` being required.
    """
    ctx = _Strict(context)
    ctx.update(extra)
    entry = raw(language, section, beat)
    if isinstance(entry, dict):
        count = float(str(ctx[entry["by"]]).replace(",", ""))
        entry = entry.get(plural_category(count, language), entry["other"])
    return entry.format_map(ctx)


def texts(entry) -> list[str]:
    """Every text of a table entry (one, or one per plural category)."""
    return [v for k, v in entry.items() if k != "by"] if isinstance(entry, dict) else [entry]
