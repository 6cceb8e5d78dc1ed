"""The spoken form of a caption: what a person would say when reading it aloud.

A caption is written for the eye (``W_Q``, ``√d``, ``−0.32``, ``×``, ``q(it)``); a voice
reads such text badly or not at all (Open JTalk drops ``−`` and ``√``; festival reads
``W_Q`` as one word). :func:`spoken` rewrites a caption for the ear, by rules that hold for
every sentence the tool accepts:

=================  ==================================  ======================
written            English                             Japanese
=================  ==================================  ======================
``W_Q``            ``W Q``                             ``ダブリューキュー``
``√d``             ``root d``                          ``ルートディー``
``−0.32``          ``minus zero point three two``      ``マイナス レーテンサンニー``
``1.72 × 2``       ``one point seven two times 2``     ``イッテンナナニー かける 2``
``d = 256``        ``d equals 256``                    ``ディー イコール 256``
``1/√d``           ``1 over root d``                   ``ルートディー分の 1``
``q(it)``          ``q of it``                         ``キュー（イット）``
``the₁``           ``the 1``                           ``ザ1``
``cat`` (a token)  ``cat``                             ``キャット``
=================  ==================================  ======================

Japanese narration reads the English words of a sentence (its tokens) in katakana through
``e2k`` (English-to-katakana, public domain, ships its model in the wheel); letters standing
alone and capitals (``q``, ``W``, ``GPT``) are read as letter names. The rules are code; the
words they say (letter names, symbol readings, "minus", "over") are per-language data in
``[readings]`` of ``assets/spoken/<lang>.toml`` (:func:`readings`). Where a rule is not
enough, a caption carries an explicit spoken variant in its section's folder,
``spoken/<lang>.toml`` (same ``[sNN]`` table and beat key as the caption, same placeholders):
:func:`variant`.

No manim import: the rules are unit-tested without rendering.
"""

from __future__ import annotations

import re
import tomllib
from functools import cache, lru_cache
from pathlib import Path

from attn_explainer_assets import assets_dir

from . import config, units

__all__ = ["SPOKEN_DIR", "spoken", "counted", "katakana", "readings", "variants", "variant"]

SPOKEN_DIR = assets_dir() / "spoken"

_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")

_MINUS = re.compile(r"(?<![\w)])[−-](?=\d)")            # a sign, not a hyphen or a subtraction
_ROOT = re.compile(r"√\s*(\w+)")
_SCIENTIFIC = re.compile(r"(\d+(?:\.\d+)?)e([−-]?)(\d+)\b")   # 1.2e−14 (attn_math.fmt)
_RATIO = re.compile(r"(?<![\w/])([\w.]+)\s*/\s*(√?\s*[\w.]+)")
_SUBSCRIPT_NAME = re.compile(r"\b([A-Za-z])_([A-Za-z0-9]+)\b")   # W_Q, x_0
_CALL = re.compile(r"\b([A-Za-z])\(([^()]+)\)")                 # q(it), k(cat)
_DECIMAL = re.compile(r"\b(\d+)\.(\d+)\b")
_MODEL_NUMBER = re.compile(r"\b([A-Z]{2,})-(\d)\b")           # GPT-2: a model's name
_LATIN = re.compile(r"[A-Za-z]+(?:'[a-z]+)?")
_VOWEL = re.compile(r"[aeiouy]", re.IGNORECASE)
#: A whole number, thousands separated or not (``1,000``).
_WHOLE_NUMBER = r"(?<![\d.,])(?:\d{1,3}(?:,\d{3})+|\d+)(?![\d.])"


def spoken(text: str, lang: str) -> str:
    """The caption ``text`` as the voice of ``lang`` should read it.

    Parameters
    ----------
    text
        The caption as displayed (placeholders already filled).
    lang
        ``"ja"`` or ``"en"``.

    Returns
    -------
    str
        One line of text for the speech engine.
    """
    r = readings(lang)
    s = " ".join(text.split())  # one line: line breaks are for the eye
    for notation, word in r.get("notations", {}).items():
        s = s.replace(notation, word)
    if lang == "en":  # (Japanese: after the names are read, so the₁ stays ザ1, not letters)
        s = s.translate(_SUBSCRIPTS)
    s = re.sub(r"([^\W\d_])(\d)", r"\1 \2", s) if lang == "en" else s
    # W_Q -> "W Q"; in Japanese a one- or two-letter subscript joins its name (ダブリューキュー)
    s = _SUBSCRIPT_NAME.sub(r"\1 \2" if lang == "en" else _join_short_subscript, s)
    minus = lambda m: r["minus"]  # noqa: E731
    ratio = lambda m: r["ratio"].format(num=m.group(1), den=m.group(2))  # noqa: E731
    root = lambda m: r["root"].format(x=m.group(1))  # noqa: E731
    call = lambda m: r["call"].format(f=m.group(1), x=m.group(2))  # noqa: E731
    # 1.2e−14: the mantissa times ten to the exponent (before the sign and decimal rules)
    s = _SCIENTIFIC.sub(lambda m: r["scientific"].format(
        m=m.group(1), sign=r["minus"] if m.group(2) else "", e=m.group(3)), s)
    if lang == "en":
        s = _CALL.sub(call, s)
        s = _MINUS.sub(minus, s)
        s = _RATIO.sub(ratio, s)
        s = _ROOT.sub(root, s)
        s = _DECIMAL.sub(lambda m: _decimal_en(m, r), s)
        s = re.sub(r"\b0\b", r["digits"][0], s)
    else:
        s = _MINUS.sub(minus, s)
        s = _RATIO.sub(ratio, s)
        s = _ROOT.sub(root, s)
        s = _CALL.sub(call, s)
        s = _MODEL_NUMBER.sub(lambda m: m.group(1) + r["english_digits"][int(m.group(2))], s)
        s = _DECIMAL.sub(lambda m: _decimal_ja(m, r), s)
        s = _LATIN.sub(_latin_ja, s).translate(_SUBSCRIPTS)
        # a name read in katakana runs on into its particle ("イット を" would pause)
        s = re.sub(r"(?<=[\u30a0-\u30ff])\s+(?=[\u3040-\u309f\u4e00-\u9fff])", "", s)
        # a number runs on into its counter: the caption's space ("16 節", "1 つ") made Open
        # JTalk read the counter as a word of its own (16 フシ, イチ ツ, 1 クライ); only the
        # table's counters, not "分の" of a ratio (ニフンノ)
        s = counted(lang).sub(r"\1\2", s)
    for symbol, word in r["symbols"].items():
        s = s.replace(symbol, word)
    return " ".join(s.split())


