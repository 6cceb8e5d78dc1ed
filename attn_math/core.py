"""The arithmetic of one attention head, in the row-vector convention.

Every function is pure numpy and takes plain arrays: ``X`` is ``(n, d_model)``,
weight matrices ``(d_model, d)``, and ``q = x @ W_Q``. Scores are
``R = Q @ K.T`` (raw) and ``S = R / sqrt(d)`` (scaled).
"""

from __future__ import annotations

import numpy as np

# ---------------------------------------------------------------- projections


def project(X: np.ndarray, W: np.ndarray) -> np.ndarray:
    """Rows of ``X`` through ``W``: ``X @ W`` (queries, keys or values)."""
    return np.asarray(X, float) @ np.asarray(W, float)


def raw_scores(Q: np.ndarray, K: np.ndarray) -> np.ndarray:
    """``R[i, j] = q_i . k_j``: row i is query i against every key."""
    return np.asarray(Q, float) @ np.asarray(K, float).T


def scaled_scores(Q: np.ndarray, K: np.ndarray) -> np.ndarray:
    """``S = R / sqrt(d)`` with ``d`` the width of the queries."""
    Q = np.asarray(Q, float)
    return raw_scores(Q, K) / np.sqrt(Q.shape[-1])


def blended_projection(W_Q: np.ndarray, W_K: np.ndarray, t: float) -> np.ndarray:
    """``(1 - t) W_Q + t W_K``: the query map moved a fraction ``t`` of the way to the key map."""
    return (1.0 - t) * np.asarray(W_Q, float) + t * np.asarray(W_K, float)


def blended_queries(X: np.ndarray, W_Q: np.ndarray, W_K: np.ndarray, t: float) -> np.ndarray:
    """Queries through :func:`blended_projection`: at ``t = 1`` each query is its own key."""
    return project(X, blended_projection(W_Q, W_K, t))


# ---------------------------------------------------------------- softmax


def softmax(S: np.ndarray, axis: int = -1) -> np.ndarray:
    """Stable softmax: ``exp(s - max s)`` normalised along ``axis``.

    Subtracting the row maximum cancels in the ratio, so this is the same
    function as :func:`softmax_naive`, not an approximation; it only keeps
    ``exp`` from overflowing. Entries at ``-inf`` get weight exactly 0.
    """
    S = np.asarray(S, float)
    m = np.max(S, axis=axis, keepdims=True)
    # A row that is all -inf has no candidate; leave it to produce NaN loudly.
    e = np.exp(S - m)
    return e / np.sum(e, axis=axis, keepdims=True)


def softmax_naive(S: np.ndarray, axis: int = -1) -> np.ndarray:
    """Textbook softmax ``exp(s) / sum exp(s)``; overflows for large scores."""
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(np.asarray(S, float))
        return e / np.sum(e, axis=axis, keepdims=True)


def softmax_stages(scores: np.ndarray) -> np.ndarray:
    """The softmax of a score row in its three stages, ``(3, n)``: the scores, ``exp(s)``, and
    the weights ``exp(s) / sum exp(s)`` (section 11's staircase shows each as bars).

    The weights are :func:`softmax` of the row; ``exp`` is taken of the scores themselves
    (unshifted), since the middle stage shows exactly those numbers.
    """
    s = np.asarray(scores, float)
    return np.array([s, np.exp(s), softmax(s)])


def weight_gradient_factor(w: np.ndarray) -> np.ndarray:
    """``w (1 - w)``: how much gradient flows back through a softmax weight."""
    w = np.asarray(w, float)
    return w * (1.0 - w)


# ---------------------------------------------------------------- masks


def causal_mask(n: int) -> np.ndarray:
    """Boolean ``(n, n)``: True where ``j > i`` (the future, to be removed)."""
    return np.triu(np.ones((n, n), dtype=bool), k=1)


