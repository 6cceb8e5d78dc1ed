"""A second forward pass of the shipped BERT, written apart from ``attn_math.real_head``: the
oracle of its attention.

It shares only the weight file with the code under test, read here with the ``safetensors``
layout parsed again, and computes every head one query row at a time, in float32 as the
model was trained, with LayerNorm from ``np.std`` and GELU from ``math.erf``; agreement with
the float64 vectorised pass to 1e-5 checks both the arithmetic and the wiring (which weight
is the query, the key's transpose, the head split, the residuals).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

_ERF = np.vectorize(math.erf)


def weights(folder: Path) -> dict[str, np.ndarray]:
    raw = (folder / "model.safetensors").read_bytes()
    n = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8:8 + n].decode("utf-8"))
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if info["dtype"] != "F32":      # position_ids (I64): not a weight
            continue
        a, b = info["data_offsets"]
        out[name] = np.frombuffer(raw[8 + n + a:8 + n + b], dtype="<f4").reshape(info["shape"])
    return out


def attention(ids: list[int], folder: Path) -> np.ndarray:
    """``(layers, heads, pieces, pieces)`` for the token ids ``ids`` ([CLS] ... [SEP])."""
    w = weights(folder)
    cfg = json.loads((folder / "config.json").read_text())
    H, D = cfg["num_attention_heads"], cfg["hidden_size"]
    d = D // H
    eps = np.float32(cfg["layer_norm_eps"])

    def norm(x, g, b):
        mu = x.mean(axis=1, keepdims=True)
        sd = np.sqrt(np.var(x, axis=1, keepdims=True) + eps)
        return ((x - mu) / sd) * g + b

    def dense(x, name):
        return np.einsum("td,od->to", x, w[name + ".weight"]) + w[name + ".bias"]

    T = len(ids)
    x = np.stack([w["embeddings.word_embeddings.weight"][i] + w["embeddings.position_embeddings.weight"][t]
                  + w["embeddings.token_type_embeddings.weight"][0] for t, i in enumerate(ids)])
    x = norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
    maps = []
    for layer in range(cfg["num_hidden_layers"]):
        pre = f"encoder.layer.{layer}."
        q = dense(x, pre + "attention.self.query")
        k = dense(x, pre + "attention.self.key")
        v = dense(x, pre + "attention.self.value")
        ctx = np.zeros((T, D), np.float32)
        heads = []
        for h in range(H):
            cols = slice(h * d, (h + 1) * d)
            a = np.zeros((T, T))
            for i in range(T):
                s = np.array([float(np.dot(q[i, cols], k[j, cols])) for j in range(T)]) / math.sqrt(d)
                e = np.exp(s - s.max())
                a[i] = e / e.sum()
                ctx[i, cols] = a[i] @ v[:, cols]
            heads.append(a)
        maps.append(heads)
        x = norm(x + dense(ctx, pre + "attention.output.dense"),
                 w[pre + "attention.output.LayerNorm.weight"], w[pre + "attention.output.LayerNorm.bias"])
        inner = dense(x, pre + "intermediate.dense")
        inner = 0.5 * inner * (1.0 + _ERF(inner / math.sqrt(2.0)).astype(np.float32))
        x = norm(x + dense(inner, pre + "output.dense"),
                 w[pre + "output.LayerNorm.weight"], w[pre + "output.LayerNorm.bias"])
    return np.array(maps)