def _decimal_en(m: re.Match, r: dict) -> str:
    digits = r["digits"]
    whole = digits[int(m.group(1))] if len(m.group(1)) == 1 else m.group(1)
    return f"{whole} {r['point']} " + " ".join(digits[int(c)] for c in m.group(2))


def _decimal_ja(m: re.Match, r: dict) -> str:
    """A decimal in katakana, as Open JTalk reads one (``1.72`` -> イッテンナナニー): Kokoro's
    reading front end passes the point on as a full stop, so the number must arrive as words.
    A whole part of one digit takes its sound change before テン (イッ, ハッ); a longer one
    stays digits."""
    whole, frac = m.group(1), m.group(2)
    head = r["decimal_ones"][int(whole)] if len(whole) == 1 else whole
    return head + r["decimal_point"] + "".join(r["decimal_digits"][int(c)] for c in frac)


def _join_short_subscript(m: re.Match) -> str:
    return m.group(1) + m.group(2) if len(m.group(2)) <= 2 else f"{m.group(1)} {m.group(2)}"


def _latin_ja(m: re.Match) -> str:
    """A run of Latin letters inside Japanese: letter names for symbols, capitals and
    letters before a number (``fp16``), katakana for English words."""
    word = m.group(0)
    before_digit = m.end() < len(m.string) and m.string[m.end()] in "0123456789"
    # a run without a vowel is a symbol's name (d_k joined as "dk"), not a word to transliterate
    if len(word) == 1 or word.isupper() or before_digit or not _VOWEL.search(word):
        return "".join(readings("ja")["letters"][c] for c in word.lower())
    return readings("ja")["words"].get(word.lower()) or katakana(word.lower())


@lru_cache(maxsize=4096)
def katakana(word: str) -> str:
    """The katakana reading of an English word (``cat`` -> ``キャット``), or its letter
    names when the converter is not installed."""
    c2k = _c2k()
    if c2k is None:
        return "".join(readings("ja")["letters"].get(c, c) for c in word.lower())
    return c2k(word)


@lru_cache(maxsize=1)
def _c2k():
    try:
        from e2k import C2K
    except ImportError:
        return None
    return C2K()


def _table(lang: str) -> dict:
    """The parsed ``assets/spoken/<lang>.toml``, with every section's spoken variants
    (``spoken/<lang>.toml`` in its folder, built in or from outside, :mod:`words.units`)."""
    return _spoken(lang, config.current().section_dirs)


@lru_cache(maxsize=8)
def _spoken(lang: str, section_dirs: tuple[Path, ...]) -> dict:
    with open(SPOKEN_DIR / f"{lang}.toml", "rb") as f:
        return units.with_units(tomllib.load(f), units.word_dirs(section_dirs), "spoken", lang)


@cache
def counted(lang: str) -> re.Pattern:
    """A whole number and, if one follows (with or without a space between), one of the
    counters of ``lang`` (``[readings] counters``, longest first): group 1 the number, group 2
    the counter or ``None``."""
    counters = sorted(readings(lang).get("counters", []), key=len, reverse=True)
    return re.compile(f"({_WHOLE_NUMBER})(?:\\s*({'|'.join(map(re.escape, counters)) or '(?!)'}))?")


def readings(lang: str) -> dict:
    """The words the rules of ``lang`` say (``[readings]`` of ``assets/spoken/<lang>.toml``):
    ``notations`` (read whole, before every rule), ``minus``, ``scientific``, ``ratio``,
    ``root``, ``call`` templates, ``symbols`` (replaced in file order, after the rules),
    and per language ``digits``/``point`` (English) or ``letters``, ``words``,
    ``english_digits``, the decimals' ``decimal_ones``/``decimal_point``/``decimal_digits``
    and the ``counters`` a number runs on into (Japanese)."""
    return _table(lang)["readings"]


def variants(lang: str) -> dict:
    """The explicit spoken variants of ``lang``: the ``[sNN]`` tables of the sections'
    ``spoken/<lang>.toml``, each beat key to its spoken template."""
    return {k: v for k, v in _table(lang).items() if re.fullmatch(r"s\d\d", k)}


def variant(lang: str, section: int, beat: str) -> str | None:
    """The spoken variant template of a beat (placeholders unfilled), if it has one."""
    return variants(lang).get(f"s{section:02d}", {}).get(beat)
