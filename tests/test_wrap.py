"""Line breaking of on-screen paragraphs (``scenes.widgets.text.wrap_lines``): Japanese
typesetting's kinsoku rules hold for any text, as they do for captions."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scenes.widgets.text import wrap_lines

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
    lines = wrap_lines("".join(pieces), width)
    for line in lines[1:]:
        assert line[0] not in NOT_AT_LINE_START, lines
    for line in lines[:-1]:
        assert line[-1] not in NOT_AT_LINE_END, lines


def test_the_section_23_sentence():
    s = "GPT-2 の 1,024 トークンでは 1 ヘッドの行列が 2.0 MiB（fp16）。12 層 × 12 ヘッドで 288 MiB。"
    for width in range(12, 60):
        assert not any(line.startswith("。") for line in wrap_lines(s, width)), width
