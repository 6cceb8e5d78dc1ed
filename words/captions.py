"""Caption texts as data: one table per section (``captions/<lang>.toml`` in its folder), and
the words they share (``assets/captions/<lang>.toml``).

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

from attn_explainer_assets import assets_dir
from babel import Locale

from . import captions_file, config, units

__all__ = ["CAPTIONS_DIR", "packaged", "table", "language_name", "section_key", "raw", "placeholders",
           "plural_category", "render", "texts"]

CAPTIONS_DIR = assets_dir() / "captions"


def packaged(language: str) -> dict:
    """The caption table of ``language`` as shipped: the shared words
    (``assets/captions/<language>.toml``) and every section's own (``captions/<language>.toml``
    in its folder, built in or in one of the settings' section folders: its ``[sNN]``
    table and its ``[titles]`` and ``[summaries]`` entries)."""
    return _table(language, config.current().section_dirs)


def table(language: str) -> dict:
    """The caption table of ``language``: the shipped one (:func:`packaged`) with the entries
    the settings' captions file replaces (:mod:`words.captions_file`)."""
    return _with_own_words(language, config.current().captions_file, config.current().section_dirs)


@lru_cache(maxsize=8)
def _with_own_words(language: str, path: Path | None, section_dirs: tuple[Path, ...]) -> dict:
    base = _table(language, section_dirs)
    return base if path is None else captions_file.merged_from(base, language, path)


@lru_cache(maxsize=8)
def _table(language: str, section_dirs: tuple[Path, ...]) -> dict:
    with open(CAPTIONS_DIR / f"{language}.toml", "rb") as f:
        data = tomllib.load(f)
    return units.with_units(data, units.word_dirs(section_dirs), "captions", language)


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
