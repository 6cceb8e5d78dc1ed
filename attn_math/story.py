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
small function per section (its ``figures.py``, handed to the story as a
:class:`SectionFigures` by the section registry: the story lists no sections of its
own), which read the story and assign nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from . import core, lexicon, prose
from .fmt import fmt, fmt_vec, round_half_away
from .head import Head
from .sums import SumPlaces, sum_decimals

__all__ = [
    "ContextFunction", "Figure", "FigureFunction", "SectionFigures", "SectionSums", "SectionTables", "Story",
    "figure_table", "token_labels",
]

# Constants of the storyboard: choices of presentation, not of the head.
REAL_HEAD_WIDTH = 64          # a real head's width (GPT-2 small: 768 / 12)
FLOOR_SCORE = -30.0           # section 13 pushes a score down to here
HULL_PULL_SCORE = 8.0         # section 21's slider stops here
STRETCH_MAX_DEFAULT = 6.0     # section 7's slider range, widened to fit a crossing
STRETCH_CAP = 20.0            # ... but never past this
WIDTHS = (1, 4, 16, 64, 256)  # sections 14 to 16: a log axis, each tick x4
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
    indices for roles, and ``figures``: section number -> name -> :class:`Figure`, one
    table for each of ``sections`` (the registry's, :func:`scenes.registry.story_of`).
    """

    def __init__(self, head: Head, sections: Sequence[SectionFigures] = ()):
        self.head = head
        self.sections = {sec.number: sec for sec in sections}
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
        #: Each token's class as the lexicon knows it (``unknown`` for a word it does not
        #: list): what a caption may claim.
        self.classes = [lexicon.word_class(t) for t in self.tokens]
        #: The class each token's input was placed near (an unknown word as a noun or a
        #: verb): what the roles are picked by, never claimed.
        self.input_classes = [lexicon.input_class(t) for t in self.tokens]
        self._pick_roles(head.roles)
        self._derive()
        self.figures: Mapping[int, dict[str, Figure]] = SectionTables(self, self.sections)

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
            verbs = [i for i, c in enumerate(self.input_classes) if c == lexicon.VERB]
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
        for pool in ([j for j in others if self.input_classes[j] in (lexicon.DETERMINER, lexicon.CONJUNCTION)],
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
        # Sections that show parts beside their total (SectionFigures.sums): decimals at which
        # the parts as shown add up to the total as shown (a viewer adds them), where some
        # exist; else the total's readout notes that the parts are rounded (parts_add_up).
        self.sum_places = {number: sec.sums.decimals(self) for number, sec in self.sections.items()
                           if sec.sums is not None}

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

    def shown_figures(self, section: int) -> dict[str, Figure]:
        """The figures ``section`` shows or quotes: its own and those it borrows
        (:attr:`SectionFigures.borrows`), by name (what a plan's claims are checked against)."""
        own = self.sections.get(section)
        out = {k: self.figures[sec][k] for sec, keys in (own.borrows if own else {}).items()
               for k in keys}
        out.update(self.figures.get(section, {}))
        return out

    def label(self, i: int) -> str:
        return self.labels[i]

    def tied_at(self, decimals: int) -> list[int]:
        """The followed row's causal candidates whose weight prints like the largest at
        ``decimals``."""
        f = self.follow
        top = fmt(self.Wc[f, self.causal_winner], decimals)
        return [j for j in range(f + 1) if fmt(self.Wc[f, j], decimals) == top]

    def summed_rows(self, section: int) -> list[np.ndarray]:
        """The rows of parts ``section`` shows beside their total on a beat's settled frame
        (its :attr:`SectionFigures.sums`)."""
        own = self.sections.get(section)
        if own is None or own.sums is None:
            raise ValueError(f"section {section} shows no total beside its parts")
        return own.sums.rows(self)

    def token_names(self, idx, lang: str | None = None) -> str:
        """The tokens at ``idx`` as a caption names them: set off and listed in ``lang``
        (:mod:`attn_math.prose`), or the bare labels joined by commas without a language."""
        if lang is None:
            return ", ".join(self.labels[j] for j in idx)
        return prose.token_list([self.labels[j] for j in idx], lang)

    def caption_context(self, section: int, lang: str | None = None) -> dict[str, str]:
        """Placeholder values for a section's captions: every role and the section's own
        figures (plus those it borrows: :attr:`SectionFigures.borrows`).

        With ``lang``, token names come set off as names (“it” / 「it」), token lists
        and prose numbers follow the language (:mod:`attn_math.prose`); without it, the
        bare labels (for checks on the roles).
        """
        if lang is None:
            name = lambda i: self.labels[i]                                    # noqa: E731
        else:
            name = lambda i: prose.token_name(self.labels[i], lang)           # noqa: E731
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
            "bug_future": self.token_names(self.bug_future, lang),
            "n_future": str(len(self.bug_future)),
            "sentence": " ".join(self.tokens),
            "n": str(self.n),
        }
        own = self.sections.get(section)
        for sec, keys in (own.borrows if own else {}).items():
            for k in keys:
                ctx[k] = self.figures[sec][k].text
        for k, v in self.figures.get(section, {}).items():
            ctx[k] = v.text
        if own is not None and own.context is not None:
            ctx.update(own.context(self, self.figures.get(section, {}), lang))
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
                # a card that shows no number (the opening) lists no section
                "sections": {f"{s:02d}": {k: v.to_json() for k, v in figs.items()}
                             for s, figs in sorted(self.figures.items()) if figs},
            },
        }


