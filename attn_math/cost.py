"""What attention costs: multiply-adds and bytes, for one head, a layer, a model.

The storyboard's bill (sections 8 and 23) is computed here from a few named
constants, never typed into a scene.
"""

from __future__ import annotations

from dataclasses import dataclass

from .fmt import round_half_away


@dataclass(frozen=True)
class Model:
    """The shape facts the bill needs."""

    name: str
    d_model: int
    n_layers: int
    n_heads: int
    context: int

    @property
    def d_head(self) -> int:
        return self.d_model // self.n_heads


GPT2_SMALL = Model("GPT-2 small", d_model=768, n_layers=12, n_heads=12, context=1024)

FP16_BYTES = 2
LONG_CONTEXT = 131_072  # 128 Ki tokens, the long-context point of section 23


def attention_macs(n: int, d: int) -> int:
    """Multiply-adds of one head's quadratic part: ``Q K^T`` and the mix, ``2 n^2 d``."""
    return 2 * n * n * d


def projection_macs(n: int, d_model: int) -> int:
    """Multiply-adds of the four projections (Q, K, V, output): ``4 n d^2``."""
    return 4 * n * d_model * d_model


def quadratic_overtakes_at(d_model: int) -> int:
    """Smallest n where ``2 n^2 d >= 4 n d^2``: ``n = 2 d``."""
    return 2 * d_model


def score_matrix_bytes(n: int, bytes_per: int = FP16_BYTES) -> int:
    """Bytes of one head's materialised ``n x n`` score matrix."""
    return n * n * bytes_per


def model_score_bytes(n: int, model: Model = GPT2_SMALL, bytes_per: int = FP16_BYTES) -> int:
    """Bytes of every head's score matrix in every layer."""
    return model.n_layers * model.n_heads * score_matrix_bytes(n, bytes_per)


def token_bytes(n: int, d_model: int = GPT2_SMALL.d_model, bytes_per: int = FP16_BYTES) -> int:
    """Bytes of the tokens themselves: ``n x d_model`` numbers."""
    return n * d_model * bytes_per


def dot_products(n: int) -> int:
    """Every query against every key: ``n^2``."""
    return n * n


def scores_kept(n: int, discarded: float) -> int:
    """Scores of an ``n x n`` matrix left after ``discarded`` are thrown away.

    ``discarded`` may be a count in motion (section 17 counts it up): it is taken as
    :func:`attn_math.fmt.fmt` prints it, rounded half away from zero, so the two counters
    on screen always add up to ``n^2``.
    """
    return dot_products(n) - int(round_half_away(discarded, 0))


def causal_counts(n: int) -> tuple[int, int, int]:
    """(discarded, kept, computed) scores under the causal mask."""
    discarded = n * (n - 1) // 2
    return discarded, scores_kept(n, discarded), dot_products(n)