def mask_add_neg_inf(S: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The right way: ``masked_fill(mask, -inf)`` before softmax."""
    return np.where(mask, -np.inf, np.asarray(S, float))


def mask_multiply_zero(S: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The silent bug: multiply the scores by the 0/1 keep-matrix.

    Masked scores become 0, not -inf, and ``exp(0) = 1`` hands the future a
    share of every row. Kept here, computed for real, so section 19 can show it.
    """
    keep = (~np.asarray(mask, bool)).astype(float)
    return np.asarray(S, float) * keep


def causal_weights(S: np.ndarray) -> np.ndarray:
    """Softmax of ``S`` under the causal mask, applied the right way."""
    return softmax(mask_add_neg_inf(S, causal_mask(len(S))))


def buggy_causal_weights(S: np.ndarray) -> np.ndarray:
    """Softmax of ``S`` under the causal mask applied by multiplication (the bug)."""
    return softmax(mask_multiply_zero(S, causal_mask(len(S))))


# ---------------------------------------------------------------- mixing


def attend(X: np.ndarray, W_Q: np.ndarray, W_K: np.ndarray, W_V: np.ndarray,
           mask: np.ndarray | None = None) -> np.ndarray:
    """The forward pass of one head: ``softmax(Q K^T / sqrt(d) [masked]) V``.

    Parameters
    ----------
    X
        Inputs, one row per token, ``(n, d_model)``.
    W_Q, W_K, W_V
        Projections, ``(d_model, d)`` each (row-vector convention: ``q = x @ W_Q``).
    mask
        Optional boolean ``(n, n)``, True where a key is removed (e.g. :func:`causal_mask`);
        removed scores become ``-inf`` before the softmax (:func:`mask_add_neg_inf`).

    Returns
    -------
    numpy.ndarray
        The outputs, ``(n, d_v)``: row ``i`` is token ``i``'s weighted sum of the values.
    """
    return mix(attention_weights(X, W_Q, W_K, mask), project(X, W_V))


def attention_weights(X: np.ndarray, W_Q: np.ndarray, W_K: np.ndarray,
                      mask: np.ndarray | None = None) -> np.ndarray:
    """The weights :func:`attend` mixes the values with, ``(n, n)``; rows sum to 1."""
    S = scaled_scores(project(X, W_Q), project(X, W_K))
    if mask is not None:
        S = mask_add_neg_inf(S, mask)
    return softmax(S)



def mix(W: np.ndarray, V: np.ndarray) -> np.ndarray:
    """Outputs ``W @ V``: each row a weighted sum of the values."""
    return np.asarray(W, float) @ np.asarray(V, float)


def mixing_chain(w_row: np.ndarray, V: np.ndarray, order=None) -> np.ndarray:
    """Partial sums of ``w_j v_j`` added head to tail: ``(n + 1, d)``, from 0 to the output."""
    V = np.asarray(V, float)
    w_row = np.asarray(w_row, float)
    order = range(len(w_row)) if order is None else order
    pts = [np.zeros(V.shape[1])]
    for j in order:
        pts.append(pts[-1] + w_row[j] * V[j])
    return np.array(pts)


def row_with_score(S_row: np.ndarray, j: int, value: float) -> np.ndarray:
    """A copy of a score row with entry ``j`` set to ``value`` (a dragged score)."""
    s = np.array(S_row, float)
    s[j] = value
    return s


# ---------------------------------------------------------------- geometry


def best_key(K: np.ndarray, q: np.ndarray) -> int:
    """The key query ``q`` scores highest, ``argmax_j q . k_j`` (ties: the first)."""
    return int(np.argmax(raw_scores(np.atleast_2d(q), K)[0]))


def longest_shadow_key(K: np.ndarray, q: np.ndarray) -> int:
    """The key onto which ``q`` casts the longest signed shadow, ``argmax_j q . k_j / |k_j|``
    (ties: the first): the pick a score would make if key lengths did not count."""
    return int(np.argmax(raw_scores(np.atleast_2d(q), K)[0] / np.linalg.norm(K, axis=1)))



def shadow(q: np.ndarray, k: np.ndarray) -> dict:
    """The dot product as a shadow.

    Returns the foot of the perpendicular from ``q``'s tip onto the line of
    ``k``, the signed shadow length (``q . k / |k|``), the key length, and the
    score, which is their product.
    """
    q = np.asarray(q, float)
    k = np.asarray(k, float)
    klen = float(np.linalg.norm(k))
    u = k / klen
    length = float(q @ u)
    return {
        "foot": length * u,
        "shadow": length,
        "key_length": klen,
        "score": length * klen,
    }


def angle_deg(v: np.ndarray) -> float:
    """Direction of a 2-vector in degrees, in (-180, 180]."""
    return float(np.degrees(np.arctan2(v[1], v[0])))


def angle_between_deg(a: np.ndarray, b: np.ndarray) -> float:
    """Unsigned angle between two vectors, in degrees."""
    a = np.asarray(a, float)
    b = np.asarray(b, float)
    c = a @ b / (np.linalg.norm(a) * np.linalg.norm(b))
    return float(np.degrees(np.arccos(np.clip(c, -1.0, 1.0))))


def swept_angle_deg(points: np.ndarray) -> float:
    """Total angle (degrees) a vector turns along a path of its tips, unwrapped."""
    P = np.asarray(points, float)
    a = np.unwrap(np.arctan2(P[:, 1], P[:, 0]))
    return float(np.degrees(np.max(a) - np.min(a)))


def convex_hull(points: np.ndarray) -> np.ndarray:
    """Vertices of the 2-D convex hull, counter-clockwise (Andrew's monotone chain)."""
    P = sorted(map(tuple, np.asarray(points, float)))
    if len(P) <= 2:
        return np.array(P)

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple] = []
    upper: list[tuple] = []
    for p in P:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(P):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return np.array(lower[:-1] + upper[:-1])


