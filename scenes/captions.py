"""Caption texts as data: ``assets/captions/<lang>.toml``, one table per section.

Each table maps a beat name to a sentence with ``{placeholders}`` filled from
the story (:meth:`attn_math.Story.caption_context`), so a caption can only say
what the numbers on screen show. No manim import: tests check every key and
placeholder without rendering.
"""

from __future__ import annotations

import string
import tomllib
import unicodedata
from functools import lru_cache
from pathlib import Path

from attn_math import prose

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
_BREAK_AFTER = {"ja": "。：、！？", "en": ".:;,!?—"}
_PARTICLES = "はがをにでともへ"
_SENTENCE_END = {"ja": "。：！？", "en": ".:;!?"}


def reading_length(text: str, language: str) -> float:
    """Length for reading speed: Japanese counts full-width characters (half-width ones
    as half), English counts characters."""
    if language != "ja":
        return float(len(text))
    return sum(1.0 if unicodedata.east_asian_width(c) in "WF" else 0.5 for c in text)


def reading_time(text: str, language: str) -> float:
    """Seconds a viewer needs to read one cue of ``text``."""
    return max(MIN_CUE_SECONDS, reading_length(text, language) / READING_RATE[language])


def _width(text: str, language: str) -> float:
    return reading_length(text, language) if language == "ja" else float(len(text))


def _is_hiragana(c: str) -> bool:
    return "\u3041" <= c <= "\u309f"


def _break_points(text: str, language: str, ends: str) -> list[int]:
    """Indices where ``text`` may break after one of ``ends`` (English: before a space)."""
    out = []
    for i in range(1, len(text)):
        c = text[i - 1]
        if language == "ja":
            # not right before hiragana after a bracket: that splits a particle from its word
            if (c in ends and i < len(text)
                    and not (c in "」）" and (_is_hiragana(text[i]) or text[i:].lstrip().startswith("→")))
                    and not (text[i - 2:i] == "」、" and text[i] == "「")):   # inside a list of names
                out.append(i)
        elif text[i] == " " and (c in ends or ends == " "):
            out.append(i)
    return out


_WEAK_WORDS = {"a", "an", "the", "of", "to", "in", "on", "at", "and", "its", "by", "for"}

#: No line starts with these (closing punctuation and brackets, small kana, the prolonged
#: sound mark: JIS X 4051's line-start prohibition, "kinsoku"; closing quotes and
#: punctuation in English) ...
NO_LINE_START = frozenset("。、，．・：；？！）」』】〉》〕］｝ーぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々…"
                          ")]},.:;!?”’")
#: ... and no line ends with these (opening brackets and quotes).
NO_LINE_END = frozenset("（「『【〈《〔［｛([{“‘")


def _inside_brackets(text: str, i: int) -> bool:
    """Whether a break at ``i`` falls inside brackets or a quoted token name (a quoted
    whole sentence may break between its words)."""
    head = text[:i]
    for o, c in ("()", "[]", "（）", "「」", "“”"):
        if head.count(o) > head.count(c):
            if o in "「“":
                start, end = head.rfind(o), text.find(c, i)
                if end < 0 or end - start > 20:
                    continue
            return True
    return False


def _best_split(text: str, language: str, points: list[int], limit: float) -> int | None:
    """The break in ``points`` nearest the middle whose both sides fit ``limit``; never
    inside brackets or a quoted name, never leaving a line to start with closing
    punctuation or end with an opening bracket (:data:`NO_LINE_START`, :data:`NO_LINE_END`),
    and (English) not after a weak word."""
    total = _width(text, language)
    best, best_cost = None, float("inf")
    for i in points:
        a, b = text[:i].strip(), text[i:].strip()
        if not a or not b or _width(a, language) > limit or _width(b, language) > limit:
            continue
        if b[0] in NO_LINE_START or a[-1] in NO_LINE_END:
            continue
        if _inside_brackets(text, i):
            continue
        cost = abs(_width(a, language) - total / 2)
        if language == "en" and a.split()[-1].lower() in _WEAK_WORDS:
            cost += 8.0
        if cost < best_cost:
            best, best_cost = i, cost
    return best


def lines_of(text: str, language: str) -> list[str]:
    """``text`` broken into at most two balanced lines (the burned caption's and the
    .srt's line breaks). Japanese breaks after punctuation, else after any full-width
    character; English only at spaces, preferably after punctuation."""
    text = text.strip()
    limit = LINE_CHARS[language]
    if _width(text, language) <= limit:
        return [text]
    if language == "ja":
        tiers = [_BREAK_AFTER["ja"], "」）"]
        candidates = [_break_points(text, "ja", t) for t in tiers]
        candidates.append([i for i in range(1, len(text)) if text[i - 1] == " " or text[i] == " "])
        # after a particle followed by a new word (kanji, katakana, a quote, a digit)
        candidates.append([i for i in range(1, len(text)) if text[i - 1] in _PARTICLES
                           and not _is_hiragana(text[i]) and text[i] not in "。、：」）ー"])
        candidates.append([i for i in range(1, len(text))
                           if unicodedata.east_asian_width(text[i - 1]) in "WF"
                           and text[i] not in "。、：」）！？ー"])
    else:
        candidates = [_break_points(text, "en", _BREAK_AFTER["en"]), _break_points(text, "en", " ")]
    total = _width(text, language)
    for tier, points in enumerate(candidates):
        i = _best_split(text, language, points, limit)
        # a punctuation break far from the middle reads worse than a plain one near it
        if i is not None and (tier == len(candidates) - 1
                              or abs(_width(text[:i], language) - total / 2) <= 0.35 * limit):
            return [text[:i].strip(), text[i:].strip()]
    # does not fit in two lines: the caption bar shrinks it (tests flag such texts)
    i = _best_split(text, language, candidates[-1], float("inf")) or len(text) // 2
    return [text[:i].strip(), text[i:].strip()]


def fits(text: str, language: str) -> bool:
    """Whether ``text`` fits one cue: at most two lines of ``LINE_CHARS``."""
    return all(_width(line, language) <= LINE_CHARS[language] for line in lines_of(text, language))


def cues_of(text: str, language: str) -> list[str]:
    """A beat's text as the cues shown one after the other (one, or two for a long beat),
    each with its line break as ``\n``."""
    text = text.strip()
    if not fits(text, language):
        limit = MAX_LINES * LINE_CHARS[language]
        points = _break_points(text, language, _SENTENCE_END[language])
        i = _best_split(text, language, points, limit)
        if i is None:
            i = _best_split(text, language, _break_points(text, language, _BREAK_AFTER[language]), limit)
        if i is not None:
            return ["\n".join(lines_of(part, language)) for part in (text[:i], text[i:])]
    return ["\n".join(lines_of(text, language))]
