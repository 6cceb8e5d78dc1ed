"""The real model's attention gathered to the sentence's words (``attn_math.real_head.words``):
rows stay distributions and a word's column is its pieces' columns added up (checked on the
encoder's piece-level attention), what the story reads off the 72 heads, and which sentences
the model is said not to read.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_math.real_head import word_attention
from attn_math.real_head.encoder import encode
from attn_math.real_head.wordpiece import CLS, SEP, UNK

WORDS = ["the", "cat", "ate", "and", "it", "ran", "dog", "chased", "because", "was", "hungry", "she",
         "gave", "him", "book", "unbelievable", "naïve", "café", "it's", "x-ray", "42", "antidisestablishment"]


@settings(max_examples=15, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=2, max_size=12), st.data())
def test_every_row_sums_to_one_and_gathering_to_words_keeps_it(words, data):
    follow = data.draw(st.integers(0, len(words) - 1))
    att = word_attention(words, follow)
    assert att.attention.shape == (6, 12, len(words) + 2, len(words) + 2)
    assert np.allclose(att.attention.sum(axis=-1), 1.0, atol=1e-12)
    assert (att.attention >= 0).all()
    assert att.tokens == [CLS, *words, SEP] and att.follow == follow + 1
    # a word's column holds all its pieces receive: the pieces' columns add up to it
    enc = encode([p for ps in att.pieces[1:-1] for p in ps])
    spans, start = [], 1
    for ps in att.pieces[1:-1]:
        spans.append(range(start, start + len(ps)))
        start += len(ps)
    row = enc.attention[:, :, list(spans[follow]), :].mean(axis=2)
    for j, span in enumerate(spans):
        assert np.allclose(att.rows[:, :, j + 1], row[:, :, list(span)].sum(axis=-1))


def test_what_the_story_reads_off_the_heads():
    att = word_attention("the cat ate and it ran".split(), 4)
    rows = att.rows
    top = att.top_word()
    assert all(rows[layer, h, top[layer, h]] == rows[layer, h].max() for layer in range(6) for h in range(12))
    layer, h = att.best_head_for(2)
    assert rows[layer, h, 2] == rows[:, :, 2].max()
    # "it" -> "cat" in layer 6, head 5 (from 1): the figure the storyboard quotes
    assert round(float(rows[5, 4, 2]), 2) == 0.49
    other = att.strongest_other()
    assert other is not None and other[2] not in (0, att.follow, len(att.tokens) - 1)
    assert rows[other[0], other[1], other[2]] == max(rows[:, :, j].max() for j in att.other_words())
    assert np.allclose(att.special_weight(), rows[:, :, 0] + rows[:, :, -1])


@pytest.mark.parametrize("words, readable", [
    ("the cat ate and it ran".split(), True),
    ("naïve café owners smiled".split(), True),
    ("猫 が 魚 を 食べた".split(), False),       # not Latin script
    ("🦊 jumped over it".split(), False),         # a piece outside the vocabulary
])
def test_a_sentence_the_model_cannot_read_is_said_so(words, readable):
    att = word_attention(words, len(words) - 1)
    assert att.readable is readable
    assert (UNK in [p for ps in att.pieces for p in ps]) or readable or any(ord(c) > 0x3000 for c in "".join(words))