def in_convex_hull(point: np.ndarray, points: np.ndarray, tol: float = 1e-9) -> bool:
    """Whether ``point`` lies in the convex hull of ``points`` (2-D).

    Inside means: on the inner side of every hull edge, or within ``tol`` of the
    hull's boundary. ``tol`` is a distance relative to the size of the point set (at
    least 1), so a point on an edge stays inside at any scale, and degenerate hulls
    (one point, a segment, a sliver) are handled by the same distance test.
    """
    P = np.asarray(points, float)
    H = convex_hull(P)
    p = np.asarray(point, float)
    tol = tol * max(1.0, float(np.ptp(P, axis=0).max()))
    if len(H) >= 3:
        inside = True
        for i in range(len(H)):
            a, b = H[i], H[(i + 1) % len(H)]
            if (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) < 0:
                inside = False
                break
        if inside:
            return True
    # Outside every edge's half-plane test (or no area): near the boundary is inside.
    edges = [(H[i], H[(i + 1) % len(H)]) for i in range(len(H))] if len(H) >= 2 else [(H[0], H[0])]
    for a, b in edges:
        ab = b - a
        den = float(ab @ ab)
        t = 0.0 if den == 0 else float(np.clip((p - a) @ ab / den, 0.0, 1.0))
        if np.linalg.norm(a + t * ab - p) <= tol:
            return True
    return False


# ---------------------------------------------------------------- width and scaling


def dot_product_spread(d: float) -> float:
    """Standard deviation of a d-wide dot product of unit-variance components: ``sqrt(d)``."""
    return float(np.sqrt(d))


def standardised(row: np.ndarray) -> np.ndarray:
    """A score row divided by its population standard deviation (spread 1)."""
    row = np.asarray(row, float)
    sd = row.std()
    # A flat row (every input the same, e.g. "it it") has no spread to rescale: keep it
    # flat (uniform weights at every width) instead of 0/0 = NaN. Equal scores can differ
    # in their last bits (the mean's rounding), so a spread at rounding level is none:
    # dividing by it would blow rounding noise up to a spread of 1.
    flat = sd <= 1e-12 * max(1.0, float(np.abs(row).max()))
    return np.zeros_like(row) if flat else row / sd


def top_weight_unscaled(z: np.ndarray, d: float) -> float:
    """Largest weight of ``softmax(sqrt(d) z)``: a d-wide row with no divisor."""
    return float(softmax(np.sqrt(d) * np.asarray(z, float)).max())


def top_weight_scaled(z: np.ndarray, d: float) -> float:
    """Largest weight with the divisor: ``softmax(sqrt(d) z / sqrt(d))``."""
    return float(softmax(np.sqrt(d) * np.asarray(z, float) / np.sqrt(d)).max())


def top_weight_over_d(z: np.ndarray, d: float) -> float:
    """Largest weight when dividing by ``d`` instead: spread ``1 / sqrt(d)``."""
    return float(softmax(np.sqrt(d) * np.asarray(z, float) / d).max())


def power_divisor(d: float, p: float) -> float:
    """``d ** p``: no divisor at ``p = 0``, ``sqrt(d)`` at ``1/2``, ``d`` at ``1`` (section 16)."""
    return float(d ** p)


def spread_divided(d: float, p: float) -> float:
    """Spread of a d-wide dot product after dividing by ``d ** p``: ``sqrt(d) / d ** p``
    (1 at every width for ``p = 1/2``; section 16's readout)."""
    return dot_product_spread(d) / power_divisor(d, p)


def weights_divided(z: np.ndarray, d: float, p: float) -> np.ndarray:
    """Weights of a d-wide row of spread-1 scores ``z`` divided by ``d ** p``:
    ``softmax(sqrt(d) z / d ** p)``."""
    return softmax(np.sqrt(d) * np.asarray(z, float) / power_divisor(d, p))


def lead_ratio(w: np.ndarray) -> float:
    """The largest weight of a row over the second largest (how decisive the row is)."""
    top2 = np.sort(np.asarray(w, float))[-2:]
    return float(top2[1] / top2[0])
