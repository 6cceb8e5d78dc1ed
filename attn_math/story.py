"""The story: which token plays which role in each section, and every figure shown.

Scenes and captions read from here and nowhere else. Roles are picked by the
rules below, for any sentence the head accepts, unless the head's ``roles``
table overrides them:

- **follow**: the token the video follows (the head's ``follow``: by default the
  last pronoun, else the last token).
- **winner**: the argmax of the followed token's raw-score row (ties: first).
- **asymmetric pair** ``(a, b)``: the pair ``i != j`` with the largest
  ``|S[i, j] - S[j, i]|``, ordered so that ``S[a, b] > S[b, a]``.
- **width row**: the first verb's row, else the row with the largest spread.
- **bug row**: the followed row if it has a future, else the second-to-last row.

These are the roles two or more sections share. A role, a constant or a quantity only one
section uses lives in that section's folder (its ``derived.py``: the long key of section 7,
the hull token of section 21, ...), computed once per story through :meth:`Story.derived`;
the section names its roles for ``figures --json`` (:attr:`SectionFigures.roles`) and its
caption placeholders (:attr:`SectionFigures.context`).

Every figure is a :class:`Figure`: the exact value and the text shown, formatted
once here (fixed decimals, round half away from zero, true minus sign).

A story is built in three steps: the shared roles (``_pick_roles``), the decimals of the
totals sections show beside their parts (``_derive``), then the figures, one
small function per section (its ``figures.py``, handed to the story as a
:class:`SectionFigures` by the section registry: the story lists no sections of its
own), which read the story and assign nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

import numpy as np

from . import core, lexicon, prose
from .fmt import fmt
from .head import Head
from .sums import SumPlaces, sum_decimals

__all__ = [
    "ContextFunction", "Figure", "FigureFunction", "SectionFigures", "SectionSums", "SectionTables", "Story",
    "figure_table", "token_labels",
]

# Constants of the storyboard that several sections share: choices of presentation, not of
# the head.
REAL_HEAD_WIDTH = 64          # a real head's width (GPT-2 small: 768 / 12)
WIDTHS = (1, 4, 16, 64, 256)  # sections 14 to 16: a log axis, each tick x4

_T = TypeVar("_T")


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
        self._derived: dict[Callable, Any] = {}
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
        if "width_row" in overrides:
            self.width_row = int(overrides["width_row"])
        else:
            verbs = [i for i, c in enumerate(self.input_classes) if c == lexicon.VERB]
            spread = self.S.max(axis=1) - self.S.min(axis=1)
            self.width_row = verbs[0] if verbs else int(np.argmax(spread))
        self.bug_row = f if f < n - 1 else n - 2
        self.causal_winner = int(np.argmax(self.Wc[f]))
        # Each query's pick by score (sections 3, 7 and 9).
        self.row_winners = [core.best_key(self.K, q) for q in self.Q]

    # ------------------------------------------------------------ derived quantities

    def _derive(self) -> None:
        """Quantities that scenes use beyond the head's arrays (slider ranges, results of
        re-running the head), computed once, from the roles."""
        # Sections that show parts beside their total (SectionFigures.sums): decimals at which
        # the parts as shown add up to the total as shown (a viewer adds them), where some
        # exist; else the total's readout notes that the parts are rounded (parts_add_up).
        self.sum_places = {number: sec.sums.decimals(self) for number, sec in self.sections.items()
                           if sec.sums is not None}

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

    # ------------------------------------------------------------ live quantities

    @cached_property
    def width_z(self) -> np.ndarray:
        """The width row, standardised to spread 1 (sections 15 and 16)."""
        return core.standardised(self.S[self.width_row])

    # ------------------------------------------------------------ access

    def derived(self, compute: Callable[[Story], _T]) -> _T:
        """``compute(self)``, computed once for this story.

        How a section keeps what only it derives from the story (a role, a slider's range,
        the head run again on its inputs) in its own folder and still computes it once,
        whoever asks first: its figures, its beat plan or its scene.
        """
        if compute not in self._derived:
            self._derived[compute] = compute(self)
        return self._derived[compute]

    def fig(self, section: int, name: str) -> Figure:
        return self.figures[section][name]

    def figures_of(self, compute: FigureFunction) -> dict[str, Figure]:
        """The figures of the section whose figures function is ``compute``: how a section's
        own modules read its figures without writing down its number."""
        for number, sec in self.sections.items():
            if sec.compute is compute:
                return self.figures[number]
        raise KeyError(f"no section of this story computes its figures with {compute!r}")

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

    def token_name(self, i: int, lang: str | None = None) -> str:
        """Token ``i`` as a caption names it: set off as a name in ``lang`` (“it” / 「it」),
        or its bare label without a language (for checks on the roles)."""
        return self.labels[i] if lang is None else prose.token_name(self.labels[i], lang)

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
        def name(i: int) -> str:
            return self.token_name(i, lang)

        ctx = {
            "follow": name(self.follow),
            "winner": name(self.winner),
            "asym_a": name(self.asym[0]),
            "asym_b": name(self.asym[1]),
            "width_row": name(self.width_row),
            "first": name(0),
            "last": name(self.n - 1),
            "causal_winner": name(self.causal_winner),
            "bug_row": name(self.bug_row),
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

    def role_json(self, index: int | Sequence[int]) -> dict:
        """A role as ``figures --json`` gives it: its index (or indices) and label(s)."""
        if isinstance(index, (int, np.integer)):
            return {"index": int(index), "token": self.labels[int(index)]}
        return {"index": [int(i) for i in index], "token": [self.labels[int(i)] for i in index]}

    def roles_json(self) -> dict:
        """The shared roles, then each section's own (:attr:`SectionFigures.roles`)."""
        out = {
            "follow": self.role_json(self.follow),
            "winner": self.role_json(self.winner),
            "asymmetric_pair": self.role_json(self.asym),
            "width_row": self.role_json(self.width_row),
            "bug_row": self.role_json(self.bug_row),
            "causal_winner": self.role_json(self.causal_winner),
            "row_winners": self.row_winners,
        }
        for _, sec in sorted(self.sections.items()):
            if sec.roles is not None:
                out.update(sec.roles(self))
        return out

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
    it shows beside its parts (``sums``), the caption placeholders only it has
    (``context``) and the roles only it has (``roles``).

    Captions are scoped per section: a placeholder names the figure of the section that
    says it, never a namesake, unless the section borrows it here.
    """

    number: int
    compute: FigureFunction
    borrows: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    sums: SectionSums | None = None
    context: ContextFunction | None = None
    #: The roles only this section has, as ``figures --json`` lists them (name -> JSON value,
    #: e.g. :meth:`Story.role_json`).
    roles: Callable[[Story], dict[str, Any]] | None = None


def figure_table(*items: tuple[str, Any, str]) -> dict[str, Figure]:
    """Figures from ``(name, value, text)`` triples, in order."""
    return {name: Figure(value, text) for name, value, text in items}
