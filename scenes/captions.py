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

from attn_explainer_assets import assets_dir
from attn_math import prose

from . import env, linebreak, sections

CAPTIONS_DIR = assets_dir() / "captions"
LANGS = ("ja", "en")
MODES = ("burned", "srt", "none")


def lang() -> str:
    """The caption language chosen by ``ATTN_LANG`` (default Japanese)."""
    return env.choice("ATTN_LANG", LANGS, "ja")


def mode() -> str:
    """``burned`` (drawn and written to .srt), ``srt`` (written only) or ``none``."""
    return env.choice("ATTN_CAPTIONS", MODES, "burned")


def table(language: str) -> dict:
    """The caption table of ``language``: ``assets/captions/<language>.toml``, plus the words
    of sections from outside the repository (``captions/<language>.toml`` in a section's
    folder: its ``[sNN]`` table and its ``[titles]`` entries)."""
    return _table(language, tuple(str(d) for d in sections.extra_dirs()))


@lru_cache(maxsize=8)
def _table(language: str, extra_dirs: tuple[str, ...]) -> dict:
    with open(CAPTIONS_DIR / f"{language}.toml", "rb") as f:
        data = tomllib.load(f)
    for _, folder in sections.unit_folders() if extra_dirs else ():
        own = folder / "captions" / f"{language}.toml"
        if own.is_file():
            with open(own, "rb") as f:
                for key, value in tomllib.load(f).items():
                    if isinstance(value, dict) and isinstance(data.get(key), dict):
                        data[key] = {**data[key], **value}
                    else:
                        data[key] = value
    return data


def language_name(language: str) -> str:
    """The name of ``language`` written in that language ("日本語", "English"): CLDR's, through
    Babel, so no table of ours holds it (the opening card and the title slide both say it)."""
    from babel import Locale

    return Locale.parse(language).get_display_name(language)


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
        entry = entry.get(prose.plural_category(count, language), entry["other"])
    return entry.format_map(ctx)


def texts(entry) -> list[str]:
    """Every text of a table entry (one, or one per plural category)."""
    return [v for k, v in entry.items() if k != "by"] if isinstance(entry, dict) else [entry]


# ------------------------------------------------------------ pacing
#
# One rule, used by SectionScene.say/settle and by ``render.py script``: published subtitle
# guidance (about 4 full-width characters a second for Japanese, at most 17 characters a
# second for English, no cue under 1.5 s), at most two lines a cue; a beat too long for
# one cue is split into two at the sentence boundary nearest its middle.

READING_RATE = {"ja": 4.0, "en": 15.0}   # characters per second (ja: full-width characters)
MIN_CUE_SECONDS = 1.5
LINE_CHARS = {"ja": 30, "en": 68}        # characters a caption line holds at CAPTION_SIZE
MAX_LINES = 2
_SENTENCE_END = {"ja": "。：！？", "en": ".:;!?"}


def reading_length(text: str, language: str) -> float:
    """Length for reading speed: Japanese counts full-width characters (half-width ones
    as half), English counts characters."""
    if language != "ja":
        return float(len(text))
    return sum(1.0 if linebreak.is_wide(c) else 0.5 for c in text)


def reading_time(text: str, language: str) -> float:
    """Seconds a viewer needs to read one cue of ``text``."""
    return max(MIN_CUE_SECONDS, reading_length(text, language) / READING_RATE[language])


def _measure(language: str):
    """Reading width in ``language`` as a one-argument measure (what the line breaker takes)."""
    return lambda text: reading_length(text, language)


def lines_of(text: str, language: str) -> list[str]:
    """``text`` broken into at most two balanced lines (the burned caption's and the
    .srt's line breaks): :func:`scenes.linebreak.cue_lines` at :data:`LINE_CHARS` of
    reading width."""
    return linebreak.cue_lines(text, language, LINE_CHARS[language], _measure(language))


def fits(text: str, language: str) -> bool:
    """Whether ``text`` fits one cue: at most two lines of ``LINE_CHARS``."""
    return all(reading_length(line, language) <= LINE_CHARS[language] for line in lines_of(text, language))


def cues_of(text: str, language: str) -> list[str]:
    """A beat's text as the cues shown one after the other (one, or two for a long beat),
    each with its line break as ``\n``."""
    text = text.strip()
    if not fits(text, language):
        limit = MAX_LINES * LINE_CHARS[language]
        measure = _measure(language)
        points = linebreak.break_points(text, language, _SENTENCE_END[language])
        i = linebreak.best_split(text, language, points, limit, measure)
        if i is None:
            points = linebreak.break_points(text, language, linebreak.CUE_BREAK_AFTER[language])
            i = linebreak.best_split(text, language, points, limit, measure)
        if i is not None:
            return ["\n".join(lines_of(part, language)) for part in (text[:i], text[i:])]
    return ["\n".join(lines_of(text, language))]
