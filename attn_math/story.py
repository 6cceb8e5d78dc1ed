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

A story is built in three steps: the roles (``_pick_roles``, every token index a
section singles out), the derived quantities (``_derive``: slider ranges, the head
re-run on shuffled inputs, the pulled row of section 21), then the figures, one
small function per section (``figures_NN``, listed in :data:`SECTION_FIGURES`),
which read the story and assign nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from typing import Any, NamedTuple

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
BYTE_TICKS = (1024, 1024 ** 2, 1024 ** 3)  # section 23's bytes axis: 1 KiB, 1 MiB, 1 GiB


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
        self.Wc_sums = self.Wc.sum(axis=1)
        self.O = core.attend(self.X, head.W_Q, head.W_K, head.W_V)
        self.Oc = core.attend(self.X, head.W_Q, head.W_K, head.W_V, mask=core.causal_mask(self.n))
        self.divisor = float(np.sqrt(self.d))
        self.classes = [lexicon.word_class(t) for t in self.tokens]
        self._pick_roles(head.roles)
        self._derive()
        self.figures: dict[int, dict[str, Figure]] = {
            section: figures(self) for section, figures in SECTION_FIGURES.items()}

    # ------------------------------------------------------------ roles

    def _pick_roles(self, overrides: dict) -> None:
        """Every role (a token index, or indices), by the rules of the module docstring."""
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
        self.bug_future = list(range(self.bug_row + 1, n))
        self.causal_winner = int(np.argmax(self.Wc[f]))
        # Section 3: each query's pick by score and by shadow length.
        self.row_winners = [core.best_key(self.K, q) for q in self.Q]
        self.shadow_winners = [core.longest_shadow_key(self.K, q) for q in self.Q]
        # Section 6: the largest and the smallest raw score.
        i, j = np.unravel_index(int(np.argmax(self.R)), self.R.shape)
        self.max_cell = (int(i), int(j))
        i, j = np.unravel_index(int(np.argmin(self.R)), self.R.shape)
        self.min_cell = (int(i), int(j))
        # Section 11: the strongest and the weakest weight of the followed row.
        self.weak = int(np.argmin(self.W[f]))
        self.strong = int(np.argmax(self.W[f]))
        # Section 22: the shuffles of the reading order.
        self.permutations = self._permutations()

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

    # ------------------------------------------------------------ derived quantities

    def _derive(self) -> None:
        """Quantities that scenes use beyond the head's arrays (slider ranges, results of
        re-running the head), computed once, from the roles."""
        f = self.follow
        # Section 7: the stretch at which the long key overtakes the winner.
        base = self.R[f, self.long_key]
        self.stretch_cross = self.R[f, self.winner] / base if base > 0 else float("inf")
        # Past STRETCH_CAP the slider would be absurd: treat it as never overtaking.
        self.stretch_overtakes = bool(np.isfinite(self.stretch_cross)
                                      and 1 < self.stretch_cross <= STRETCH_CAP)
        self.stretch_max = STRETCH_MAX_DEFAULT
        if self.stretch_overtakes:
            self.stretch_max = max(STRETCH_MAX_DEFAULT, float(np.ceil(self.stretch_cross + 1.0)))
        # Section 7's rerun over every row: the rows whose leader (section 3's pick, first of
        # a tie) becomes the long key once it is stretched all the way.
        stretched = self.K.copy()
        stretched[self.long_key] *= self.stretch_max
        self.rows_taken = [i for i in range(self.n)
                           if core.best_key(stretched, self.Q[i]) == self.long_key != self.row_winners[i]]
        # Section 13: the weight readout is laid out for its widest text, a two-digit
        # mantissa at the exponent the weight reaches at the floor.
        w_floor = self.dragged_weights(FLOOR_SCORE)[self.winner]
        self.w_floor_widest = 9.9 * 10.0 ** int(np.floor(np.log10(w_floor))) if w_floor > 0 else 9.9
        # Section 21: the followed row with the hull token's score pulled to the slider's end.
        self.out_pulled = core.mix(self.pulled_weights(HULL_PULL_SCORE), self.V)
        # With some sentences the pulled output and the corner print alike at two
        # decimals; the caption then says so instead of "short of the corner".
        self.hull_gap_visible = fmt_vec(self.out_pulled) != fmt_vec(self.V[self.hull_token])
        # Section 22: the head run again on the inputs in each shuffled order.
        weights, outs = [], []
        for p in self.permutations:
            w, o = self.permuted_row(p)
            weights.append(w)
            outs.append(o)
        self.permuted_weights = np.array(weights)
        self.permuted_outputs = np.array(outs)
        # Sections 11, 12, 18, 19 show parts beside their total: decimals at which the parts
        # as shown add up to the total as shown (a viewer adds them), where some exist; else
        # the total's readout notes that the parts are rounded (parts_add_up).
        self.sum_places = {sec: sum_decimals(self.summed_rows(sec), *SUM_PLACES[sec])
                           for sec in SUM_PLACES}

    def permuted_row(self, p: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """Run the head on the inputs read in order ``p``; return the followed token's weights
        (per token, in the original token order) and its output."""
        h = self.head
        p = list(p)
        Xp = self.X[p]
        Wp = core.attention_weights(Xp, h.W_Q, h.W_K)
        i = p.index(self.follow)
        w = np.empty(self.n)
        w[p] = Wp[i]            # slot k holds token p[k]
        return w, core.mix(Wp, core.project(Xp, h.W_V))[i]

    def pulled_weights(self, score: float) -> np.ndarray:
        """The followed row's weights with the hull token's score set to ``score`` (section 21)."""
        return core.softmax(core.row_with_score(self.S[self.follow], self.hull_token, score))

    def dragged_scores(self, score: float, shift: float = 0.0) -> np.ndarray:
        """The followed row's scaled scores with the winner's score dragged to ``score``
        (the row sections 12 and 13 drag), every score less ``shift`` (section 13 shifts the
        row to show the softmax does not change)."""
        return core.row_with_score(self.S[self.follow], self.winner, score) - shift

    def dragged_weights(self, score: float) -> np.ndarray:
        """The weights of :meth:`dragged_scores` (``score = -inf`` gives the winner exactly 0)."""
        return core.softmax(self.dragged_scores(score))

    def dragged_weight_sum(self, score: float) -> float:
        """The sum of :meth:`dragged_weights` (section 12's ``Σ w`` readout: 1 at any score)."""
        return float(self.dragged_weights(score).sum())

    @cached_property
    def staircase(self) -> np.ndarray:
        """Section 11's three stages of the followed row, ``(3, n)``: scaled scores, their
        ``exp``, the weights (:func:`attn_math.core.softmax_stages`)."""
        return core.softmax_stages(self.S[self.follow])

    @cached_property
    def staircase_sums(self) -> np.ndarray:
        """The sum of each of :attr:`staircase`'s stages (section 11's ``Σ`` readout)."""
        return self.staircase.sum(axis=1)

    # ------------------------------------------------------------ live quantities

    def push_path(self, steps: int = 121) -> np.ndarray:
        """Section 2's path: the followed input pushed straight up by ``PUSH_UP_DISTANCE``."""
        t = np.linspace(0.0, PUSH_UP_DISTANCE, steps)
        return self.X[self.follow] + np.outer(t, [0.0, 1.0])

    def blended_W_Q(self, t: float) -> np.ndarray:
        """W_Q blended a fraction ``t`` of the way into W_K (section 4's matrix chip)."""
        return core.blended_projection(self.head.W_Q, self.head.W_K, t)

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

    def tied_at(self, decimals: int) -> list[int]:
        """The followed row's causal candidates whose weight prints like the largest at
        ``decimals``."""
        f = self.follow
        top = fmt(self.Wc[f, self.causal_winner], decimals)
        return [j for j in range(f + 1) if fmt(self.Wc[f, j], decimals) == top]

    def causal_tied(self) -> list[int]:
        """The followed row's causal candidates whose weight prints like the largest in
        section 18 (section 19 may show the same row to more decimals and tell them apart:
        a tie is a claim about what section 18's screen shows)."""
        return self.tied_at(self.sum_places[18].parts)

    def summed_rows(self, section: int) -> list[np.ndarray]:
        """The rows of parts ``section`` shows beside their total on a beat's settled frame
        (live numbers while a row moves are not read; the totals are the rows' sums).

        Section 11: the ``exp`` stage and the weights under the ``Σ`` readout; 12: the
        followed row under ``Σ w`` (the drag ends where it began); 18: the causal rows the
        walk settles on (the first position, the last, the followed token); 19: the future's
        weights under × 0 beside their sum, the leak (under + (−∞) they are exact zeros).
        """
        f, br = self.follow, self.bug_row
        if section == 11:
            return [self.staircase[1], self.staircase[2]]
        if section == 12:
            return [self.W[f]]
        if section == 18:
            return [self.Wc[i, :i + 1] for i in sorted({0, self.n - 1, f})]
        if section == 19:
            return [self.Wbug[br, br + 1:]]
        raise ValueError(f"section {section} shows no total beside its parts")

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


# ---------------------------------------------------------------- figures, one function a section
#
# Each returns the section's figures in the order the section shows them: name -> Figure.
# They read the story's arrays, roles and derived quantities, and assign nothing.


def _figs(*items: tuple[str, Any, str]) -> dict[str, Figure]:
    return {name: Figure(value, text) for name, value, text in items}


def figures_01(s: Story) -> dict[str, Figure]:
    """Three projections."""
    x = s.X[s.follow]
    return _figs(("n_tokens", s.n, str(s.n)), ("d_toy", s.d, str(s.d)),
                 ("d_real", REAL_HEAD_WIDTH, str(REAL_HEAD_WIDTH)),
                 # The followed token's input, under its chip.
                 ("x_follow", x, fmt_vec(x)))


def figures_02(s: Story) -> dict[str, Figure]:
    """Move the input: push the followed input straight up."""
    path = s.push_path()
    q_sweep = core.swept_angle_deg(path @ s.head.W_Q)
    v_sweep = core.swept_angle_deg(path @ s.head.W_V)
    ratio = q_sweep / max(v_sweep, 1e-9)
    return _figs(("q_sweep_deg", q_sweep, fmt(q_sweep, 0)),
                 ("v_sweep_deg", v_sweep, fmt(v_sweep, 0)),
                 ("sweep_ratio", ratio, fmt(ratio, 0)))


def figures_03(s: Story) -> dict[str, Figure]:
    """Which key does each query pick?"""
    f, w = s.follow, s.winner
    differ = [i for i in range(s.n) if s.row_winners[i] != s.shadow_winners[i]]
    return _figs(("R_follow_winner", s.R[f, w], fmt(s.R[f, w])),
                 ("R_follow_self", s.R[f, f], fmt(s.R[f, f])),
                 ("rows_where_shadow_differs", differ, str(len(differ))))


def figures_04(s: Story) -> dict[str, Figure]:
    """Two maps: blend W_Q into W_K."""
    a, b = s.asym
    S_mixed = s.blended_scores(1.0)
    return _figs(("S_asym_fwd", s.S[a, b], fmt(s.S[a, b])),
                 ("S_asym_bwd", s.S[b, a], fmt(s.S[b, a])),
                 ("S_asym_blend", S_mixed[a, b], fmt(S_mixed[a, b])))


def figures_05(s: Story) -> dict[str, Figure]:
    """The dot product is a shadow (the followed query against the winner's key)."""
    sh = core.shadow(s.Q[s.follow], s.K[s.winner])
    return _figs(("shadow_len", sh["shadow"], fmt(sh["shadow"])),
                 ("key_len", sh["key_length"], fmt(sh["key_length"])),
                 ("shadow_score", sh["score"], fmt(sh["score"])))


def figures_06(s: Story) -> dict[str, Figure]:
    """One query, six numbers: the extreme cells."""
    hi, lo = s.R[s.max_cell], s.R[s.min_cell]
    return _figs(("R_max", hi, fmt(hi)), ("R_min", lo, fmt(lo)))


def figures_07(s: Story) -> dict[str, Figure]:
    """The long-key trap."""
    cross = s.stretch_cross
    lo = (np.floor(cross / STRETCH_STEP) * STRETCH_STEP if s.stretch_overtakes
          else s.stretch_max)
    hi = lo + STRETCH_STEP
    base = s.R[s.follow, s.long_key]
    end = s.stretch_max * base
    return _figs(("stretch_cross", cross, fmt(cross, 2) if s.stretch_overtakes else "∞"),
                 ("stretch_lo", lo, fmt(lo, 1)),
                 ("stretch_hi", hi, fmt(hi, 1)),
                 ("stretch_max", s.stretch_max, fmt(s.stretch_max, 1)),
                 ("R_follow_long", base, fmt(base)),
                 ("R_follow_long_end", end, fmt(end)),
                 ("rows_taken", s.rows_taken, str(len(s.rows_taken))))


def figures_08(s: Story) -> dict[str, Figure]:
    """The square."""
    dots = cost.dot_products(MILLION_CONTEXT)
    cross_n = cost.quadratic_overtakes_at(cost.GPT2_SMALL.d_model)
    return _figs(("n_dots", s.n * s.n, fmt_int(s.n * s.n)),
                 ("context_1000", MILLION_CONTEXT, fmt_int(MILLION_CONTEXT)),
                 ("dots_1000", dots, fmt_int(dots)),
                 ("proj_cross_tokens", cross_n, fmt_int(cross_n)),
                 ("d_model", cost.GPT2_SMALL.d_model, fmt_int(cost.GPT2_SMALL.d_model)))


def figures_09(s: Story) -> dict[str, Figure]:
    """Reading rows."""
    f, w, fr = s.follow, s.winner, s.flattest_row
    # The range is read off the row's displayed numbers, so "max − min" agrees with the
    # two values on screen (the exact range can round the other way).
    return _figs(("S_follow_winner", s.S[f, w], fmt(s.S[f, w])),
                 ("flattest_range", s.S[fr].max() - s.S[fr].min(), fmt(s.shown_range(fr))))


def figures_10(s: Story) -> dict[str, Figure]:
    """Fold on the diagonal: the asymmetric pair again."""
    four = figures_04(s)
    return {k: four[k] for k in ("S_asym_fwd", "S_asym_bwd")}


def figures_11(s: Story) -> dict[str, Figure]:
    """The softmax staircase."""
    wr = s.W[s.follow]
    hi, lo = wr[s.strong], wr[s.weak]
    bars, total = s.sum_places[11]
    d = ratio_decimals(hi, lo, places=bars)
    return _figs(("w_follow_max", hi, fmt(hi, d)), ("w_follow_min", lo, fmt(lo, d)),
                 ("w_ratio", hi / lo, fmt(hi / lo, 1)), ("w_sum", wr.sum(), fmt(wr.sum(), total)))


#: The most decimals :func:`ratio_decimals` gives two weights.
MAX_RATIO_DECIMALS = 4


def ratio_decimals(hi: float, lo: float, ratio_places: int = 1, places: int = 2) -> int:
    """Decimals for two weights shown beside their ratio ``hi / lo`` (itself shown with
    ``ratio_places`` decimals).

    ``places`` (two) decimals, unless dividing the two numbers as shown gives another ratio
    than the true one: "0.13 / 0.04 ≈ 2.9" is false arithmetic on screen (0.13 / 0.04 = 3.25)
    though both weights are rounded right, so small weights get decimals until the shown
    quotient agrees ("0.125 / 0.043 ≈ 2.9").
    """
    want = fmt(hi / lo, ratio_places)
    for d in range(places, MAX_RATIO_DECIMALS + 1):
        shown_lo = float(fmt(lo, d))
        if shown_lo and fmt(float(fmt(hi, d)) / shown_lo, ratio_places) == want:
            return d
    return MAX_RATIO_DECIMALS


class SumPlaces(NamedTuple):
    """Decimals of parts shown beside their total, and of the total."""

    parts: int
    total: int


#: Section -> the decimals its parts and its total are shown with unless they disagree
#: (section 19's weights are small, section 12's ``Σ w`` says 1 to three places).
SUM_PLACES = {11: SumPlaces(2, 2), 12: SumPlaces(2, 3), 18: SumPlaces(2, 2), 19: SumPlaces(3, 3)}


def parts_add_up(parts: np.ndarray, places: int, total_places: int,
                 total: float | None = None) -> bool:
    """Whether ``parts`` shown at ``places`` decimals add up, digit for digit, to their total
    shown at ``total_places`` ("0.040 + 0.040" beside "Σ = 0.079" does not).

    ``total`` is the value the total's readout shows (default: the sum of ``parts``); a live
    readout passes its own, so the answer is about the numbers on screen. Where they do not
    add up, sections 11, 12 and 18 say so over the total
    (:class:`scenes.widgets.readouts.TotalReadout`: "parts rounded").
    """
    shown = sum((round_half_away(float(p), places) for p in parts), Decimal(0))
    total = float(np.sum(parts)) if total is None else float(total)
    return shown == round_half_away(total, total_places)


def sum_decimals(rows: list[np.ndarray], places: int = 2,
                 total_places: int | None = None) -> SumPlaces:
    """Decimals for a total shown beside its parts (every row of ``rows`` one row of parts,
    all shown alike) at which the parts as shown add up to the total as shown, in every row.

    Each number is rounded right, yet the rounded parts need not add up to the rounded
    total: two weights of 0.03954 show 0.040 and 0.040 under "Σ = 0.079". The parts keep
    ``places`` (the precision the storyboard gives them); the total takes ``total_places``
    (default ``places``) or the first fewer decimals, down to one, at which the parts add up
    to it (a sum of parts rounded to a place is known to fewer places than each part:
    "Σ = 0.08"). If none agrees, ``(places, total_places)``: adding decimals to every part
    would crowd the bars and leave the storyboard's precision (many weights that sum to
    exactly 1 need five or more), and rounding the parts to add up (largest remainder) would
    show some of them wrong, so every number keeps its nearest rounding and the total's
    readout says the parts are rounded wherever they do not add up (:func:`parts_add_up`).
    """
    total_places = places if total_places is None else total_places
    for t in range(total_places, 0, -1):
        if all(parts_add_up(row, places, t) for row in rows):
            return SumPlaces(places, t)
    return SumPlaces(places, total_places)


def figures_12(s: Story) -> dict[str, Figure]:
    """One denominator."""
    wr = s.W[s.follow]
    return _figs(("w_sum", wr.sum(), fmt(wr.sum(), s.sum_places[12].total)))


def figures_13(s: Story) -> dict[str, Figure]:
    """Never zero: the winner's score lowered to the floor, then to −∞."""
    w = s.winner
    w_floor = s.dragged_weights(FLOOR_SCORE)[w]
    w_inf = s.dragged_weights(-np.inf)[w]
    return _figs(("floor_score", FLOOR_SCORE, fmt(FLOOR_SCORE, 0)),
                 ("w_floor", w_floor, fmt_sci(w_floor, 1)),
                 ("w_minus_inf", w_inf, "0" if w_inf == 0 else fmt_sci(w_inf, 1)))


def figures_14(s: Story) -> dict[str, Figure]:
    """Spread grows as sqrt(d)."""
    spread = core.dot_product_spread(REAL_HEAD_WIDTH)
    out = _figs(("spread_real", spread, fmt(spread, 2)),
                ("d_real", REAL_HEAD_WIDTH, str(REAL_HEAD_WIDTH)),
                ("widths", list(WIDTHS), ", ".join(map(str, WIDTHS))))
    # The width axis' step between ticks (the log axis is evenly spaced: each tick x4).
    step = WIDTHS[1] // WIDTHS[0]
    out["width_step"] = Figure(step, str(step))
    # The spread axis' tick labels, one at each width's spread (whole numbers: 1, 2, 4, ...).
    for i, w in enumerate(WIDTHS):
        v = core.dot_product_spread(w)
        out[f"spread_tick_{i}"] = Figure(v, fmt(v, 0))
    return out


def figures_15(s: Story) -> dict[str, Figure]:
    """Saturation: the width row, standardised, at growing width, no divisor."""
    z = s.width_z
    out = {"top_d1": Figure(core.top_weight_unscaled(z, 1), fmt(core.top_weight_unscaled(z, 1), 3))}
    for dd in SATURATION_WIDTHS:
        t = core.top_weight_unscaled(z, dd)
        out[f"top_d{dd}"] = Figure(t, fmt(t, 3))
    ratio = core.lead_ratio(core.weights_divided(z, WIDTHS[0], 0.0))
    out.update(_figs(("width_lo", SATURATION_WIDTHS[0], str(SATURATION_WIDTHS[0])),
                     ("width_hi", SATURATION_WIDTHS[1], str(SATURATION_WIDTHS[1])),
                     # The leader's lead over the runner-up at the narrowest width, raised
                     # to the power sqrt(d) as the width grows.
                     ("lead_ratio_d1", ratio, fmt(ratio, 2))))
    return out


def figures_16(s: Story) -> dict[str, Figure]:
    """The divisor."""
    z = s.width_z
    tops = [core.top_weight_scaled(z, dd) for dd in range(1, WIDTHS[-1] + 1)]
    real = core.dot_product_spread(REAL_HEAD_WIDTH)
    t_over_d = core.top_weight_over_d(z, WIDTHS[-1])
    return _figs(("top_scaled", tops[0], fmt(tops[0], 3)),
                 ("top_scaled_spread", max(tops) - min(tops), fmt(max(tops) - min(tops), 3)),
                 ("divisor_toy", s.divisor, fmt(s.divisor, 3)),
                 ("divisor_real", real, fmt(real, 0)),
                 ("d_max", WIDTHS[-1], str(WIDTHS[-1])),
                 ("top_over_d_max", t_over_d, fmt(t_over_d, 3)),
                 ("uniform", 1.0 / s.n, fmt(1.0 / s.n, 3)))


def figures_17(s: Story) -> dict[str, Figure]:
    """The causal mask."""
    dis, kept, comp = cost.causal_counts(s.n)
    return _figs(("discarded", dis, fmt_int(dis)), ("kept", kept, fmt_int(kept)),
                 ("computed", comp, fmt_int(comp)))


def figures_18(s: Story) -> dict[str, Figure]:
    """Renormalise."""
    f, cw = s.follow, s.causal_winner
    d = s.sum_places[18].parts        # the bars' decimals
    return _figs(("wc_first", s.Wc[0, 0], fmt(s.Wc[0, 0], d)),
                 ("wc_follow_winner", s.Wc[f, cw], fmt(s.Wc[f, cw], d)),
                 ("follow_candidates", f + 1, str(f + 1)))


def figures_19(s: Story) -> dict[str, Figure]:
    """The silent bug, computed by the wrong code path."""
    br = s.bug_row
    leak = float(s.Wbug[br, br + 1:].sum())
    correct = float(s.Wc[br, br + 1:].sum())
    d = s.sum_places[19].total        # the leak readout's decimals
    return _figs(("bug_leak", leak, fmt(leak, d)), ("bug_leak_correct", correct, fmt(correct, d)))


def figures_20(s: Story) -> dict[str, Figure]:
    """The mixing chain."""
    return _figs(("out_follow", s.O[s.follow], fmt_vec(s.O[s.follow])))


def figures_21(s: Story) -> dict[str, Figure]:
    """Inside the hull."""
    h = s.hull_token
    pulled = s.pulled_weights(HULL_PULL_SCORE)
    gap = float(np.linalg.norm(s.V[h] - s.out_pulled))
    return _figs(("hull_score", HULL_PULL_SCORE, fmt(HULL_PULL_SCORE)),
                 ("out_pulled", s.out_pulled, fmt_vec(s.out_pulled)),
                 ("v_hull", s.V[h], fmt_vec(s.V[h])),
                 ("w_hull_pulled", pulled[h], fmt(pulled[h], 3)),
                 ("hull_gap", gap, fmt(gap, 3)))


def figures_22(s: Story) -> dict[str, Figure]:
    """Order does not exist."""
    return _figs(("out_follow", s.O[s.follow], fmt_vec(s.O[s.follow])),
                 ("out_permuted", s.permuted_outputs,
                  " ".join(fmt_vec(o) for o in s.permuted_outputs)))


def figures_23(s: Story) -> dict[str, Figure]:
    """The bill."""
    m = cost.GPT2_SMALL
    head_b = cost.score_matrix_bytes(m.context)
    model_b = cost.model_score_bytes(m.context)
    long_b = cost.score_matrix_bytes(cost.LONG_CONTEXT)
    tok_b = cost.token_bytes(cost.LONG_CONTEXT)
    # The bytes axis' tick labels, in whole units.
    ticks = _figs(*((f"bytes_tick_{k}", v, fmt_bytes(v, 0)) for k, v in enumerate(BYTE_TICKS)))
    return _figs(("context", m.context, fmt_int(m.context)),
                 ("head_bytes", head_b, fmt_bytes(head_b)),
                 ("layers", m.n_layers, str(m.n_layers)),
                 ("heads", m.n_heads, str(m.n_heads)),
                 ("model_bytes", model_b, fmt_bytes(model_b, 0)),
                 ("long_context", cost.LONG_CONTEXT, fmt_int(cost.LONG_CONTEXT)),
                 ("long_bytes", long_b, fmt_bytes(long_b)),
                 ("token_bytes", tok_b, fmt_bytes(tok_b)),
                 ("bill_ratio", long_b / tok_b, fmt_ratio(long_b / tok_b)),
                 ("d_model", m.d_model, fmt_int(m.d_model))) | ticks


def figures_24(s: Story) -> dict[str, Figure]:
    """Four lines: the small matrix beside the code is this sentence's; per row, the causal
    weights' sum (line 3) and the output (line 4)."""
    out = _figs(("n_tokens", s.n, str(s.n)))
    for i in range(s.n):
        total = float(s.Wc_sums[i])
        out[f"row_sum_{i}"] = Figure(total, fmt(total))
        out[f"out_causal_{i}"] = Figure(s.Oc[i], fmt_vec(s.Oc[i]))
    return out


def figures_25(s: Story) -> dict[str, Figure]:
    """The attention map."""
    f, cw = s.follow, s.causal_winner
    return _figs(("wc_follow_winner", s.Wc[f, cw], fmt(s.Wc[f, cw])),
                 ("w_follow_cwinner", s.W[f, cw], fmt(s.W[f, cw])))


#: Section number -> the function computing its figures.
SECTION_FIGURES = {
    1: figures_01, 2: figures_02, 3: figures_03, 4: figures_04, 5: figures_05,
    6: figures_06, 7: figures_07, 8: figures_08, 9: figures_09, 10: figures_10,
    11: figures_11, 12: figures_12, 13: figures_13, 14: figures_14, 15: figures_15,
    16: figures_16, 17: figures_17, 18: figures_18, 19: figures_19, 20: figures_20,
    21: figures_21, 22: figures_22, 23: figures_23, 24: figures_24, 25: figures_25,
}
