"""The caption plan: which beats each section says, in which order, in which variant.

A scene says *slots* (``self.say("follow")``); the story decides which caption
variant (the key in ``assets/captions/<lang>.toml``) each slot uses, and the order
of the slots, so ``render.py script`` and the tests know every beat without running a
scene, and no scene branches on numbers to pick caption text.

Rules (every comparison is between the numbers as *displayed*, so a caption never
sets two equal-looking numbers against each other):

- s02 ``verdict``: ``sweep`` when the query turned further than the value, ``sweep_same``
  when both angles print alike, else ``sweep_other``.
- s03 ``shadow``: ``shadow_differs`` when some row's longest shadow is not its winner,
  else ``shadow_agrees``. ``follow``: ``follow_self`` when the followed token wins its
  own row, ``follow_tie`` when the winner's score and its own print alike, else
  ``follow_winner``. ``trained``: ``trained`` for a pronoun whose row a noun wins, else
  ``trained_generic``.
- s04 ``two_maps``, s10 ``pair``/``fold``/``why``: the ``*_same`` variants when the
  asymmetric pair's two scores print alike (a sentence of one repeated word).
- s06: the walk reaches the matrix's maximum and minimum in row order (the maximum first
  within one row); the first one said opens with "no ceiling"/"no floor", the second
  with "nor"; ``*_self`` when the maximum sits on the diagonal; ``flat`` when both print
  alike (every score equal), and the minimum then says nothing.
- s07: ``rising`` + ``overtakes`` when the stretched key overtakes, else ``never_overtakes``.
- s11 ``soft``: ``soft_uniform`` when the largest and smallest weight print alike.
- s18 ``follow``: ``follow_first`` when the followed token is the first, ``follow_tie``
  when another candidate's weight prints like the largest (at the decimals section 18
  shows, :meth:`Story.causal_tied`), else ``follow``.
- s20 ``step``: ``never_back`` when the values lie on one side of a line through the
  origin, else ``never_flipped``.
- s21 ``pull``: ``pull`` when the hull token's value is a corner of the hull, else
  ``pull_inner``; ``halt``: ``halt_rounded`` when the weight prints as 1.000,
  ``halt_same`` when the output prints like the value, else ``halt``.
- s22 ``again``: only with a second shuffle (more than two tokens).
- s25 ``row``: ``row_same`` when the weight prints alike with and without the mask.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import core, lexicon
from .fmt import fmt


@dataclass(frozen=True)
class Beat:
    """One caption moment: the scene's ``slot`` and the caption ``key`` it shows
    (``None``: the slot shows nothing for this story)."""

    slot: str
    key: str | None


def _fixed(*keys: str) -> list[Beat]:
    return [Beat(k, k) for k in keys]


def _shown(story, section: int, name: str) -> str:
    return story.fig(section, name).text


def _s01(s):
    return _fixed("sentence", "two_numbers", "input", "query", "key", "value", "three_roles")


def _s02(s):
    q, v = _shown(s, 2, "q_sweep_deg"), _shown(s, 2, "v_sweep_deg")
    if q == v:
        verdict = "sweep_same"
    elif s.fig(2, "q_sweep_deg").value > s.fig(2, "v_sweep_deg").value:
        verdict = "sweep"
    else:
        verdict = "sweep_other"
    return _fixed("wander", "push") + [Beat("verdict", verdict)] + _fixed("moral")


def _s03(s):
    differs = any(s.row_winners[i] != s.shadow_winners[i] for i in range(s.n))
    if s.winner == s.follow:
        follow = "follow_self"
    elif _shown(s, 3, "R_follow_winner") == _shown(s, 3, "R_follow_self"):
        follow = "follow_tie"
    else:
        follow = "follow_winner"
    pronoun = s.classes[s.follow] == lexicon.PRONOUN
    noun = s.classes[s.winner] == lexicon.NOUN
    trained = "trained" if pronoun and noun and s.winner != s.follow else "trained_generic"
    return (_fixed("keys", "sweep")
            + [Beat("shadow", "shadow_differs" if differs else "shadow_agrees"),
               Beat("follow", follow), Beat("trained", trained)])


def asymmetry_shown(s) -> bool:
    """Whether the asymmetric pair's two scaled scores print differently (sections 4, 10)."""
    return _shown(s, 4, "S_asym_fwd") != _shown(s, 4, "S_asym_bwd")


def _s04(s):
    two = "two_maps" if asymmetry_shown(s) else "two_maps_same"
    return [Beat("two_maps", two)] + _fixed("blend", "merged", "why")


