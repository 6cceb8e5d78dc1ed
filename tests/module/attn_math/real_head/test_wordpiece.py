"""BERT's uncased tokenisation (``attn_math.real_head.wordpiece``) against an oracle that does
not share its code: Hugging Face's ``tokenizers`` (Rust) reading the shipped ``tokenizer.json``.
"""

from __future__ import annotations

import functools
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_math.real_head.model import load_model, model_dir
from attn_math.real_head.wordpiece import CLS, SEP, pieces_of


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
