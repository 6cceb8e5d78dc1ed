"""Beat plans: which beats a section says, in which order, in which variant.

A scene says *slots* (``self.say("follow")``); the story decides which caption
variant (the key in its section's ``captions/<lang>.toml``) each slot uses, and the order
of the slots, so ``render.py script`` and the tests know every beat without running a
scene, and no scene branches on numbers to pick caption text.

Each section's plan lives in its own folder (``beats.py``: ``plan(story, figures)`` with
the section's own figures); this module holds what every plan is made of.
Every caption variant declares beside it, in its section's table (``VARIANTS``), the
condition under which it is true, in terms of the figures as *displayed*
(:mod:`attn_math.claims`), and :func:`variant_beats` shows the first variant whose
condition holds: a caption never sets two equal-looking numbers against each other, never
says "climbs" of numbers that print alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .claims import ALWAYS, Condition, Variants, choose
from .story import Figure, Story

__all__ = ["Beat", "BeatCursor", "Figures", "fixed", "variant_beats"]

#: A section's own figures by name, as a plan reads them.
Figures = Mapping[str, Figure]


@dataclass(frozen=True)
class Beat:
    """One caption moment: the scene's ``slot``, the caption ``key`` it shows (``None``: the
    slot shows nothing for this story), and the ``claim`` under which that variant is true
    (:mod:`attn_math.claims`)."""

    slot: str
    key: str | None
    claim: Condition = ALWAYS


def fixed(*keys: str) -> list[Beat]:
    """Beats whose slot always shows the caption of the same name."""
    return [Beat(k, k) for k in keys]


def variant_beats(s: Story, figs: Figures, variants: Variants, *slots: str) -> list[Beat]:
    """The beats of ``slots``, each in the first of its ``variants`` (the section's table:
    slot -> ``(caption key, condition)``, preferred first) whose condition holds; a slot
    missing from the table shows the caption of its name. Raises
    :class:`~attn_math.claims.NoTrueVariant` when no variant of a slot holds."""
    return [Beat(slot, *choose(s, figs, slot, variants)) for slot in slots]


class BeatCursor:
    """Walks a section's plan as its scene says slots, so the scene cannot say a slot
    out of the plan's order (the script would then disagree with the video)."""

    def __init__(self, section: int, beats: list[Beat]):
        self.section = section
        self.beats = beats
        self.pos = 0

    def next(self, slot: str) -> Beat:
        if self.pos >= len(self.beats) or self.beats[self.pos].slot != slot:
            expected = self.beats[self.pos].slot if self.pos < len(self.beats) else "nothing"
            raise RuntimeError(f"section {self.section} says {slot!r} where its plan has {expected!r}")
        beat = self.beats[self.pos]
        self.pos += 1
        return beat

    def finished(self) -> bool:
        return self.pos == len(self.beats)
