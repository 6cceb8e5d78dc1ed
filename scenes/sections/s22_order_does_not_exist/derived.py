"""What only section 22 derives from the story: the head run again on shuffled inputs."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_math import core
from attn_math.story import Story

__all__ = ["Reorderings", "permuted_row", "reorderings"]


@dataclass(frozen=True)
class Reorderings:
    """The shuffles of the reading order and the followed token's row under each."""

    #: Two orders (one for two tokens): the reversal, then a fixed-seed draw.
    permutations: list[list[int]]
    #: ``(len(permutations), n)``: the followed token's weights, in the original token order.
    permuted_weights: np.ndarray
    #: ``(len(permutations), d)``: its output.
    permuted_outputs: np.ndarray


def _permutations(n: int) -> list[list[int]]:
    """Deterministic shuffles of the reading order: two, or one for n = 2.

    A fixed-seed PCG64 draw is the same on every machine; the reversal is always included
    because it is the easiest shuffle to see.
    """
    ident = list(range(n))
    perms = [ident[::-1]]
    rng = np.random.default_rng(20240 + n)
    for _ in range(100):
        if len(perms) == 2 or n == 2:
            break
        p = [int(i) for i in rng.permutation(n)]
        if p != ident and p not in perms:
            perms.append(p)
    return perms


def permuted_row(s: Story, p: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Run the head on the inputs read in order ``p``; return the followed token's weights
    (per token, in the original token order) and its output."""
    h = s.head
    p = list(p)
    Xp = s.X[p]
    Wp = core.attention_weights(Xp, h.W_Q, h.W_K)
    i = p.index(s.follow)
    w = np.empty(s.n)
    w[p] = Wp[i]            # slot k holds token p[k]
    return w, core.mix(Wp, core.project(Xp, h.W_V))[i]


def _reorderings(s: Story) -> Reorderings:
    perms = _permutations(s.n)
    rows = [permuted_row(s, p) for p in perms]
    return Reorderings(perms, np.array([w for w, _ in rows]), np.array([o for _, o in rows]))


def reorderings(s: Story) -> Reorderings:
    """The reorderings of ``s`` (computed once per story)."""
    return s.derived(_reorderings)
