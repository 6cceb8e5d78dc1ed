"""The encoder's attention gathered to the sentence's words, and what the story reads off it.

As BertViz aggregates word pieces: a word's row is the mean of its pieces' rows (where the
word looks, on average over its pieces) and its column the sum of its pieces' columns (all
the weight the word's pieces receive), so every word row still sums to 1. ``[CLS]`` and
``[SEP]`` stay as tokens of their own: heads park much of their weight on them, and the video
says so rather than hiding it.

Whether the model can read the sentence at all (:attr:`WordAttention.readable`): every word
is Latin script (after accents are stripped) and every piece is in the vocabulary (no
``[UNK]``). An emoji, a Japanese sentence or a word of unknown characters fails the rule; the
section then shows a card saying why instead of a grid of meaningless weights.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .encoder import Encoder, encode
from .model import MODEL_NAME, Model, load_model
from .wordpiece import CLS, SEP, UNK, pieces_of

__all__ = ["WordAttention", "word_attention", "latin"]


def latin(word: str) -> bool:
    """Every letter of ``word`` is a Latin letter once accents are stripped (digits and
    punctuation allowed)."""
    base = "".join(c for c in unicodedata.normalize("NFD", word) if unicodedata.category(c) != "Mn")
    return all(c.isascii() for c in base if c.isalpha())


@dataclass(frozen=True)
class WordAttention:
    """The followed word's attention in every head of the encoder, at the level of words.

    Attributes
    ----------
    tokens
        ``["[CLS]", word, ..., "[SEP]"]``: the story's tokens between the special ones.
    pieces
        Each token's word pieces (``[CLS]`` and ``[SEP]`` their own).
    follow
        The followed word's index in :attr:`tokens` (the story's followed token + 1).
    attention
        ``(layers, heads, tokens, tokens)``: word rows (mean of pieces' rows) by word columns
        (sum of pieces' columns).
    """

    tokens: list[str]
    pieces: list[list[str]]
    follow: int
    attention: np.ndarray
    model: str = MODEL_NAME

    @property
    def rows(self) -> np.ndarray:
        """``(layers, heads, tokens)``: the followed word's row in every head."""
        return self.attention[:, :, self.follow, :]

    @property
    def readable(self) -> bool:
        """The model can read the sentence: Latin script, no ``[UNK]`` piece."""
        words = self.tokens[1:-1]
        return all(latin(w) for w in words) and not any(UNK in p for p in self.pieces[1:-1])

    @property
    def split_words(self) -> list[int]:
        """Indices (in :attr:`tokens`) of the words cut into more than one piece."""
        return [i for i, p in enumerate(self.pieces) if len(p) > 1]

    def top_word(self) -> np.ndarray:
        """``(layers, heads)``: the token each head's followed row gives the most weight."""
        return np.argmax(self.rows, axis=-1)

    def special_weight(self) -> np.ndarray:
        """``(layers, heads)``: the followed row's weight on ``[CLS]`` and ``[SEP]`` together."""
        return self.rows[:, :, 0] + self.rows[:, :, -1]

    def best_head_for(self, token: int) -> tuple[int, int]:
        """``(layer, head)``, 0-based, whose followed row gives ``token`` the most weight
        (the first in layer-then-head order on a tie)."""
        flat = int(np.argmax(self.rows[:, :, token]))
        return divmod(flat, self.rows.shape[1])

    def other_words(self) -> list[int]:
        """The tokens that are neither the followed word nor ``[CLS]``/``[SEP]``."""
        return [j for j in range(1, len(self.tokens) - 1) if j != self.follow]

    def strongest_other(self) -> tuple[int, int, int] | None:
        """``(layer, head, token)`` of the largest weight the followed row gives another word
        (not itself, not ``[CLS]``/``[SEP]``); None for a sentence of one word."""
        others = self.other_words()
        if not others:
            return None
        sub = self.rows[:, :, others]
        layer, head, k = np.unravel_index(int(np.argmax(sub)), sub.shape)
        return int(layer), int(head), others[int(k)]

    def to_json(self) -> dict:
        """``{"model", "tokens", "follow", "attention"}``: the followed word's row in every
        head, layers and heads from 0 (``render.py heads --json``)."""
        return {"model": self.model, "tokens": list(self.tokens), "follow": self.follow,
                "attention": self.rows.tolist()}


def _gather(maps: np.ndarray, spans: Sequence[range]) -> np.ndarray:
    """Piece-level maps ``(..., P, P)`` to word level ``(..., W, W)``."""
    cols = np.stack([maps[..., list(s)].sum(axis=-1) for s in spans], axis=-1)
    return np.stack([cols[..., list(s), :].mean(axis=-2) for s in spans], axis=-2)


def word_attention(words: Sequence[str], follow: int, model: Model | None = None) -> WordAttention:
    """The encoder's attention for the sentence ``words`` (the story's tokens), gathered to
    words, following ``words[follow]``."""
    m = model or load_model()
    pieces = [pieces_of(w, m.vocab) or [UNK] for w in words]
    enc: Encoder = encode([p for ps in pieces for p in ps], m)
    spans, start = [range(0, 1)], 1
    for ps in pieces:
        spans.append(range(start, start + len(ps)))
        start += len(ps)
    spans.append(range(start, start + 1))
    return WordAttention([CLS, *words, SEP], [[CLS], *pieces, [SEP]], follow + 1, _gather(enc.attention, spans))
