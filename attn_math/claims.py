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

from .fmt import MINUS

if TYPE_CHECKING:  # the story imports nothing from here
    from .story import Figure, Story

__all__ = [
    "Condition", "Always", "ALWAYS", "Alike", "Differ", "Above", "AtLeast", "Prints", "Rises", "Level", "Fact",
    "Both", "Not", "Variants", "NoTrueVariant", "choose", "shown_figure", "shown_text", "shown_value",
]


def shown_figure(story: Story, section: int, name: str) -> Figure:
    """Figure ``name`` as section ``section`` shows it: its own, or one its captions borrow
    (``Story.CAPTION_BORROWS``); ``"NN:name"`` names another section's figure outright."""
    if ":" in name:
        other, _, name = name.partition(":")
        return story.fig(int(other), name)
    own = story.figures.get(section, {})
    if name in own:
        return own[name]
    for sec, names in story.CAPTION_BORROWS.get(section, {}).items():
        if name in names:
            return story.fig(sec, name)
    raise KeyError(f"section {section} shows no figure {name!r}")


def shown_text(story: Story, section: int, ref: str) -> str:
    """The text a condition reads: figure ``ref`` as shown, or ``ref`` itself when it is a
    number written out (``"0"``, ``"1"``: a literal to compare with)."""
    if ref[:1].isdigit():
        return ref
    return shown_figure(story, section, ref).text


def shown_value(text: str) -> float:
    """The number a viewer reads in a figure's text (true minus sign, ``∞``, thousands
    separators)."""
    t = text.replace(MINUS, "-").replace(",", "").strip()
    if t in ("∞", "+∞"):
        return float("inf")
    if t == "-∞":
        return float("-inf")
    return float(t)


class Condition:
    """When a caption variant is true, for one story and section."""

    def holds(self, story: Story, section: int) -> bool:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.describe()


@dataclass(frozen=True)
class Always(Condition):
    """A claim true of every sentence (it quotes figures, and compares none)."""

    def holds(self, story, section):
        return True

    def describe(self):
        return "always"


ALWAYS = Always()


@dataclass(frozen=True)
class Alike(Condition):
    """Two figures print alike."""

    a: str
    b: str

    def holds(self, story, section):
        return shown_text(story, section, self.a) == shown_text(story, section, self.b)

    def describe(self):
        return f"{self.a} and {self.b} print alike"


@dataclass(frozen=True)
class Differ(Condition):
    """Two figures print differently (a caption may set them against each other)."""

    a: str
    b: str

    def holds(self, story, section):
        return shown_text(story, section, self.a) != shown_text(story, section, self.b)

    def describe(self):
        return f"{self.a} and {self.b} print differently"


@dataclass(frozen=True)
class Above(Condition):
    """The number shown for ``a`` is larger than the one shown for ``b``."""

    a: str
    b: str

    def holds(self, story, section):
        return (shown_value(shown_text(story, section, self.a))
                > shown_value(shown_text(story, section, self.b)))

    def describe(self):
        return f"{self.a} > {self.b} as shown"


@dataclass(frozen=True)
class AtLeast(Condition):
    """The number shown for ``name`` is at least ``least``."""

    name: str
    least: float

    def holds(self, story, section):
        return shown_value(shown_text(story, section, self.name)) >= self.least

    def describe(self):
        return f"{self.name} ≥ {self.least:g} as shown"


@dataclass(frozen=True)
class Prints(Condition):
    """Figure ``name`` prints exactly ``text``."""

    name: str
    text: str

    def holds(self, story, section):
        return shown_text(story, section, self.name) == self.text

    def describe(self):
        return f"{self.name} prints {self.text}"


@dataclass(frozen=True)
class Rises(Condition):
    """The numbers shown for ``names`` strictly rise, in that order."""

    names: tuple[str, ...]

    def __init__(self, *names: str):
        object.__setattr__(self, "names", names)

    def holds(self, story, section):
        v = [shown_value(shown_text(story, section, n)) for n in self.names]
        return all(x < y for x, y in zip(v, v[1:]))

    def describe(self):
        return " < ".join(self.names) + " as shown"


@dataclass(frozen=True)
class Level(Condition):
    """Every figure of ``names`` prints alike."""

    names: tuple[str, ...]

    def __init__(self, *names: str):
        object.__setattr__(self, "names", names)

    def holds(self, story, section):
        return len({shown_text(story, section, n) for n in self.names}) == 1

    def describe(self):
        return " = ".join(self.names) + " as shown"


@dataclass(frozen=True)
class Fact(Condition):
    """An exact property of the story that no figure shows (``what`` says it in words)."""

    what: str
    test: Callable[[Story], bool]

    def holds(self, story, section):
        return bool(self.test(story))

    def describe(self):
        return self.what


@dataclass(frozen=True)
class Both(Condition):
    """Every one of ``conditions`` holds."""

    conditions: tuple[Condition, ...]

    def __init__(self, *conditions: Condition):
        object.__setattr__(self, "conditions", conditions)

    def holds(self, story, section):
        return all(c.holds(story, section) for c in self.conditions)

    def describe(self):
        return " and ".join(f"({c.describe()})" for c in self.conditions)


@dataclass(frozen=True)
class Not(Condition):
    """``condition`` does not hold."""

    condition: Condition

    def holds(self, story, section):
        return not self.condition.holds(story, section)

    def describe(self):
        return f"not ({self.condition.describe()})"


#: A section's table: slot -> its variants ``(caption key or None, condition)``, preferred first.
Variants = Mapping[str, Sequence[tuple["str | None", Condition]]]


class NoTrueVariant(RuntimeError):
    """No variant of a beat is true for this story."""


def choose(story: Story, section: int, slot: str, variants: Variants) -> tuple[str | None, Condition]:
    """The first variant of ``slot`` whose condition holds (a slot missing from the table
    has the one variant ``slot``, true always)."""
    options = variants.get(slot, ((slot, ALWAYS),))
    for key, condition in options:
        if condition.holds(story, section):
            return key, condition
    tried = "; ".join(f"{k}: {c.describe()}" for k, c in options)
    raise NoTrueVariant(f"section {section} slot {slot!r}: no variant holds ({tried})")
