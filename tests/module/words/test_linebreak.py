"""Line breaking of on-screen paragraphs (``words.linebreak.paragraph_lines``): Japanese
typesetting's kinsoku rules hold for any text, as they do for captions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from words.linebreak import paragraph_lines

# Written here, not imported (as in test_captions): JIS X 4051's line-start and line-end
# prohibited classes, and English closing punctuation.
NOT_AT_LINE_START = set("、。，．）」』】・：；？！ーっゃゅょ,.;:!?)”")
NOT_AT_LINE_END = set("（「『【(“")

_word = st.text(alphabet="漢字仮名語文行列あいうかきくアイウカキク0123456789", min_size=1, max_size=5)
_piece = st.tuples(
    st.sampled_from(["", "「", "（"]), _word,
    st.sampled_from(["", "」", "）", "、", "。", "ー", "っ"]), st.sampled_from(["", " "]),
).map(lambda t: t[0] + t[1] + (("」" if t[0] == "「" else "）") if t[0] else "") + t[2] + t[3])


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(_piece, min_size=2, max_size=14), width=st.integers(10, 40))
def test_no_line_starts_with_closing_punctuation(pieces, width):
    lines = paragraph_lines("".join(pieces), width)
    for line in lines[1:]:
        assert line[0] not in NOT_AT_LINE_START, lines
    for line in lines[:-1]:
        assert line[-1] not in NOT_AT_LINE_END, lines


def test_the_section_23_sentence():
    s = "GPT-2 の 1,024 トークンでは 1 ヘッドの行列が 2.0 MiB（fp16）。12 層 × 12 ヘッドで 288 MiB。"
    for width in range(12, 60):
        assert not any(line.startswith("。") for line in paragraph_lines(s, width)), width


def test_paragraphs_and_captions_share_the_rules():
    """One definition of kinsoku and of the clause ends Japanese breaks after: the caption
    module and the paragraph widget use :mod:`words.linebreak`'s, not copies."""
    from scenes.widgets import text
    from words import cues, linebreak

    assert text.paragraph_lines is linebreak.paragraph_lines
    assert cues.linebreak is linebreak
    assert set("。、！？") <= set(linebreak.WIDE_CLAUSE_ENDS)
    assert linebreak.CUE_BREAK_AFTER["ja"] == linebreak.WIDE_CLAUSE_ENDS


@pytest.mark.parametrize("mark", list("。、，；：！？"))
def test_paragraph_breaks_after_a_clause_end(mark):
    s = f"重みは行ごとに足して一{mark}負の数はない"
    assert paragraph_lines(s, 14)[0].endswith(mark)


@pytest.mark.parametrize("mark", list("。、，；：！？"))
def test_caption_breaks_after_a_clause_end(mark):
    from words.cues import lines_of

    s = f"注意の重みは行ごとに足して一になる{mark}負の数は一つもなく、どの重みも正だ"
    assert lines_of(s, "ja")[0].endswith(mark), lines_of(s, "ja")


@pytest.mark.parametrize("count", ["9 語", "30 個", "12 ヘッド", "6 層"])
def test_a_number_keeps_its_japanese_counter(count):
    from words import cues

    text = f"all-MiniLM-L6-v2 は英語で学習した。「猫」など {count}がラテン文字でなく、重みに意味がない。図は出さない。"
    number, counter = count.split()
    for cue in cues.cues_of(text, "ja"):
        for line, after in zip(cue.split("\n"), cue.split("\n")[1:]):
            assert not (line.rstrip().endswith(number) and after.startswith(counter)), cue
