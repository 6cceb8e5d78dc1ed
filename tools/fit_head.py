"""Fit the default head to the storyboard's figures, then choose its gauge.

Run ``python tools/fit_head.py`` (needs scipy: ``pip install -e .[fit]``) to
regenerate ``assets/head.toml``; ``--check`` only verifies the stored head.

Step 1, fit: least squares over the inputs, W_Q and W_V (W_K fixed to the
identity: a gauge choice) against TARGETS, the figures SPEC.md quotes that the
head determines. The start is ``shared/reference/seed_head_solution.json`` if
present, else a fixed pseudo-random head.

Step 2, gauge: two freedoms change the picture but no figure (tests check it).
- an orthogonal A on W_Q and W_K turns every query and key together; we pick
  the rotation that puts the followed token's value a right angle away from
  the bisector of its query and key, so q, k and v point three clearly different ways;
- an invertible G moves only the inputs (``x -> x G``, ``W -> inv(G) W``). We
  choose it so that pushing the followed input straight up is, to within
  UP_TILT_DEG, the direction in which its query turns fastest, and a push of
  PUSH_UP_DISTANCE turns the query over 100 degrees with the largest ratio to
  the value's turn; the remaining free scale is set so the inputs fill the plane
  without any input lying on top of its own key.
  Why not exactly the fastest direction: the input is always perpendicular (in
  the drawn coordinates) to the direction that turns its query fastest, so
  "exactly up" would lay the followed input flat on the x axis, hidden by it.
  A tilt of UP_TILT_DEG lifts it off the axis at a cost of cos(tilt) (3%) in rate.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from attn_math import core  # noqa: E402
from attn_math.head import DEFAULT_HEAD_PATH, Head, load_head  # noqa: E402
from scenes.registry import story_of  # noqa: E402
from scenes.sections.s02_move_the_input.derived import PUSH_UP_DISTANCE  # noqa: E402
from scenes.sections.s21_inside_the_hull.derived import HULL_PULL_SCORE  # noqa: E402

UP_TILT_DEG = 14.0
TOKENS = ["the", "cat", "ate", "and", "it", "ran"]
FOLLOW = 4
THE, CAT, ATE, AND, IT, RAN = range(6)

# (name, value, tolerance) -- the figures of SPEC.md that pin the head down.
# Tolerances are half a unit of the displayed precision, tightened so that the
# fitted head rounds the right way with margin.
TARGETS = [
    ("F1 R[it,cat]", 1.72, 0.002),
    ("F2 R[it,it]", 1.14, 0.002),
    ("F3 S[cat,ate]", 0.51, 0.002),
    ("F4 S[ate,cat]", -0.32, 0.002),
    ("F5 S_mixed[cat,ate]", 1.16, 0.002),
    ("F6 R[cat,cat]", 3.02, 0.002),
    ("F7 R[ate,cat]", -0.45, 0.002),
    ("F8 stretch crossing", 4.35, 0.004),
    ("F9 S[it,cat]", 1.22, 0.004),  # F1 / sqrt(2): 1.72 pins it to 1.216..1.219
    ("F11 w[it,cat]", 0.30, 0.002),
    ("F12 w[it,the]", 0.11, 0.002),
    ("F15 top d=16", 0.991, 0.0002),
    ("F17 top d=1", 0.572, 0.0002),
    ("F20 wc[it,cat]", 0.34, 0.002),
    ("F21 bug leak", 0.092, 0.0002),
    ("F22 out[it] x", 0.82, 0.002),
    ("F22 out[it] y", 0.81, 0.002),
    ("F23 pulled x", 1.2136, 0.0004),
    ("F23 pulled y", 0.9346, 0.0004),
    ("F24 v[cat] x", 1.2151, 0.0002),
    ("F24 v[cat] y", 0.9351, 0.0002),
]


def figures_of(X, W_Q, W_K, W_V) -> np.ndarray:
    """The TARGETS' quantities for a head, in TARGETS' order."""
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    R = Q @ K.T
    S = R / np.sqrt(2)
    W = core.softmax(S)
    Wc = core.causal_weights(S)
    Wb = core.buggy_causal_weights(S)
    Sm = core.scaled_scores(core.blended_queries(X, W_Q, W_K, 1.0), K)
    z = core.standardised(S[ATE])
    pulled = core.mix(core.softmax(core.row_with_score(S[IT], CAT, HULL_PULL_SCORE)), V)
    O = W @ V
    return np.array([
        R[IT, CAT], R[IT, IT], S[CAT, ATE], S[ATE, CAT], Sm[CAT, ATE], R[CAT, CAT],
        R[ATE, CAT], R[IT, CAT] / R[IT, AND], S[IT, CAT], W[IT, CAT], W[IT, THE],
        core.top_weight_unscaled(z, 16), core.top_weight_unscaled(z, 1), Wc[IT, CAT],
        Wb[IT, RAN], O[IT, 0], O[IT, 1], pulled[0], pulled[1], V[CAT, 0], V[CAT, 1],
    ])


def unpack(p):
    return p[:12].reshape(6, 2), p[12:16].reshape(2, 2), np.eye(2), p[16:20].reshape(2, 2)


def fit(start: Head | None) -> Head:
    from scipy.optimize import least_squares

    target = np.array([t[1] for t in TARGETS])
    tol = np.array([t[2] for t in TARGETS])
    if start is not None:
        # Bring the start into the W_K = I gauge the fit works in.
        G = np.linalg.inv(start.W_K)
        start = start.regauged(np.linalg.inv(G))
        p0 = np.concatenate([start.embeddings.ravel(), start.W_Q.ravel(), start.W_V.ravel()])
    else:
        p0 = np.random.default_rng(7).normal(0.8, 0.5, 20)

    def residual(p):
        return (figures_of(*unpack(p)) - target) / tol

    r = least_squares(residual, p0, xtol=1e-15, ftol=1e-15, gtol=1e-15, max_nfev=20000)
    X, W_Q, W_K, W_V = unpack(r.x)
    return Head(TOKENS, X, W_Q, W_K, W_V, FOLLOW)


def rotation(deg: float) -> np.ndarray:
    t = np.radians(deg)
    return np.array([[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]])  # row-vector form


def choose_A(head: Head) -> np.ndarray:
    """Rotate queries and keys so the followed v sits 90 deg from the q/k bisector."""
    f = head.follow
    q, k, v = (head.embeddings[f] @ M for M in (head.W_Q, head.W_K, head.W_V))
    bis = core.angle_deg(q / np.linalg.norm(q) + k / np.linalg.norm(k))
    best = None
    for target in (core.angle_deg(v) + 90, core.angle_deg(v) - 90):
        turn = (target - bis + 180) % 360 - 180
        if best is None or abs(turn) < abs(best):
            best = turn
    return rotation(best)


def sweeps(head: Head, a: np.ndarray) -> tuple[float, float]:
    """(query, value) turn in degrees when the followed input moves by ``t a``, t in [0, L]."""
    x = head.embeddings[head.follow]
    P = x + np.outer(np.linspace(0, PUSH_UP_DISTANCE, 241), a)
    return core.swept_angle_deg(P @ head.W_Q), core.swept_angle_deg(P @ head.W_V)


def push_candidates(head: Head) -> list[tuple[float, np.ndarray]]:
    """Moves ``a`` (original coordinates per unit "up") that turn q 105-130 deg; with their ratio."""
    out = []
    for ang in np.arange(0, 360, 1.0):
        for r in np.linspace(0.2, 3.0, 29):
            a = r * np.array([np.cos(np.radians(ang)), np.sin(np.radians(ang))])
            qs, vs = sweeps(head, a)
            if 105 <= qs <= 130:
                out.append((qs / max(vs, 1e-6), a))
    out.sort(key=lambda t: -t[0])
    return out


def layout_penalty(head: Head) -> float:
    """How badly the inputs draw: off the plane, or on top of their own keys."""
    X, K = head.embeddings, head.embeddings @ head.W_K
    pen = 0.0
    path_top = X[head.follow] + np.array([0.0, PUSH_UP_DISTANCE])
    for p in list(X) + [path_top]:
        pen += max(0.0, abs(p[0]) - 3.4) ** 2 + max(0.0, abs(p[1]) - 2.4) ** 2
    for x, k in zip(X, K):
        ang = core.angle_between_deg(x, k)
        pen += max(0.0, 20.0 - ang) ** 2 / 100 + max(0.0, 0.6 - np.linalg.norm(x - k)) ** 2
    # Prefer inputs that use the plane: not all crowded near the origin.
    pen += max(0.0, 1.5 - np.abs(X).max()) ** 2
    # Section 2 draws q, k and v of the pushed input: keep their far ends on a screen too.
    for M in (head.W_Q, head.W_K, head.W_V):
        pen += max(0.0, float(np.linalg.norm(path_top @ M)) - 3.6) ** 2
    return pen


def choose_gauge(head: Head) -> Head:
    head = head.regauged(A=choose_A(head))
    f = head.follow
    q = head.embeddings[f] @ head.W_Q
    Jq = np.array([-q[1], q[0]])
    w = head.W_Q @ Jq  # c_q = inv(G) w: "up" is fastest for q iff its first component is 0
    b_dir = np.array([-w[1], w[0]]) / np.linalg.norm(w)
    w_hat = w / np.linalg.norm(w)
    best, best_pen = None, np.inf
    cands = push_candidates(head)
    top_ratio = cands[0][0]
    for ratio, a in cands:
        if ratio < 0.9 * top_ratio:  # keep the value's turn near its smallest
            break
        for beta in np.concatenate([np.linspace(-3, -0.2, 29), np.linspace(0.2, 3, 29)]):
            for tilt in (UP_TILT_DEG, -UP_TILT_DEG):
                # b . w / a . w = tan(tilt): "up" sits tilt degrees off the fastest direction.
                gamma = np.tan(np.radians(tilt)) * (a @ w) / np.linalg.norm(w)
                Ginv = np.array([beta * b_dir + gamma * w_hat, a])
                if abs(np.linalg.det(Ginv)) < 1e-6:
                    continue
                cand = head.regauged(G=np.linalg.inv(Ginv))
                pen = layout_penalty(cand) + 0.05 * (top_ratio - ratio)
                if pen < best_pen:
                    best, best_pen = cand, pen
    return best


def report(head: Head) -> None:
    s = story_of(head)
    got = figures_of(head.embeddings, head.W_Q, head.W_K, head.W_V)
    for (name, want, tol), g in zip(TARGETS, got):
        flag = "ok" if abs(g - want) <= tol else "OFF"
        print(f"{name:22s} target {want:8.4f}  head {g:9.5f}  {flag}")
    print("section 2: query turns", s.fig(2, "q_sweep_deg").text, "deg, value",
          s.fig(2, "v_sweep_deg").text, "deg")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only report on the stored head")
    ap.add_argument("--start", default=str(ROOT.parent / "shared/reference/seed_head_solution.json"))
    ap.add_argument("--out", default=str(DEFAULT_HEAD_PATH))
    args = ap.parse_args(argv)
    if args.check:
        report(load_head(args.out))
        return 0
    start = None
    if Path(args.start).exists():
        d = json.loads(Path(args.start).read_text())
        start = Head(d["tokens"], d["embeddings"], d["W_Q"], d["W_K"], d["W_V"], FOLLOW)
    head = choose_gauge(fit(start))
    report(head)
    head.save(args.out)
    print("wrote", args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
