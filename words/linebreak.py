"""Line breaking: where a text may break, and the two ways this project lays text in lines.

The rules every break obeys live here once:

- :data:`NO_LINE_START` / :data:`NO_LINE_END`: no line starts with closing punctuation or
  small kana, none ends with an opening bracket (JIS X 4051's "kinsoku"; its Latin
  counterparts), and a number keeps the Japanese counter after it ("9 語"): :func:`may_break`.
- :data:`WIDE_CLAUSE_ENDS`: full-width punctuation after which Japanese breaks first.
- :func:`is_wide`: a full-width (East Asian Wide or Fullwidth) character, where Japanese may
  break when nothing better is near (it has no spaces between words).

Two layouts use them, and they are two ideas, not two copies of one:

:func:`cue_lines`
    A caption cue (the burned caption bar and the .srt): at most **two** lines of a fixed
    bar, measured in reading width (the unit of the pacing rule), balanced around the
    middle, and broken where a reader's eye would pause: clause punctuation first, then
    after a Japanese particle before a new word, never inside a quoted token name, never
    after an English article. The .srt carries the same breaks, so they are part of the
    subtitle file and must be stable.
:func:`paragraph_lines`
    An on-screen paragraph (list items, credits): **any number** of lines of about
    ``max_chars`` characters, the character count derived from the text's rendered
    width (:func:`scenes.widgets.text.paragraph`); each line is cut at the break nearest
    an even share, punctuation and spaces preferred by a penalty, the rest wrapped again.

No manim import: tests check both without rendering.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

__all__ = ["NO_LINE_START", "NO_LINE_END", "WIDE_CLAUSE_ENDS", "CUE_BREAK_AFTER", "PARTICLES",
           "WEAK_WORDS", "QUOTED_NAME_CHARS", "is_wide", "may_break", "break_points", "space_points",
           "wide_points", "best_split",
           "cue_lines", "paragraph_lines"]

#: No line starts with these (closing punctuation and brackets, small kana, the prolonged
#: sound mark: JIS X 4051's line-start prohibition, "kinsoku"; closing quotes and
#: punctuation in English) ...
NO_LINE_START = frozenset("。、，．・：；？！）」』】〉》〕］｝ーぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々…"
                          ")]},.:;!?”’→")
#: ... and no line ends with these (opening brackets and quotes; the arrow of an "a → b"
#: pair binds its two names, so it neither starts nor ends a line).
NO_LINE_END = frozenset("（「『【〈《〔［｛([{“‘→")

#: Full-width punctuation that ends a clause: Japanese breaks after it first.
WIDE_CLAUSE_ENDS = "。、，；：！？"


def is_wide(c: str) -> bool:
    """Whether ``c`` is full-width (East Asian Wide or Fullwidth: kana, kanji, emoji)."""
    return unicodedata.east_asian_width(c) in "WF"


def may_break(head: str, tail: str) -> bool:
    """Whether a break between ``head`` and ``tail`` keeps both lines and the kinsoku rule
    (no line starts with :data:`NO_LINE_START`, none ends with :data:`NO_LINE_END`)."""
    head, tail = head.rstrip(), tail.lstrip()
    # a number and the Japanese counter after it ("9 語", "30 個") read as one word
    counted = head[-1:].isdigit() and tail[:1] != "" and is_wide(tail[0]) and tail[0] not in WIDE_CLAUSE_ENDS
    return (bool(head) and bool(tail) and tail[0] not in NO_LINE_START and head[-1] not in NO_LINE_END
            and not counted)


# ------------------------------------------------------------ caption cues: two balanced lines

#: Where a caption line prefers to end (after these), per language.
CUE_BREAK_AFTER = {"ja": WIDE_CLAUSE_ENDS, "en": ".:;,!?—"}
#: Japanese particles: a caption may break after one that precedes a new word.
PARTICLES = "はがをにでともへ"
#: English words a caption line should not end on (they belong to the next word).
WEAK_WORDS = frozenset({"a", "an", "the", "of", "to", "in", "on", "at", "and", "its", "by", "for"})
#: A quoted stretch longer than this is a quoted sentence, which may break between words.
QUOTED_NAME_CHARS = 20


def _is_hiragana(c: str) -> bool:
    return "\u3041" <= c <= "\u309f"


def break_points(text: str, language: str, ends: str, *, in_lists: bool = False) -> list[int]:
    """Indices where ``text`` may break after one of ``ends`` (English: before a space;
    ``ends == " "``: at any space). Japanese keeps a list of quoted names (「a」、「b」) whole
    unless ``in_lists`` (the last resort of a beat too long for two lines)."""
    out = []
    for i in range(1, len(text)):
        c = text[i - 1]
        if language == "ja":
            # not right before hiragana after a bracket: that splits a particle from its word
            if (c in ends and i < len(text)
                    and not (c in "」）" and (_is_hiragana(text[i]) or text[i:].lstrip().startswith("→")))
                    and (in_lists or not (text[i - 2:i] == "」、" and text[i] == "「"))):
                out.append(i)
        elif text[i] == " " and (c in ends or ends == " "):
            out.append(i)
    return out


def space_points(text: str) -> list[int]:
    """Indices at a space of ``text`` (either side of it)."""
    return [i for i in range(1, len(text)) if text[i - 1] == " " or text[i] == " "]


def wide_points(text: str) -> list[int]:
    """Indices after a full-width character of ``text`` (not before closing punctuation):
    where Japanese, which has no spaces between words, breaks when nothing better is near."""
    return [i for i in range(1, len(text)) if is_wide(text[i - 1]) and text[i] not in "。、：」）！？ー"]


def _inside_brackets(text: str, i: int) -> bool:
    """Whether a break at ``i`` falls inside brackets or a quoted token name (a quoted
    whole sentence may break between its words)."""
    head = text[:i]
    for o, c in ("()", "[]", "（）", "「」", "“”"):
        if head.count(o) > head.count(c):
            if o in "「“":
                start, end = head.rfind(o), text.find(c, i)
                if end < 0 or end - start > QUOTED_NAME_CHARS:
                    continue
            return True
    return False


def best_split(text: str, language: str, points: list[int], limit: float,
               measure: Callable[[str], float]) -> int | None:
    """The break in ``points`` nearest the middle whose both sides fit ``limit`` (in
    ``measure``); never inside brackets or a quoted name, never against :func:`may_break`,
    and (English) not after a weak word."""
    total = measure(text)
    best, best_cost = None, float("inf")
    for i in points:
        a, b = text[:i].strip(), text[i:].strip()
        if not may_break(a, b) or measure(a) > limit or measure(b) > limit:
            continue
        if _inside_brackets(text, i):
            continue
        cost = abs(measure(a) - total / 2)
        if language == "en" and a.split()[-1].lower() in WEAK_WORDS:
            cost += 8.0
        if cost < best_cost:
            best, best_cost = i, cost
    return best


def cue_lines(text: str, language: str, limit: float, measure: Callable[[str], float]) -> list[str]:
    """``text`` broken into at most two balanced lines of ``limit`` (in ``measure``).

    Japanese breaks after clause punctuation, then after a closing bracket, at a space,
    after a particle before a new word, else after any full-width character; English
    only at spaces, preferably after punctuation. A punctuation break far from the middle
    gives way to a plainer one near it. A text too long for two lines is still cut in two
    (the caption bar shrinks it; the caption tests flag such texts).

    Parameters
    ----------
    text
        One cue's text, placeholders filled.
    language
        ``"ja"`` or ``"en"``: which break rules apply.
    limit
        The most a line may measure.
    measure
        A line's width in the unit of ``limit`` (captions: reading width).

    Returns
    -------
    list[str]
        One line, or two.
    """
    text = text.strip()
    if measure(text) <= limit:
        return [text]
    if language == "ja":
        candidates = [break_points(text, "ja", t) for t in (CUE_BREAK_AFTER["ja"], "」）")]
        candidates.append(space_points(text))
        # after a particle followed by a new word (kanji, katakana, a quote, a digit)
        candidates.append([i for i in range(1, len(text)) if text[i - 1] in PARTICLES
                           and not _is_hiragana(text[i]) and text[i] not in "。、：」）ー"])
        candidates.append(wide_points(text))
    else:
        candidates = [break_points(text, "en", CUE_BREAK_AFTER["en"]), break_points(text, "en", " ")]
    total = measure(text)
    for tier, points in enumerate(candidates):
        i = best_split(text, language, points, limit, measure)
        if i is not None and (tier == len(candidates) - 1
                              or abs(measure(text[:i]) - total / 2) <= 0.35 * limit):
            return [text[:i].strip(), text[i:].strip()]
    i = best_split(text, language, candidates[-1], float("inf"), measure) or len(text) // 2
    return [text[:i].strip(), text[i:].strip()]


# ------------------------------------------------------------ on-screen paragraphs: n lines

#: Penalties (in characters of distance from an even share) of a paragraph break in text
#: with full-width characters: after clause punctuation none, at a space a little, after
#: any other full-width character more. Latin text breaks only at spaces, all alike.
_PARAGRAPH_PENALTY = {"clause": 0.0, "space": 2.0, "wide": 6.0}


def paragraph_lines(s: str, max_chars: int) -> list[str]:
    """Split ``s`` into balanced lines of at most about ``max_chars`` characters.

    Latin text breaks only at spaces; text with full-width characters prefers
    :data:`WIDE_CLAUSE_ENDS`, then spaces, and falls back to any full-width character.
    Every break keeps :func:`may_break` (kinsoku).

    Parameters
    ----------
    s
        The paragraph's text.
    max_chars
        About how many characters a line holds (from the rendered text's average glyph width).

    Returns
    -------
    list[str]
        The lines, as many as the text needs.
    """
    s = s.strip()
    if len(s) <= max_chars:
        return [s]
    n_lines = -(-len(s) // max_chars)
    target = len(s) / n_lines
    wide = any(is_wide(c) for c in s)
    best, best_cost = None, float("inf")
    for i in range(1, len(s)):
        c = s[i - 1]
        if not may_break(s[:i], s[i:]):
            continue
        if c in WIDE_CLAUSE_ENDS:
            penalty = _PARAGRAPH_PENALTY["clause"]
        elif c == " " or s[i] == " ":
            penalty = _PARAGRAPH_PENALTY["space"] if wide else 0.0
        elif wide and is_wide(c):
            penalty = _PARAGRAPH_PENALTY["wide"]
        else:
            continue
        if i > max_chars:
            break
        cost = abs(i - target) + penalty
        if cost < best_cost:
            best, best_cost = i, cost
    i = best or max_chars
    return [s[:i].strip()] + paragraph_lines(s[i:], max_chars)