def _s05(s):
    return _fixed("arithmetic", "shadow", "sweep", "zero", "negative", "recap")


def extremes_order(s) -> list[str]:
    """Section 6: ``"max"`` and ``"min"`` in the order the walk reaches them."""
    return ["max", "min"] if s.max_cell[0] <= s.min_cell[0] else ["min", "max"]


def _s06(s):
    order = extremes_order(s)
    if _shown(s, 6, "R_max") == _shown(s, 6, "R_min"):
        marks = {"max": "flat", "min": None}
    else:
        on_self = s.max_cell[0] == s.max_cell[1]
        if order[0] == "max":
            marks = {"max": "peak_self" if on_self else "peak", "min": "bottom"}
        else:
            marks = {"min": "floor", "max": "ceiling_self" if on_self else "ceiling"}
    return _fixed("intro", "walk") + [Beat(m, marks[m]) for m in order] + _fixed("no_scale")


def _s07(s):
    stretch = _fixed("rising", "overtakes") if s.stretch_overtakes else _fixed("never_overtakes")
    return _fixed("intro") + stretch + _fixed("every_row", "remedies")


def _s08(s):
    return _fixed("intro", "fill", "count", "projections")


def _s09(s):
    return _fixed("intro", "walk", "winner", "flattest")


def _s10(s):
    if asymmetry_shown(s):
        return _fixed("intro", "pair", "fold", "why")
    return _fixed("intro") + [Beat("pair", "pair_same"), Beat("fold", "fold_same"), Beat("why", "why_same")]


def _s11(s):
    soft = "soft_uniform" if _shown(s, 11, "w_follow_max") == _shown(s, 11, "w_follow_min") else "soft"
    return _fixed("scores", "exp", "divide", "stair") + [Beat("soft", soft)]


def _s12(s):
    return _fixed("drag", "sum", "invariant")


def _s13(s):
    return _fixed("lower", "floor", "mask", "stable", "same")


def _s14(s):
    return _fixed("sum", "axis", "need", "slide", "gpt2")


def _s15(s):
    return _fixed("row", "power", "climb", "gradient")


def _s16(s):
    return _fixed("divide", "flat", "over_d", "divisor")


def _s17(s):
    return _fixed("intro", "remove", "count", "position")


def _s18(s):
    f = s.follow
    if f == 0:
        follow = "follow_first"
    elif len(s.causal_tied()) > 1:
        follow = "follow_tie"
    else:
        follow = "follow"
    return _fixed("intro", "first", "walk") + [Beat("follow", follow)]


def _s19(s):
    return _fixed("natural", "leak", "silent", "fix")


def values_on_one_side(s) -> bool:
    """Whether the values lie on one side of a line through the origin (section 20)."""
    return not core.in_convex_hull(np.zeros(2), s.V)


def hull_token_is_corner(s) -> bool:
    """Whether the hull token's value is a corner of the values' hull (section 21)."""
    H = core.convex_hull(s.V)
    return bool(np.any(np.linalg.norm(H - s.V[s.hull_token], axis=1) <= 1e-9))


def _s20(s):
    step = "never_back" if values_on_one_side(s) else "never_flipped"
    return _fixed("values", "chain") + [Beat("step", step)] + _fixed("output")


def _s21(s):
    if _shown(s, 21, "w_hull_pulled") == fmt(1.0, 3):
        halt = "halt_rounded"
    else:
        halt = "halt" if s.hull_gap_visible else "halt_same"
    pull = "pull" if hull_token_is_corner(s) else "pull_inner"
    return _fixed("convex") + [Beat("pull", pull), Beat("halt", halt)] + _fixed("average", "mlp")


def _s22(s):
    again = _fixed("again") if len(s.permutations) > 1 else []
    return _fixed("intro", "same") + again + _fixed("equivariant", "positional")


def _s23(s):
    return _fixed("pairs", "memory", "slide", "gpt2", "long", "flash")


def _s24(s):
    return _fixed("scores", "mask", "softmax", "mix", "whole")


def _s25(s):
    same = _shown(s, 25, "wc_follow_winner") == _shown(s, 25, "w_follow_cwinner")
    return _fixed("intro", "lift") + [Beat("row", "row_same" if same else "row")] + _fixed("bugs")


def _s00(s):  # the opening card
    return _fixed("intro")


def _s99(s):  # the closing card
    return _fixed("intro")


PLANS = {i: globals()[f"_s{i:02d}"] for i in (0, *range(1, 26), 99)}


def plan(story, section: int) -> list[Beat]:
    """The beats section ``section`` says for ``story``, in order."""
    return PLANS[section](story)


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
