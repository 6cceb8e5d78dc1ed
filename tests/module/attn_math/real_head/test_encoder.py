"""The forward pass of all-MiniLM-L6-v2 read with numpy (``attn_math.real_head.encoder``),
against oracles that do not share its code.

- The published reference: sentence-transformers' model card gives the cosine similarities of
  the mean-pooled, normalised embeddings of three sentences as 0.6660, 0.1046 and 0.1411.
- The attention: a second forward pass written apart (``tests/support/bert_loop.py``: float32,
  one query row at a time), to 1e-5, through ``render.py heads --json`` as a user runs it.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_math.real_head.encoder import encode
from attn_math.real_head.model import load_model, model_dir
from attn_math.real_head.wordpiece import CLS, SEP, pieces_of
from tests.support.bert_loop import attention as loop_attention


@pytest.fixture(scope="module")
def model():
    return load_model()


def _embedding(text: str, model) -> np.ndarray:
    enc = encode(pieces_of(text, model.vocab), model)
    v = enc.hidden.mean(axis=0)          # mean pooling over every piece ([CLS]/[SEP] included)
    return v / np.linalg.norm(v)


def test_the_model_cards_similarities(model):
    a, b, c = (_embedding(s, model) for s in
               ("The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."))
    assert (round(float(a @ b), 4), round(float(a @ c), 4), round(float(b @ c), 4)) == (0.6660, 0.1046, 0.1411)


def _word_attention(words: list[str], follow: int) -> np.ndarray:
    """The independent pass's attention of word ``follow`` to every word (with [CLS] and
    [SEP]), per layer and head: a word's pieces summed as keys, averaged as queries."""
    m = load_model()
    pieces = [pieces_of(w, m.vocab) for w in words]
    ids = [m.vocab[CLS], *(m.vocab[p] for ps in pieces for p in ps), m.vocab[SEP]]
    maps = loop_attention(ids, model_dir())
    spans, start = [[0]], 1
    for ps in pieces:
        spans.append(list(range(start, start + len(ps))))
        start += len(ps)
    spans.append([start])
    return np.array([[[maps[layer, h][spans[follow]][:, span].sum(axis=1).mean() for span in spans]
                      for h in range(12)] for layer in range(6)])


@pytest.mark.parametrize("sentence, follow", [
    ("the cat ate and it ran", None),
    ("the dog chased the cat because it was hungry", "it"),
    ("antidisestablish bored them", "0"),
])
def test_heads_json_is_the_independent_forward_pass(sentence, follow):
    from cli.group import cli

    args = ["heads", "--json", "--sentence", sentence] + (["--follow", follow] if follow else [])
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == {"model", "tokens", "follow", "attention"}
    assert data["model"] == "sentence-transformers/all-MiniLM-L6-v2"
    words = sentence.split()
    assert data["tokens"] == [CLS, *words, SEP]
    want = _word_attention(words, data["follow"])
    assert np.abs(np.array(data["attention"]) - want).max() < 1e-5


#: Words of English sentences: common ones, and some the vocabulary cuts into many pieces.
ENGLISH = ("the a cat dog ate ran it and because was hungry she saw them over lazy river tokenization "
           "disestablishment unbelievably naïve café moon 1984 don't").split()


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(st.lists(st.sampled_from(ENGLISH), min_size=2, max_size=12), st.data())
def test_heads_json_agrees_with_the_independent_pass_for_any_sentence(words, data):
    from cli.group import cli

    follow = data.draw(st.integers(0, len(words) - 1))
    result = CliRunner().invoke(cli, ["heads", "--json", "--sentence", " ".join(words), "--follow", str(follow)])
    assert result.exit_code == 0, result.output
    got = json.loads(result.output)
    want = _word_attention(words, got["follow"])
    assert np.abs(np.array(got["attention"]) - want).max() < 1e-5
