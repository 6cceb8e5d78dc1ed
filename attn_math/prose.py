"""How the story's names and numbers read inside caption prose, per language.

Token names are set off as names, one convention per language (“it” in English,
「it」 in Japanese), so a caption never reads a token as a word of its own sentence.
Lists of tokens and counts follow the language through Babel (CLDR): list patterns,
plural categories, and compact numbers for Japanese prose (100万, not 1,000,000).
Numbers drawn on the frame keep the story's figure text; only prose uses these.
"""

from __future__ import annotations

import re

from babel.lists import format_list
from babel.numbers import format_compact_decimal

TOKEN_MARKS = {"ja": ("「", "」"), "en": ("“", "”")}


def token_name(label: str, lang: str) -> str:
    """A token's label set off as a name: ``“it”`` / ``「it」``."""
    opening, closing = TOKEN_MARKS[lang]
    return f"{opening}{label}{closing}"


def token_list(labels: list[str], lang: str) -> str:
    """Several token names as one phrase: ``“a”, “b”, and “c”`` / ``「a」、「b」、「c」``."""
    return format_list([token_name(x, lang) for x in labels], locale=lang)


def compact_number(value: float, lang: str) -> str:
    """A large round number as the language writes it in prose: ``100 万`` / ``1 million``
    (Japanese: a space between the digits and the unit, as this project writes ``36 回``)."""
    text = format_compact_decimal(value, locale=lang, format_type="short" if lang == "ja" else "long")
    return re.sub(r"(\d)([万億兆])", r"\1 \2", text) if lang == "ja" else text
