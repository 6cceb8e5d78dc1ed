"""attn_math.core.attend, the forward pass, against an independent implementation; and the
mixing chain section 20 draws (section 21's and 22's results are checked with their sections,
in ``tests/module/scenes/sections/``).

The reference below is written out with Python floats and ``math.exp``, one loop per formula
of the paper (no numpy, no shared helper), so a mistake in ``core`` cannot hide in it.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from attn_math import core
from scenes.registry import story_of
from tests.support.strategies import SETTINGS, heads


def reference_attention(X, W_Q, W_K, W_V, mask=None):
    """``softmax(Q K^T / sqrt(d)) V`` row by row, masked keys dropped from the sum."""
    X, W_Q, W_K, W_V = (np.asarray(a, float).tolist() for a in (X, W_Q, W_K, W_V))
    n, d_in = len(X), len(X[0])

    def through(x, W):
        return [sum(x[k] * W[k][c] for k in range(d_in)) for c in range(len(W[0]))]

    Q = [through(x, W_Q) for x in X]
    K = [through(x, W_K) for x in X]
    V = [through(x, W_V) for x in X]
    d = len(Q[0])
    out = []
    for i in range(n):
        keep = [j for j in range(n) if mask is None or not mask[i][j]]
        s = {j: sum(a * b for a, b in zip(Q[i], K[j], strict=True)) / math.sqrt(d) for j in keep}
        top = max(s.values())
        e = {j: math.exp(s[j] - top) for j in keep}
        total = sum(e.values())
        out.append([sum(e[j] / total * V[j][c] for j in keep) for c in range(len(V[0]))])
    return np.array(out)


def matrices_of(h):
    return h.embeddings, h.W_Q, h.W_K, h.W_V


@SETTINGS
@given(heads())
def test_attend_matches_the_reference(h):
    np.testing.assert_allclose(core.attend(*matrices_of(h)), reference_attention(*matrices_of(h)),
                               rtol=1e-9, atol=1e-12)


@SETTINGS
@given(heads())
def test_causal_attend_matches_the_reference(h):
    mask = core.causal_mask(h.n)
    np.testing.assert_allclose(core.attend(*matrices_of(h), mask=mask),
                               reference_attention(*matrices_of(h), mask=mask.tolist()),
                               rtol=1e-9, atol=1e-12)


@SETTINGS
@given(heads(), st.data())
def test_attend_is_permutation_equivariant(h, data):
    """Shuffling the inputs shuffles the outputs the same way and changes nothing else."""
    p = data.draw(st.permutations(range(h.n)))
    X, W_Q, W_K, W_V = matrices_of(h)
    np.testing.assert_allclose(core.attend(X[p], W_Q, W_K, W_V), core.attend(X, W_Q, W_K, W_V)[p],
                               rtol=1e-9, atol=1e-12)


@SETTINGS
@given(heads(min_n=3), st.data())
def test_causal_row_ignores_the_future(h, data):
    """With the causal mask, moving a later input leaves every earlier output where it was."""
    X, W_Q, W_K, W_V = matrices_of(h)
    i = data.draw(st.integers(min_value=0, max_value=h.n - 2))
    moved = X.copy()
    moved[i + 1:] = moved[i + 1:][::-1] * 1.7 + 0.3
    mask = core.causal_mask(h.n)
    before = core.attend(X, W_Q, W_K, W_V, mask=mask)
    after = core.attend(moved, W_Q, W_K, W_V, mask=mask)
    np.testing.assert_allclose(before[: i + 1], after[: i + 1], rtol=1e-12, atol=1e-15)


@SETTINGS
@given(heads())
def test_attention_weights_rows_are_distributions(h):
    for mask in (None, core.causal_mask(h.n)):
        w = core.attention_weights(h.embeddings, h.W_Q, h.W_K, mask)
        assert (w >= 0).all()
        np.testing.assert_allclose(w.sum(axis=1), 1.0, rtol=1e-12)
        if mask is not None:
            assert (w[mask] == 0).all()


@SETTINGS
@given(heads())
def test_story_outputs_are_the_forward_pass(h):
    s = story_of(h)
    np.testing.assert_allclose(s.O, reference_attention(*matrices_of(h)), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(s.Oc, reference_attention(*matrices_of(h),
                                                         mask=core.causal_mask(h.n).tolist()),
                               rtol=1e-9, atol=1e-12)


# ---------------------------------------------------------------- the divisor d ** p (sections 15, 16)

spread_one_rows = st.lists(st.floats(min_value=-3, max_value=3), min_size=2, max_size=12).map(
    lambda r: core.standardised(r))
widths = st.floats(min_value=1.0, max_value=256.0)


@SETTINGS
@given(spread_one_rows, widths)
def test_weights_divided_at_the_three_divisors(z, d):
    """p = 0, 1/2, 1 are the no-divisor, the √d and the d curves of sections 15 and 16."""
    np.testing.assert_allclose(core.weights_divided(z, d, 0.0).max(), core.top_weight_unscaled(z, d))
    np.testing.assert_allclose(core.weights_divided(z, d, 0.5).max(), core.top_weight_scaled(z, d))
    np.testing.assert_allclose(core.weights_divided(z, d, 1.0).max(), core.top_weight_over_d(z, d))
    np.testing.assert_allclose(core.power_divisor(d, 0.5), math.sqrt(d))
    # With the √d divisor the width does not matter at all.
    np.testing.assert_allclose(core.weights_divided(z, d, 0.5), core.softmax(z), rtol=1e-9)


@SETTINGS
@given(spread_one_rows, widths)
def test_lead_ratio_is_the_gap_raised_to_root_d(z, d):
    """Section 15: with no divisor the leader's lead over the runner-up is exp(√d · gap)."""
    top2 = sorted(float(x) for x in z)[-2:]
    expected = math.exp(math.sqrt(d) * (top2[1] - top2[0]))
    ratio = core.lead_ratio(core.weights_divided(z, d, 0.0))
    assert ratio >= 1.0
    np.testing.assert_allclose(ratio, expected, rtol=1e-9)


# ---------------------------------------------------------------- what section 20 shows


@SETTINGS
@given(heads(), st.data())
def test_section20_chain_ends_on_the_output(h, data):
    """The mixing chain, added in any order, ends on the followed token's output."""
    s = story_of(h)
    order = data.draw(st.permutations(range(s.n)))
    chain = core.mixing_chain(s.W[s.follow], s.V, order)
    np.testing.assert_allclose(chain[0], 0.0)
    np.testing.assert_allclose(chain[-1], s.O[s.follow], rtol=1e-9, atol=1e-12)
