"""A caption beat as cues on screen: how long each must stay up, and where its lines break.

One rule, used by ``SectionScene.say``/``settle`` and by ``render.py script``: published
subtitle guidance (about 4 full-width characters a second for Japanese, at most 17
characters a second for English, no cue under 1.5 s), at most two lines a cue; a beat too
long for one cue is split into two at the sentence boundary nearest its middle.

No manim import: the pacing is tested without rendering.
"""

from __future__ import annotations

from . import linebreak

__all__ = ["READING_RATE", "MIN_CUE_SECONDS", "LINE_CHARS", "MAX_LINES", "reading_length",
           "reading_time", "lines_of", "fits", "cues_of"]

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
    .srt's line breaks): :func:`words.linebreak.cue_lines` at :data:`LINE_CHARS` of
    reading width."""
    return linebreak.cue_lines(text, language, LINE_CHARS[language], _measure(language))


def fits(text: str, language: str) -> bool:
    """Whether ``text`` fits one cue: at most two lines of ``LINE_CHARS``."""
    return all(reading_length(line, language) <= LINE_CHARS[language] for line in lines_of(text, language))


def cues_of(text: str, language: str) -> list[str]:
    """A beat's text as the cues shown one after the other, each with its line break as
    ``\n``: one cue, or two for a long beat (split at the sentence end nearest the middle,
    else at a clause end). A beat that still does not fit (a list of many long token names)
    is split again, at list commas too, until every cue fits or nothing is left to split."""
    text = text.strip()
    if fits(text, language):
        return [_cue(text, language)]
    i = _two_cue_split(text, language)
    if i is not None:
        return [_cue(text[:i], language), _cue(text[i:], language)]
    i = _any_split(text, language)
    if i is None:   # one unbreakable run: the caption bar shrinks it
        return [_cue(text, language)]
    return cues_of(text[:i], language) + cues_of(text[i:], language)


def _cue(text: str, language: str) -> str:
    """One cue: ``text`` broken into its lines (:func:`lines_of`)."""
    return "\n".join(lines_of(text, language))


def _two_cue_split(text: str, language: str) -> int | None:
    """Where ``text`` splits into two cues that each fit (:func:`fits`): at a sentence end,
    else at a clause end, nearest the middle; None if no such break exists."""
    limit = MAX_LINES * LINE_CHARS[language]
    measure = _measure(language)
    for ends in (_SENTENCE_END[language], linebreak.CUE_BREAK_AFTER[language]):
        points = [i for i in linebreak.break_points(text, language, ends)
                  if fits(text[:i].strip(), language) and fits(text[i:].strip(), language)]
        i = linebreak.best_split(text, language, points, limit, measure)
        if i is not None:
            return i
    return None


def _any_split(text: str, language: str) -> int | None:
    """The last resort for a beat too long for two cues: the break nearest the middle at a
    sentence end, else at a clause end or between listed names, else at a space, taking the
    first kind that leaves each half short enough for two cues (each half is then split
    again as it needs); failing that, the plainest break nearest the middle."""
    measure = _measure(language)
    sentence = linebreak.break_points(text, language, _SENTENCE_END[language])
    clause = linebreak.break_points(text, language, linebreak.CUE_BREAK_AFTER[language], in_lists=True)
    # Japanese has no spaces between words: also after any full-width character (the
    # line breaker's last resort too)
    space = linebreak.break_points(text, language, " ") if language != "ja" else \
        linebreak.space_points(text) + linebreak.wide_points(text)
    tiers = (sentence, sorted(set(sentence) | set(clause)), sorted(set(sentence) | set(clause) | set(space)))
    for limit in (2 * MAX_LINES * LINE_CHARS[language], float("inf")):
        for points in tiers:
            i = linebreak.best_split(text, language, points, limit, measure)
            if i is not None:
                return i
    return None
