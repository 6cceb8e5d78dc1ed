"""The story: which token plays which role in each section, and every figure shown.

Scenes and captions read from here and nowhere else. Roles are picked by the
rules below, for any sentence the head accepts, unless the head's ``roles``
table overrides them:

- **follow**: the token the video follows (the head's ``follow``: by default the
  last pronoun, else the last token).
- **winner**: the argmax of the followed token's raw-score row (ties: first).
- **asymmetric pair** ``(a, b)``: the pair ``i != j`` with the largest
  ``|S[i, j] - S[j, i]|``, ordered so that ``S[a, b] > S[b, a]``.
- **long key**: among function words (determiners, conjunctions) other than the
  followed token and the winner whose score in the followed row is positive, the
  one whose key needs the smallest stretch to overtake the winner; if there is
  none, the same rule over every other token with a positive score; if still none,
  the other token with the highest score (its stretch then never overtakes).
- **width row**: the first verb's row, else the row with the largest spread.
- **hull token**: the winner (its score is pulled up in section 21).
- **flattest row**: the row of ``S`` with the smallest ``max - min``.
- **bug row**: the followed row if it has a future, else the second-to-last row.

Every figure is a :class:`Figure`: the exact value and the text shown, formatted
once here (fixed decimals, round half away from zero, true minus sign).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from . import core, cost, lexicon, prose
from .fmt import fmt, fmt_bytes, fmt_int, fmt_ratio, fmt_sci, fmt_vec, round_half_away
from .head import Head

# Constants of the storyboard: choices of presentation, not of the head.
REAL_HEAD_WIDTH = 64          # a real head's width (GPT-2 small: 768 / 12)
FLOOR_SCORE = -30.0           # section 13 pushes a score down to here
HULL_PULL_SCORE = 8.0         # section 21's slider stops here
STRETCH_STEP = 0.1            # section 7's slider moves in tenths
STRETCH_MAX_DEFAULT = 6.0     # section 7's slider range, widened to fit a crossing
STRETCH_CAP = 20.0            # ... but never past this
WIDTHS = (1, 4, 16, 64, 256)  # sections 14 to 16: a log axis, each tick x4
SATURATION_WIDTHS = (16, 64)  # the widths section 15 quotes
MILLION_CONTEXT = 1000        # section 8: "a 1,000-token context needs a million"
PUSH_UP_DISTANCE = 2.0        # section 2: how far the input is pushed straight up


@dataclass(frozen=True)
class Figure:
    """A number as the video shows it: the exact value and its display text."""

    value: Any
    text: str

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> dict:
        v = self.value
        if isinstance(v, np.ndarray):
            v = v.tolist()
        elif isinstance(v, (np.floating, np.integer)):
            v = v.item()
        return {"value": v, "text": self.text}


def token_labels(tokens: list[str]) -> list[str]:
    """Labels that tell repeated words apart: ``the₁ ... the₂``."""
    sub = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
    counts = {t: tokens.count(t) for t in tokens}
    seen: dict[str, int] = {}
    out = []
    for t in tokens:
        if counts[t] > 1:
            seen[t] = seen.get(t, 0) + 1
            out.append(f"{t}{str(seen[t]).translate(sub)}")
        else:
            out.append(t)
    return out


class Story:
    """Everything the scenes show, computed from one :class:`Head`.

    Attributes are numpy arrays (``X, Q, K, V, R, S, W, Wc, O, Oc``), token
    indices for roles, and ``figures``: section number -> name -> :class:`Figure`.
    """

    def __init__(self, head: Head):
        self.head = head
        self.tokens = list(head.tokens)
        self.labels = token_labels(self.tokens)
        self.n = head.n
        self.d = head.d_head
        self.follow = head.follow
        self.X = head.embeddings
        self.Q = core.project(self.X, head.W_Q)
        self.K = core.project(self.X, head.W_K)
        self.V = core.project(self.X, head.W_V)
        self.R = core.raw_scores(self.Q, self.K)
        self.S = core.scaled_scores(self.Q, self.K)
        self.W = core.softmax(self.S)
        self.Wc = core.causal_weights(self.S)
        self.Wbug = core.buggy_causal_weights(self.S)
        self.O = core.mix(self.W, self.V)
        self.Oc = core.mix(self.Wc, self.V)
        self.divisor = float(np.sqrt(self.d))
        self.classes = [lexicon.word_class(t) for t in self.tokens]
        self._pick_roles(head.roles)
        self.figures: dict[int, dict[str, Figure]] = {}
        self._compute_figures()

    # ------------------------------------------------------------ roles

    def _pick_roles(self, overrides: dict) -> None:
        n, f = self.n, self.follow
        self.winner = int(overrides.get("winner", np.argmax(self.R[f])))
        if "asymmetric_pair" in overrides:
            a, b = overrides["asymmetric_pair"]
        else:
            A = np.abs(self.S - self.S.T)
            np.fill_diagonal(A, -1.0)
            a, b = np.unravel_index(int(np.argmax(A)), A.shape)
        if self.S[a, b] < self.S[b, a]:
            a, b = b, a
        self.asym = (int(a), int(b))
        self.long_key = int(overrides["long_key"]) if "long_key" in overrides else self._pick_long_key()
        if "width_row" in overrides:
            self.width_row = int(overrides["width_row"])
        else:
            verbs = [i for i, c in enumerate(self.classes) if c == lexicon.VERB]
            spread = self.S.max(axis=1) - self.S.min(axis=1)
            self.width_row = verbs[0] if verbs else int(np.argmax(spread))
        self.hull_token = int(overrides.get("hull_token", self.winner))
        self.flattest_row = int(np.argmin(self.S.max(axis=1) - self.S.min(axis=1)))
        self.bug_row = f if f < n - 1 else n - 2
        self.causal_winner = int(np.argmax(self.Wc[f]))

    def _pick_long_key(self) -> int:
        f, w = self.follow, self.winner
        row = self.R[f]
        others = [j for j in range(self.n) if j not in (f, w)] or [j for j in range(self.n) if j != w]
        for pool in ([j for j in others if self.classes[j] in (lexicon.DETERMINER, lexicon.CONJUNCTION)],
                     others):
            pos = [j for j in pool if row[j] > 0]
            if pos:
                return min(pos, key=lambda j: row[w] / row[j])
        return max(others, key=lambda j: row[j])

    # ------------------------------------------------------------ figures

    def _put(self, section: int, name: str, value, text: str) -> Figure:
        fig = Figure(value, text)
        self.figures.setdefault(section, {})[name] = fig
        return fig

    def _compute_figures(self) -> None:
        f, w, n = self.follow, self.winner, self.n
        a, b = self.asym
        put = self._put

        # 1. Three projections
        put(1, "n_tokens", n, str(n))
        put(1, "d_toy", self.d, str(self.d))
        put(1, "d_real", REAL_HEAD_WIDTH, str(REAL_HEAD_WIDTH))

        # 2. Move the input: push the followed input straight up.
        path = self.push_path()
        q_sweep = core.swept_angle_deg(path @ self.head.W_Q)
        v_sweep = core.swept_angle_deg(path @ self.head.W_V)
        put(2, "q_sweep_deg", q_sweep, fmt(q_sweep, 0))
        put(2, "v_sweep_deg", v_sweep, fmt(v_sweep, 0))
        put(2, "sweep_ratio", q_sweep / max(v_sweep, 1e-9), fmt(q_sweep / max(v_sweep, 1e-9), 0))

        # 3. Which key does each query pick?
        put(3, "R_follow_winner", self.R[f, w], fmt(self.R[f, w]))
        put(3, "R_follow_self", self.R[f, f], fmt(self.R[f, f]))
        shadows = self.R / np.linalg.norm(self.K, axis=1)[None, :]
        self.row_winners = [int(np.argmax(r)) for r in self.R]
        self.shadow_winners = [int(np.argmax(r)) for r in shadows]
        put(3, "rows_where_shadow_differs",
            [i for i in range(n) if self.row_winners[i] != self.shadow_winners[i]],
            str(sum(self.row_winners[i] != self.shadow_winners[i] for i in range(n))))

        # 4. Two maps: blend W_Q into W_K.
        put(4, "S_asym_fwd", self.S[a, b], fmt(self.S[a, b]))
        put(4, "S_asym_bwd", self.S[b, a], fmt(self.S[b, a]))
        S_mixed = self.blended_scores(1.0)
        put(4, "S_asym_blend", S_mixed[a, b], fmt(S_mixed[a, b]))

        # 5. The dot product is a shadow (the followed query against the winner's key).
        sh = core.shadow(self.Q[f], self.K[w])
        put(5, "shadow_len", sh["shadow"], fmt(sh["shadow"]))
        put(5, "key_len", sh["key_length"], fmt(sh["key_length"]))
        put(5, "shadow_score", sh["score"], fmt(sh["score"]))

        # 6. One query, six numbers.
        i, j = np.unravel_index(int(np.argmax(self.R)), self.R.shape)
        self.max_cell = (int(i), int(j))
        put(6, "R_max", self.R[i, j], fmt(self.R[i, j]))
        i, j = np.unravel_index(int(np.argmin(self.R)), self.R.shape)
        self.min_cell = (int(i), int(j))
        put(6, "R_min", self.R[i, j], fmt(self.R[i, j]))

        # 7. The long-key trap.
        lk = self.long_key
        base = self.R[f, lk]
        cross = self.R[f, w] / base if base > 0 else float("inf")
        # Past STRETCH_CAP the slider would be absurd: treat it as never overtaking.
        self.stretch_overtakes = bool(np.isfinite(cross) and 1 < cross <= STRETCH_CAP)
        self.stretch_max = STRETCH_MAX_DEFAULT
        if self.stretch_overtakes:
            self.stretch_max = max(STRETCH_MAX_DEFAULT, float(np.ceil(cross + 1.0)))
        put(7, "stretch_cross", cross, fmt(cross, 2) if self.stretch_overtakes else "∞")
        lo = (np.floor(cross / STRETCH_STEP) * STRETCH_STEP if self.stretch_overtakes
              else self.stretch_max)
        hi = lo + STRETCH_STEP
        put(7, "stretch_lo", lo, fmt(lo, 1))
        put(7, "stretch_hi", hi, fmt(hi, 1))
        put(7, "stretch_max", self.stretch_max, fmt(self.stretch_max, 1))
        put(7, "R_follow_long", base, fmt(base))
        end = self.stretch_max * base
        put(7, "R_follow_long_end", end, fmt(end))

        # 8. The square.
        put(8, "n_dots", n * n, fmt_int(n * n))
        put(8, "context_1000", MILLION_CONTEXT, fmt_int(MILLION_CONTEXT))
        put(8, "dots_1000", cost.dot_products(MILLION_CONTEXT), fmt_int(cost.dot_products(MILLION_CONTEXT)))
        cross_n = cost.quadratic_overtakes_at(cost.GPT2_SMALL.d_model)
        put(8, "proj_cross_tokens", cross_n, fmt_int(cross_n))
        put(8, "d_model", cost.GPT2_SMALL.d_model, fmt_int(cost.GPT2_SMALL.d_model))

        # 9. Reading rows.
        put(9, "S_follow_winner", self.S[f, w], fmt(self.S[f, w]))
        fr = self.flattest_row
        # The range is read off the row's displayed numbers, so "max − min" agrees with the
        # two values on screen (the exact range can round the other way).
        put(9, "flattest_range", self.S[fr].max() - self.S[fr].min(), fmt(self.shown_range(fr)))

        # 10. Fold on the diagonal: the asymmetric pair again.
        self.figures[10] = {k: self.figures[4][k] for k in ("S_asym_fwd", "S_asym_bwd")}

        # 11. The softmax staircase.
        wr = self.W[f]
        self.weak = int(np.argmin(wr))
        self.strong = int(np.argmax(wr))
        put(11, "w_follow_max", wr[self.strong], fmt(wr[self.strong]))
        put(11, "w_follow_min", wr[self.weak], fmt(wr[self.weak]))
        put(11, "w_ratio", wr[self.strong] / wr[self.weak], fmt(wr[self.strong] / wr[self.weak], 1))
        put(11, "w_sum", wr.sum(), fmt(wr.sum(), 2))

        # 12. One denominator.
        put(12, "w_sum", wr.sum(), fmt(wr.sum(), 3))

        # 13. Never zero.
        w_floor = core.softmax(core.row_with_score(self.S[f], w, FLOOR_SCORE))[w]
        put(13, "floor_score", FLOOR_SCORE, fmt(FLOOR_SCORE, 0))
        put(13, "w_floor", w_floor, fmt_sci(w_floor, 1))

        # 14. Spread grows as sqrt(d).
        put(14, "spread_real", core.dot_product_spread(REAL_HEAD_WIDTH),
            fmt(core.dot_product_spread(REAL_HEAD_WIDTH), 2))
        put(14, "d_real", REAL_HEAD_WIDTH, str(REAL_HEAD_WIDTH))
        put(14, "widths", list(WIDTHS), ", ".join(map(str, WIDTHS)))

        # 15. Saturation: the width row, standardised, at growing width, no divisor.
        z = self.width_z
        put(15, "top_d1", core.top_weight_unscaled(z, 1), fmt(core.top_weight_unscaled(z, 1), 3))
        for dd in SATURATION_WIDTHS:
            t = core.top_weight_unscaled(z, dd)
            put(15, f"top_d{dd}", t, fmt(t, 3))
        put(15, "width_lo", SATURATION_WIDTHS[0], str(SATURATION_WIDTHS[0]))
        put(15, "width_hi", SATURATION_WIDTHS[1], str(SATURATION_WIDTHS[1]))

        # 16. The divisor.
        tops = [core.top_weight_scaled(z, dd) for dd in range(1, WIDTHS[-1] + 1)]
        put(16, "top_scaled", tops[0], fmt(tops[0], 3))
        put(16, "top_scaled_spread", max(tops) - min(tops), fmt(max(tops) - min(tops), 3))
        put(16, "divisor_toy", self.divisor, fmt(self.divisor, 3))
        put(16, "divisor_real", core.dot_product_spread(REAL_HEAD_WIDTH),
            fmt(core.dot_product_spread(REAL_HEAD_WIDTH), 0))
        put(16, "d_max", WIDTHS[-1], str(WIDTHS[-1]))
        t_over_d = core.top_weight_over_d(z, WIDTHS[-1])
        put(16, "top_over_d_max", t_over_d, fmt(t_over_d, 3))
        put(16, "uniform", 1.0 / n, fmt(1.0 / n, 3))

        # 17. The causal mask.
        dis, kept, comp = cost.causal_counts(n)
        put(17, "discarded", dis, fmt_int(dis))
        put(17, "kept", kept, fmt_int(kept))
        put(17, "computed", comp, fmt_int(comp))

        # 18. Renormalise.
        cw = self.causal_winner
        put(18, "wc_first", self.Wc[0, 0], fmt(self.Wc[0, 0]))
        put(18, "wc_follow_winner", self.Wc[f, cw], fmt(self.Wc[f, cw]))
        put(18, "follow_candidates", f + 1, str(f + 1))

        # 19. The silent bug, computed by the wrong code path.
        br = self.bug_row
        self.bug_future = list(range(br + 1, n))
        leak = float(self.Wbug[br, br + 1:].sum())
        put(19, "bug_leak", leak, fmt(leak, 3))
        put(19, "bug_leak_correct", float(self.Wc[br, br + 1:].sum()),
            fmt(float(self.Wc[br, br + 1:].sum()), 3))

        # 20. The mixing chain.
        put(20, "out_follow", self.O[f], fmt_vec(self.O[f]))

        # 21. Inside the hull.
        h = self.hull_token
        pulled = core.softmax(core.row_with_score(self.S[f], h, HULL_PULL_SCORE))
        out_pulled = core.mix(pulled, self.V)
        put(21, "hull_score", HULL_PULL_SCORE, fmt(HULL_PULL_SCORE))
        put(21, "out_pulled", out_pulled, fmt_vec(out_pulled))
        put(21, "v_hull", self.V[h], fmt_vec(self.V[h]))
        put(21, "w_hull_pulled", pulled[h], fmt(pulled[h], 3))
        self.out_pulled = out_pulled
        # With some sentences the pulled output and the corner print alike at two
        # decimals; the caption then says so instead of "short of the corner".
        self.hull_gap_visible = fmt_vec(out_pulled) != fmt_vec(self.V[h])
        gap = float(np.linalg.norm(self.V[h] - out_pulled))
        put(21, "hull_gap", gap, fmt(gap, 3))

        # 22. Order does not exist.
        self.permutations = self._permutations()
        outs = []
        for p in self.permutations:
            Xp = self.X[p]
            Qp, Kp, Vp = (core.project(Xp, M) for M in (self.head.W_Q, self.head.W_K, self.head.W_V))
            Op = core.mix(core.softmax(core.scaled_scores(Qp, Kp)), Vp)
            outs.append(Op[list(p).index(f)])
        self.permuted_outputs = np.array(outs)
        put(22, "out_follow", self.O[f], fmt_vec(self.O[f]))
        put(22, "out_permuted", self.permuted_outputs, " ".join(fmt_vec(o) for o in outs))

        # 23. The bill.
        m = cost.GPT2_SMALL
        head_b = cost.score_matrix_bytes(m.context)
        model_b = cost.model_score_bytes(m.context)
        long_b = cost.score_matrix_bytes(cost.LONG_CONTEXT)
        tok_b = cost.token_bytes(cost.LONG_CONTEXT)
        put(23, "context", m.context, fmt_int(m.context))
        put(23, "head_bytes", head_b, fmt_bytes(head_b))
        put(23, "layers", m.n_layers, str(m.n_layers))
        put(23, "heads", m.n_heads, str(m.n_heads))
        put(23, "model_bytes", model_b, fmt_bytes(model_b, 0))
        put(23, "long_context", cost.LONG_CONTEXT, fmt_int(cost.LONG_CONTEXT))
        put(23, "long_bytes", long_b, fmt_bytes(long_b))
        put(23, "token_bytes", tok_b, fmt_bytes(tok_b))
        put(23, "bill_ratio", long_b / tok_b, fmt_ratio(long_b / tok_b))
        put(23, "d_model", m.d_model, fmt_int(m.d_model))

        # 24. Four lines: the small matrix beside the code is this sentence's.
        put(24, "n_tokens", n, str(n))

        # 25. The attention map.
        put(25, "wc_follow_winner", self.Wc[f, cw], fmt(self.Wc[f, cw]))
        put(25, "w_follow_cwinner", self.W[f, cw], fmt(self.W[f, cw]))

    # ------------------------------------------------------------ live quantities

    def push_path(self, steps: int = 121) -> np.ndarray:
        """Section 2's path: the followed input pushed straight up by ``PUSH_UP_DISTANCE``."""
        t = np.linspace(0.0, PUSH_UP_DISTANCE, steps)
        return self.X[self.follow] + np.outer(t, [0.0, 1.0])

    def blended_scores(self, t: float, scaled: bool = True) -> np.ndarray:
        """Scores with W_Q blended a fraction ``t`` of the way into W_K."""
        Qt = core.blended_queries(self.X, self.head.W_Q, self.head.W_K, t)
        return core.scaled_scores(Qt, self.K) if scaled else core.raw_scores(Qt, self.K)

    def shown_range(self, row: int, decimals: int = 2) -> float:
        """``max - min`` of a scaled-score row as read off its displayed (rounded) numbers."""
        hi, lo = (float(round_half_away(x, decimals)) for x in (self.S[row].max(), self.S[row].min()))
        return hi - lo

    @cached_property
    def width_z(self) -> np.ndarray:
        """The width row, standardised to spread 1 (sections 15 and 16)."""
        return core.standardised(self.S[self.width_row])

    def _permutations(self) -> list[list[int]]:
        """Deterministic shuffles of the reading order (section 22): two, or one for n = 2.

        A fixed-seed PCG64 draw is the same on every machine; the reversal is
        always included because it is the easiest shuffle to see.
        """
        n = self.n
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

    # ------------------------------------------------------------ access

    def fig(self, section: int, name: str) -> Figure:
        return self.figures[section][name]

    def label(self, i: int) -> str:
        return self.labels[i]

    def causal_tied(self) -> list[int]:
        """The followed row's causal candidates whose weight prints like the largest."""
        f, top = self.follow, fmt(self.Wc[self.follow, self.causal_winner])
        return [j for j in range(f + 1) if fmt(self.Wc[f, j]) == top]

    # Figures a section's captions quote from another section (captions are scoped per
    # section: a name means the figure of the section that says it, never a namesake).
    CAPTION_BORROWS = {
        7: {3: ("R_follow_winner",)},
        15: {14: ("d_real",), 16: ("divisor_real",)},
        16: {1: ("d_toy",), 14: ("d_real",)},
        21: {20: ("out_follow",)},
        25: {19: ("bug_leak",)},
    }

    def caption_context(self, section: int, lang: str | None = None) -> dict[str, str]:
        """Placeholder values for a section's captions: every role and the section's own
        figures (plus those it borrows, ``CAPTION_BORROWS``).

        With ``lang``, token names come set off as names (“it” / 「it」), token lists
        and prose numbers follow the language (:mod:`attn_math.prose`); without it, the
        bare labels (for checks on the roles).
        """
        if lang is None:
            name = lambda i: self.labels[i]                                    # noqa: E731
            names = lambda idx: ", ".join(self.labels[j] for j in idx)       # noqa: E731
        else:
            name = lambda i: prose.token_name(self.labels[i], lang)           # noqa: E731
            names = lambda idx: prose.token_list([self.labels[j] for j in idx], lang)  # noqa: E731
        ctx = {
            "follow": name(self.follow),
            "winner": name(self.winner),
            "asym_a": name(self.asym[0]),
            "asym_b": name(self.asym[1]),
            "long_key": name(self.long_key),
            "width_row": name(self.width_row),
            "hull_token": name(self.hull_token),
            "flattest": name(self.flattest_row),
            "first": name(0),
            "last": name(self.n - 1),
            "max_row": name(self.max_cell[0]),
            "max_col": name(self.max_cell[1]),
            "min_row": name(self.min_cell[0]),
            "min_col": name(self.min_cell[1]),
            "strong": name(self.strong),
            "weak": name(self.weak),
            "causal_winner": name(self.causal_winner),
            "bug_row": name(self.bug_row),
            "bug_future": names(self.bug_future),
            "n_future": str(len(self.bug_future)),
            "causal_tied": names(self.causal_tied()),
            "sentence": " ".join(self.tokens),
            "n": str(self.n),
        }
        for sec, keys in self.CAPTION_BORROWS.get(section, {}).items():
            for k in keys:
                ctx[k] = self.figures[sec][k].text
        for k, v in self.figures.get(section, {}).items():
            ctx[k] = v.text
        if lang == "ja":
            # Japanese prose writes 100万 and 171 倍 (the caption adds 倍), not 1,000,000 / 171x
            for sec, k in ((8, "dots_1000"),):
                if sec == section:
                    ctx[k] = prose.compact_number(self.figures[sec][k].value, lang)
        if lang is not None and section == 23:
            ctx["bill_ratio"] = ctx["bill_ratio"].rstrip("x")   # prose says 171 倍 / 171 times
        return ctx

    def roles_json(self) -> dict:
        lab = self.labels
        return {
            "follow": {"index": self.follow, "token": lab[self.follow]},
            "winner": {"index": self.winner, "token": lab[self.winner]},
            "asymmetric_pair": {"index": list(self.asym), "token": [lab[i] for i in self.asym]},
            "long_key": {"index": self.long_key, "token": lab[self.long_key]},
            "width_row": {"index": self.width_row, "token": lab[self.width_row]},
            "hull_token": {"index": self.hull_token, "token": lab[self.hull_token]},
            "flattest_row": {"index": self.flattest_row, "token": lab[self.flattest_row]},
            "bug_row": {"index": self.bug_row, "token": lab[self.bug_row]},
            "causal_winner": {"index": self.causal_winner, "token": lab[self.causal_winner]},
            "max_cell": {"index": list(self.max_cell), "token": [lab[i] for i in self.max_cell]},
            "min_cell": {"index": list(self.min_cell), "token": [lab[i] for i in self.min_cell]},
            "row_winners": self.row_winners,
            "permutations": self.permutations,
        }

    def to_json(self) -> dict:
        """The head, everything it implies, and the story, as plain JSON values."""
        h = self.head
        return {
            "tokens": self.tokens,
            "labels": self.labels,
            "follow": self.follow,
            "d_head": self.d,
            "embeddings": self.X.tolist(),
            "W_Q": h.W_Q.tolist(),
            "W_K": h.W_K.tolist(),
            "W_V": h.W_V.tolist(),
            "queries": self.Q.tolist(),
            "keys": self.K.tolist(),
            "values": self.V.tolist(),
            "raw_scores": self.R.tolist(),
            "scaled_scores": self.S.tolist(),
            "weights": self.W.tolist(),
            "causal_weights": self.Wc.tolist(),
            "outputs": self.O.tolist(),
            "causal_outputs": self.Oc.tolist(),
            "story": {
                "roles": self.roles_json(),
                "sections": {f"{s:02d}": {k: v.to_json() for k, v in figs.items()}
                             for s, figs in sorted(self.figures.items())},
            },
        }

