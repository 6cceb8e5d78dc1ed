"""Section 26's beat plan: the caption each of its slots shows, in order, for a story.

Each variant declares in :data:`VARIANTS` the condition under which it is true, on the
figures as displayed (:mod:`attn_math.claims`); the plan shows the first that holds. A
sentence the model cannot read gets its pieces and an honest card, not the grid.
"""

from __future__ import annotations

from attn_math.beats import Beat, Figures, fixed, variant_beats
from attn_math.claims import Both, Fact, Not, Prints, Variants
from attn_math.story import Story

from .figures import attention, foreign_words, parked, real_tops, toy_tops, unknown_words

__all__ = ["FALLBACK_SLOTS", "VARIANTS", "plan", "readable"]


def readable(s: Story) -> bool:
    """The model can read the sentence (:attr:`~attn_math.real_head.WordAttention.readable`):
    the grid and the zoom are shown, else the honest card."""
    return attention(s).readable


def _cut(s: Story) -> int:
    return len(attention(s).split_words)


ONE_CUT = Fact("exactly one word is cut into several pieces", lambda s: _cut(s) == 1)
CUTS = Fact("two or more words are cut into several pieces", lambda s: _cut(s) >= 2)
SOME_CUT = Fact("a word is cut into several pieces", lambda s: _cut(s) >= 1)
FOREIGN = Fact("a word is not in Latin script", lambda s: bool(foreign_words(s)))
ONE_FOREIGN = Fact("exactly one word is not in Latin script", lambda s: len(foreign_words(s)) == 1)
UNKNOWN = Fact("a word has a piece outside the vocabulary ([UNK])", lambda s: bool(unknown_words(s)))
ONE_UNKNOWN = Fact("exactly one word has a piece outside the vocabulary", lambda s: len(unknown_words(s)) == 1)
ALL_PARKED = Fact("every head parks the followed word", lambda s: bool(parked(s).all()))
REAL_SOLE = Fact("one token alone prints the chosen head's largest weight", lambda s: len(real_tops(s)) == 1)
TOY_SOLE = Fact("one token alone prints the toy row's largest weight", lambda s: len(toy_tops(s)) == 1)
REAL_TOP_SPECIAL = Fact("the chosen head's largest weight is on [CLS] or [SEP]",
                        lambda s: real_tops(s)[0] in (0, s.n + 1))
REAL_TOP_IN_TOY = Fact("the chosen head's top word is one of the toy row's tops",
                       lambda s: real_tops(s)[0] - 1 in toy_tops(s))
LAST = Fact("the followed word is the sentence's last", lambda s: s.follow == s.n - 1)

VARIANTS: Variants = {
    "pieces": (("pieces_splits", CUTS), ("pieces_split", ONE_CUT), ("pieces", Not(SOME_CUT))),
    "unreadable": (("unreadable_script", ONE_FOREIGN), ("unreadable_scripts", Both(FOREIGN, Not(ONE_FOREIGN))),
                   ("unreadable_unknown", Both(Not(FOREIGN), ONE_UNKNOWN)),
                   ("unreadable_unknowns", Both(Not(FOREIGN), UNKNOWN, Not(ONE_UNKNOWN)))),
    "grid": (("grid_split", SOME_CUT), ("grid", Not(SOME_CUT))),
    "parked": (("parked_none", Prints("parked", "0")), ("parked_all", ALL_PARKED),
               ("parked", Both(Not(Prints("parked", "0")), Not(ALL_PARKED)))),
    "zoom": (("zoom", TOY_SOLE), ("zoom_shared", Not(TOY_SOLE))),
    "compare": (("tied", Not(REAL_SOLE)),
                ("parked_top", Both(REAL_SOLE, REAL_TOP_SPECIAL)),
                ("agree", Both(REAL_SOLE, Not(REAL_TOP_SPECIAL), REAL_TOP_IN_TOY, TOY_SOLE)),
                ("agree_shared", Both(REAL_SOLE, Not(REAL_TOP_SPECIAL), REAL_TOP_IN_TOY, Not(TOY_SOLE))),
                ("differ", Both(REAL_SOLE, Not(REAL_TOP_SPECIAL), Not(REAL_TOP_IN_TOY)))),
    "encoder": (("encoder_last", LAST), ("encoder", Not(LAST))),
}


#: Slots said only when no story can be told: the model is not installed (its figures are empty).
FALLBACK_SLOTS = ("missing",)


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: the figures it shows), in order."""
    if not figs:
        return fixed(FALLBACK_SLOTS[0])
    if not readable(s):
        return variant_beats(s, figs, VARIANTS, "pieces", "unreadable")
    return variant_beats(s, figs, VARIANTS, "pieces", "grid", "parked", "strong", "zoom", "compare",
                         "encoder")
