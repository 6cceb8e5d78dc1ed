"""Words that depend on the language and are not a caption beat: counts in titles, the
name of the caption language. The words live in ``assets/captions/<lang>.toml``; these
tests pin what a viewer reads."""

from __future__ import annotations

import pytest

from attn_math.head import MAX_TOKENS, MIN_TOKENS
from scenes import captions
from scenes.registry import DEFAULT_TOKENS, SECTIONS, by_number, count_words

#: What each title says for a count (the outputs before the words moved to the tables).
COUNTS = {
    "en": {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
           9: "nine", 10: "ten", 11: "eleven", 12: "twelve", 13: "13", 14: "14", 15: "15", 16: "16"},
    "ja": {**{n: f"{n} つ" for n in range(2, 10)}, **{n: f"{n} 個" for n in range(10, 17)}},
}


@pytest.mark.parametrize("lang", captions.LANGS)
@pytest.mark.parametrize("n", range(2, 17))
def test_count_words(lang, n):
    assert count_words(n, lang) == COUNTS[lang][n]


def test_count_past_the_table_is_written_by_the_language():
    """Past the table, the number is Babel's (grouping separators), inside the table's pattern."""
    assert count_words(1000, "en") == "1,000"
    assert count_words(1000, "ja") == "1,000 個"


@pytest.mark.parametrize("n", range(2, 17))
def test_titles_that_count_read_right(n):
    """Every title with a ``_n`` form, for 2..16 tokens: the count in its place, the
    default sentence's length giving the plain title."""
    counted = [s for s in SECTIONS if s.title_ja_n or s.title_en_n]
    assert counted, "no title counts the tokens: the test would check nothing"
    for s in counted:
        assert s.title_ja_n and s.title_en_n, s.stem   # both languages or neither
        for lang in captions.LANGS:
            title = s.title(lang, n)
            if n == DEFAULT_TOKENS:
                assert title == s.title(lang)
            else:
                assert COUNTS[lang][n] in title and "{" not in title, (s.stem, lang, title)
    assert by_number(6).title("en", n) == (
        "One query, six numbers" if n == 6 else f"One query, {COUNTS['en'][n]} numbers")
    assert by_number(6).title("ja", n) == f"1 つのクエリ、{COUNTS['ja'][n]}の数"


@pytest.mark.parametrize("lang", captions.LANGS)
def test_counting_table_covers_every_sentence_length(lang):
    """Each sentence length the tool accepts reads from the table or its ``other`` rule, and
    the table holds words only (no ``{n}`` left unfilled in a listed count)."""
    table = captions.table(lang)["counting"]
    assert "{n}" in table["other"]
    for n in range(MIN_TOKENS, MAX_TOKENS + 1):
        assert "{" not in count_words(n, lang)


def test_language_name_is_written_in_that_language():
    assert captions.language_name("ja") == "日本語"
    assert captions.language_name("en") == "English"


def test_title_slide_names_the_language():
    from slides.deck import Deck

    for lang, name in (("ja", "日本語"), ("en", "English")):
        deck = Deck(title="t", sentence="s", lang=lang)
        assert deck.language == name
