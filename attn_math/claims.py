"""Claims: the condition under which a caption variant is true, checked against the figures.

A caption says something about the numbers on screen ("the top weight climbs from 0.269 to
0.732", "two maps, two numbers", "the output stays strictly inside"). Each variant of a
beat declares, beside its key, the :class:`Condition` under which it is true, in terms of
the figures *as displayed* (their ``text``): two shown values differ, print alike, strictly
rise, one is above another. Where a claim is about an exact property no figure shows (a
word's class, whether the values are one point), a :class:`Fact` names it.

A section declares a small table, slot -> variants in order of preference::

    VARIANTS = {"climb": (("climb", Rises("top_d1", "top_d16", "top_d64")),
                          ("climb_flat", Level("top_d1", "top_d16", "top_d64")))}

and :func:`choose` takes the first variant whose condition holds for the story; if none
holds it raises :class:`NoTrueVariant` (a beat with nothing true to say is a bug of the
table, caught by the randomised sweep, never shown). A variant key ``None`` means the slot
shows no caption in that case.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .fmt import MINUS, fmt

if TYPE_CHECKING:  # the story imports nothing from here
    from .story import Figure, Story

    Figures = Mapping[str, Figure]

__all__ = [
    "Condition", "Always", "ALWAYS", "Alike", "Differ", "Above", "AtLeast", "Prints", "Rises", "Level", "Fact",
    "Both", "Not", "Variants", "NoTrueVariant", "choose", "shown_text", "shown_value",
    "ONE_WORD", "PAIR_ONE_WORD", "TWO_TOKENS", "Sole", "as_shown", "extremes_as_shown",
    "sole_extreme", "decimals_of",
]


def shown_text(figs: Figures, ref: str) -> str:
    """The text a condition reads: figure ``ref`` as shown, or ``ref`` itself when it is a
    number written out (``"0"``, ``"1"``: a literal to compare with)."""
    if ref[:1].isdigit():
        return ref
    if ref not in figs:
        raise KeyError(f"the section shows no figure {ref!r}")
    return figs[ref].text


def shown_value(text: str) -> float:
    """The number a viewer reads in a figure's text (true minus sign, ``∞``, thousands
    separators)."""
    t = text.replace(MINUS, "-").replace(",", "").strip()
    if t in ("∞", "+∞"):
        return float("inf")
    if t == "-∞":
        return float("-inf")
    return float(t)


def decimals_of(text: str) -> int:
    """The decimals a figure's ``text`` prints (``"2.15"``: 2; ``"3"``: 0)."""
    return len(text.partition(".")[2])


def as_shown(values: Sequence[float], places: int) -> list[float]:
    """``values`` as a viewer reads them when each is printed with ``places`` decimals: the
    one notion of "equal" every claim of a tie, a most, a least, a leader or a change uses
    (two values are equal as shown when they print alike)."""
    return [shown_value(fmt(float(v), places)) for v in values]


def extremes_as_shown(values: Sequence[float], places: int, end: str = "max") -> list[int]:
    """The positions whose value, as shown at ``places`` decimals, is the largest
    (``end="max"``) or the smallest (``"min"``) of the whole row: more than one is a tie."""
    shown = as_shown(values, places)
    best = max(shown) if end == "max" else min(shown)
    return [i for i, v in enumerate(shown) if v == best]


def sole_extreme(values: Sequence[float], places: int, end: str = "max") -> bool:
    """Whether exactly one entry is the row's largest (or smallest) as shown."""
    return len(extremes_as_shown(values, places, end)) == 1


class Condition:
    """When a caption variant is true, for one story and section."""

    def holds(self, story: Story, figs: Figures) -> bool:
        """Whether the claim is true of ``story``, whose section shows ``figs`` (its own
        figures and those it quotes, by name)."""
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.describe()


@dataclass(frozen=True)
class Always(Condition):
    """A claim true of every sentence (it quotes figures, and compares none)."""

    def holds(self, story, figs):
        return True

    def describe(self):
        return "always"


ALWAYS = Always()


@dataclass(frozen=True)
class Alike(Condition):
    """Two figures print alike."""

    a: str
    b: str

    def holds(self, story, figs):
        return shown_text(figs, self.a) == shown_text(figs, self.b)

    def describe(self):
        return f"{self.a} and {self.b} print alike"


@dataclass(frozen=True)
class Differ(Condition):
    """Two figures print differently (a caption may set them against each other)."""

    a: str
    b: str

    def holds(self, story, figs):
        return shown_text(figs, self.a) != shown_text(figs, self.b)

    def describe(self):
        return f"{self.a} and {self.b} print differently"


