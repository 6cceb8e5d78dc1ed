"""BERT's uncased tokenisation: the basic tokeniser, then WordPiece.

As BERT's ``BertTokenizer`` (``do_lower_case``, ``tokenize_chinese_chars``, accents stripped
with the lower case): control characters dropped and white space unified, every CJK
ideograph a word of its own, lower case, accents removed (NFD, marks dropped), punctuation
split off as words of their own; then each word is cut greedily into the longest pieces of the
vocabulary from the left, later pieces prefixed ``##``; a word with no such cut, or longer than
100 characters, is ``[UNK]``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

__all__ = ["UNK", "CLS", "SEP", "basic_words", "wordpieces", "pieces_of"]

UNK, CLS, SEP = "[UNK]", "[CLS]", "[SEP]"
_MAX_CHARS = 100


def _is_control(ch: str) -> bool:
    if ch in "\t\n\r":
        return False
    return unicodedata.category(ch).startswith("C")


def _is_whitespace(ch: str) -> bool:
    return ch in " \t\n\r" or unicodedata.category(ch) == "Zs"


def _is_punctuation(ch: str) -> bool:
    cp = ord(ch)
    # ASCII symbols count as punctuation for BERT ($, ^, `...), as in its reference code
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(cp: int) -> bool:
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF
            or 0x2A700 <= cp <= 0x2B73F or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF
            or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)


def basic_words(text: str) -> list[str]:
    """``text`` cut into words as BERT's uncased basic tokeniser cuts it."""
    cleaned = []
    for ch in text:
        cp = ord(ch)
        if cp == 0 or cp == 0xFFFD or _is_control(ch):
            continue
        if _is_whitespace(ch):
            cleaned.append(" ")
        elif _is_cjk(cp):
            cleaned.append(f" {ch} ")
        else:
            cleaned.append(ch)
    words = []
    for word in "".join(cleaned).split():
        word = "".join(c for c in unicodedata.normalize("NFD", word.lower())
                       if unicodedata.category(c) != "Mn")
        current = ""
        for ch in word:
            if _is_punctuation(ch):
                if current:
                    words.append(current)
                words.append(ch)
                current = ""
            else:
                current += ch
        if current:
            words.append(current)
    return words


def wordpieces(word: str, vocab: Mapping[str, int]) -> list[str]:
    """One word cut into the vocabulary's pieces, longest first from the left."""
    if len(word) > _MAX_CHARS:
        return [UNK]
    pieces, start = [], 0
    while start < len(word):
        end, found = len(word), None
        while start < end:
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                found = piece
                break
            end -= 1
        if found is None:
            return [UNK]
        pieces.append(found)
        start = end
    return pieces


def pieces_of(text: str, vocab: Mapping[str, int]) -> list[str]:
    """Every word piece of ``text``, in order (no ``[CLS]``/``[SEP]``)."""
    return [p for w in basic_words(text) for p in wordpieces(w, vocab)]
