"""The forward pass of the shipped BERT encoder, with every layer's and head's attention.

Float64 throughout (the weights are float32): embeddings (word + position + token type 0)
then LayerNorm; per layer, multi-head self-attention (scores ``q·k / √32``, softmax over all
pieces: an encoder sees both directions, no causal mask), the output projection, residual and
LayerNorm, the feed-forward block with the exact (erf) GELU, residual and LayerNorm.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import sqrt

import numpy as np

from .model import Model, load_model
from .wordpiece import CLS, SEP, UNK

__all__ = ["Encoder", "encode", "layer_norm", "gelu"]


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    """LayerNorm over the last axis (biased variance, as BERT's)."""
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def gelu(x: np.ndarray) -> np.ndarray:
    """The exact GELU, ``x · Φ(x)``."""
    from scipy.special import erf  # on first use: every command imports this package (0.1 s)

    return 0.5 * x * (1.0 + erf(x / sqrt(2.0)))


@dataclass(frozen=True)
class Encoder:
    """One sentence through the encoder.

    Attributes
    ----------
    pieces
        The word pieces, ``[CLS]`` first and ``[SEP]`` last.
    attention
        ``(layers, heads, pieces, pieces)``: row ``i`` of head ``(l, h)`` is where piece ``i``
        looks; every row sums to 1.
    hidden
        ``(pieces, hidden)``: the last layer's output (sentence embeddings pool it).
    """

    pieces: list[str]
    attention: np.ndarray
    hidden: np.ndarray

    @property
    def unknown(self) -> int:
        """How many pieces the vocabulary could not cut (``[UNK]``)."""
        return self.pieces.count(UNK)


def _linear(w: dict, name: str, x: np.ndarray) -> np.ndarray:
    return x @ w[f"{name}.weight"].T + w[f"{name}.bias"]


def encode(pieces: list[str], model: Model | None = None) -> Encoder:
    """Run the encoder on ``pieces`` (without ``[CLS]``/``[SEP]``: they are added)."""
    m = model or load_model()
    w, cfg = m.weights, m.config
    seq = [CLS, *pieces, SEP]
    ids = np.array([m.vocab.get(p, m.vocab[UNK]) for p in seq])
    n, heads, width = len(seq), cfg.heads, cfg.head_width
    x = (w["embeddings.word_embeddings.weight"][ids].astype(np.float64)
         + w["embeddings.position_embeddings.weight"][:n] + w["embeddings.token_type_embeddings.weight"][0])
    x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], cfg.eps)
    maps = np.empty((cfg.layers, heads, n, n))
    for layer in range(cfg.layers):
        p = f"encoder.layer.{layer}"
        q, k, v = (_linear(w, f"{p}.attention.self.{name}", x).reshape(n, heads, width).transpose(1, 0, 2)
                   for name in ("query", "key", "value"))
        scores = q @ k.transpose(0, 2, 1) / sqrt(width)
        scores -= scores.max(axis=-1, keepdims=True)
        e = np.exp(scores)
        a = e / e.sum(axis=-1, keepdims=True)
        maps[layer] = a
        context = (a @ v).transpose(1, 0, 2).reshape(n, cfg.hidden)
        x = layer_norm(x + _linear(w, f"{p}.attention.output.dense", context),
                       w[f"{p}.attention.output.LayerNorm.weight"], w[f"{p}.attention.output.LayerNorm.bias"],
                       cfg.eps)
        inner = gelu(_linear(w, f"{p}.intermediate.dense", x))
        x = layer_norm(x + _linear(w, f"{p}.output.dense", inner),
                       w[f"{p}.output.LayerNorm.weight"], w[f"{p}.output.LayerNorm.bias"], cfg.eps)
    return Encoder(seq, maps, x)