@dataclass(frozen=True)
class Above(Condition):
    """The number shown for ``a`` is larger than the one shown for ``b``."""

    a: str
    b: str

    def holds(self, story, figs):
        return (shown_value(shown_text(figs, self.a))
                > shown_value(shown_text(figs, self.b)))

    def describe(self):
        return f"{self.a} > {self.b} as shown"


@dataclass(frozen=True)
class AtLeast(Condition):
    """The number shown for ``name`` is at least ``least``."""

    name: str
    least: float

    def holds(self, story, figs):
        return shown_value(shown_text(figs, self.name)) >= self.least

    def describe(self):
        return f"{self.name} ≥ {self.least:g} as shown"


@dataclass(frozen=True)
class Prints(Condition):
    """Figure ``name`` prints exactly ``text``."""

    name: str
    text: str

    def holds(self, story, figs):
        return shown_text(figs, self.name) == self.text

    def describe(self):
        return f"{self.name} prints {self.text}"


@dataclass(frozen=True)
class Rises(Condition):
    """The numbers shown for ``names`` strictly rise, in that order."""

    names: tuple[str, ...]

    def __init__(self, *names: str):
        object.__setattr__(self, "names", names)

    def holds(self, story, figs):
        v = [shown_value(shown_text(figs, n)) for n in self.names]
        return all(x < y for x, y in zip(v, v[1:]))

    def describe(self):
        return " < ".join(self.names) + " as shown"


@dataclass(frozen=True)
class Level(Condition):
    """Every figure of ``names`` prints alike."""

    names: tuple[str, ...]

    def __init__(self, *names: str):
        object.__setattr__(self, "names", names)

    def holds(self, story, figs):
        return len({shown_text(figs, n) for n in self.names}) == 1

    def describe(self):
        return " = ".join(self.names) + " as shown"


@dataclass(frozen=True)
class Fact(Condition):
    """An exact property of the story that no figure shows (``what`` says it in words)."""

    what: str
    test: Callable[[Story], bool]

    def holds(self, story, figs):
        return bool(self.test(story))

    def describe(self):
        return self.what


@dataclass(frozen=True)
class Both(Condition):
    """Every one of ``conditions`` holds."""

    conditions: tuple[Condition, ...]

    def __init__(self, *conditions: Condition):
        object.__setattr__(self, "conditions", conditions)

    def holds(self, story, figs):
        return all(c.holds(story, figs) for c in self.conditions)

    def describe(self):
        return " and ".join(f"({c.describe()})" for c in self.conditions)


@dataclass(frozen=True)
class Not(Condition):
    """``condition`` does not hold."""

    condition: Condition

    def holds(self, story, figs):
        return not self.condition.holds(story, figs)

    def describe(self):
        return f"not ({self.condition.describe()})"


@dataclass(frozen=True)
class Sole(Condition):
    """One entry alone is the largest (``end="max"``) or the smallest (``"min"``) of a row,
    judged over the whole row at the decimals the screen prints it with (:func:`as_shown`).

    ``row`` gives the story's row and those decimals; ``what`` names the row in words.
    """

    what: str
    row: Callable[[Story], tuple[Sequence[float], int]]
    end: str = "max"

    def holds(self, story, figs):
        return sole_extreme(*self.row(story), end=self.end)

    def describe(self):
        word = "largest" if self.end == "max" else "smallest"
        return f"one entry alone is the {word} of {self.what} as shown"


#: A section's table: slot -> its variants ``(caption key or None, condition)``, preferred first.
Variants = Mapping[str, Sequence[tuple["str | None", Condition]]]


class NoTrueVariant(RuntimeError):
    """No variant of a beat is true for this story."""


def choose(story: Story, figs: Figures, slot: str, variants: Variants) -> tuple[str | None, Condition]:
    """The first variant of ``slot`` whose condition holds (a slot missing from the table
    has the one variant ``slot``, true always)."""
    options = variants.get(slot, ((slot, ALWAYS),))
    for key, condition in options:
        if condition.holds(story, figs):
            return key, condition
    tried = "; ".join(f"{k}: {c.describe()}" for k, c in options)
    raise NoTrueVariant(f"slot {slot!r}: no variant holds ({tried})")


def _one_word(story: Story, idx) -> bool:
    return len({story.tokens[i].lower() for i in idx}) == 1


#: Every token is the same word (every query meets the same key).
ONE_WORD = Fact("every token is the same word", lambda s: _one_word(s, range(s.n)))
#: The asymmetric pair is one word twice (its two scores are equal, not just alike).
PAIR_ONE_WORD = Fact("the asymmetric pair is one word twice", lambda s: _one_word(s, s.asym))

#: The sentence has two tokens: "both", not "all 2"; a segment, not a polygon.
TWO_TOKENS = Fact("the sentence has two tokens", lambda s: s.n == 2)