class SectionTables(Mapping):
    """Section number -> that section's figures, each table computed when first asked for.

    A render worker draws one section and reads that section's figures (and those it
    borrows); computing every table up front would make each of them pay for all the others,
    including the real head of section 26, whose model takes most of a second to load.
    Iteration is in section order and computes every table.
    """

    def __init__(self, story: Story, sections: Mapping[int, SectionFigures]):
        self._story = story
        self._sections = dict(sorted(sections.items()))
        self._done: dict[int, dict[str, Figure]] = {}

    def __getitem__(self, number: int) -> dict[str, Figure]:
        if number not in self._done:
            self._done[number] = self._sections[number].compute(self._story)
        return self._done[number]

    def __contains__(self, number: object) -> bool:
        return number in self._sections

    def __iter__(self):
        return iter(self._sections)

    def __len__(self) -> int:
        return len(self._sections)


# ---------------------------------------------------------------- figures, one function a section
#
# Each section's figures.py returns its figures in the order the section shows them:
# name -> Figure. They read the story's arrays, roles and derived quantities, and assign
# nothing.

#: A section's figures function: the story -> its figures by name.
FigureFunction = Callable[["Story"], dict[str, Figure]]
#: A section's own caption placeholders: (story, its figures, language or None) -> the
#: entries it adds or rewrites (a figure as prose says it, a role only it names).
ContextFunction = Callable[["Story", Mapping[str, Figure], str | None], dict[str, str]]


@dataclass(frozen=True)
class SectionSums:
    """A total a section shows beside its parts: the decimals parts and total are shown with
    (unless they disagree, :func:`~attn_math.sums.sum_decimals`) and the rows of parts its
    beats settle on (live numbers while a row moves are not read; totals are row sums)."""

    places: SumPlaces
    rows: Callable[[Story], list[np.ndarray]]

    def decimals(self, story: Story) -> SumPlaces:
        """The decimals at which every row's parts as shown add up to its total as shown."""
        return sum_decimals(self.rows(story), *self.places)


@dataclass(frozen=True)
class SectionFigures:
    """What the story needs of one section: its number, the function computing its figures,
    the figures its captions quote from other sections (section number -> names), the total
    it shows beside its parts (``sums``) and the caption placeholders only it has
    (``context``).

    Captions are scoped per section: a placeholder names the figure of the section that
    says it, never a namesake, unless the section borrows it here.
    """

    number: int
    compute: FigureFunction
    borrows: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    sums: SectionSums | None = None
    context: ContextFunction | None = None


def figure_table(*items: tuple[str, Any, str]) -> dict[str, Figure]:
    """Figures from ``(name, value, text)`` triples, in order."""
    return {name: Figure(value, text) for name, value, text in items}
