"""The caption plan: which beats each section says, in which order, in which variant.

A scene says *slots* (``self.say("follow")``); the story decides which caption
variant (the key in ``assets/captions/<lang>.toml``) each slot uses, and the order
of the slots, so ``render.py script`` and the tests know every beat without running a
scene, and no scene branches on numbers to pick caption text.

Each section declares beside its slots a table of variants (:data:`VARIANTS`): per slot,
the caption keys it may show, each with the condition under which it is true
(:mod:`attn_math.claims`: in terms of the figures as displayed, so a caption never sets
two equal-looking numbers against each other, never says "climbs" of numbers that print
alike). The plan takes the first variant whose condition holds; a slot missing from the
table shows its own key, a claim true of every sentence. The order of the slots is the
section's (section 6 says the maximum and the minimum in the order its walk reaches them;
section 7 says ``rising`` + ``overtakes`` when the stretched key overtakes within the
slider, else ``never_overtakes``; section 22 says ``again`` only with a second shuffle).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import core, lexicon
from .claims import (
    ALWAYS,
    Above,
    Alike,
    AtLeast,
    Both,
    Condition,
    Differ,
    Fact,
    Level,
    Not,
    Prints,
    Rises,
    Variants,
    choose,
    shown_value,
)
from .fmt import fmt


@dataclass(frozen=True)
class Beat:
    """One caption moment: the scene's ``slot``, the caption ``key`` it shows (``None``: the
    slot shows nothing for this story), and the ``claim`` that made the plan pick it."""

    slot: str
    key: str | None
    claim: Condition = ALWAYS


def _beats(s, section: int, *slots: str) -> list[Beat]:
    """The beats of ``slots``, each in the first variant of :data:`VARIANTS` that holds."""
    table = VARIANTS.get(section, {})
    return [Beat(slot, *choose(s, section, slot, table)) for slot in slots]


# ---------------------------------------------------------------- facts no figure shows


def _one_word(s, idx) -> bool:
    return len({s.tokens[i].lower() for i in idx}) == 1


#: Every token is the same word (every query meets the same key).
ONE_WORD = Fact("every token is the same word", lambda s: _one_word(s, range(s.n)))
#: The asymmetric pair is one word twice.
PAIR_ONE_WORD = Fact("the asymmetric pair is one word twice", lambda s: _one_word(s, s.asym))


def values_on_one_side(s) -> bool:
    """Whether the values lie on one side of a line through the origin (section 20)."""
    return not core.in_convex_hull(np.zeros(2), s.V)


def hull_token_is_corner(s) -> bool:
    """Whether the hull token's value is a corner of the values' hull (section 21)."""
    H = core.convex_hull(s.V)
    return bool(np.any(np.linalg.norm(H - s.V[s.hull_token], axis=1) <= 1e-9))


def values_coincide(s) -> bool:
    """Whether every value is the same vector (one repeated word): the hull is one point."""
    scale = max(1.0, float(np.abs(s.V).max()))
    return bool(np.ptp(s.V, axis=0).max() <= 1e-9 * scale)


def shown_product_agrees(s) -> bool:
    """Section 5's recap: the shadow and key length as shown multiply to the score as shown."""
    a, b, c = (s.fig(5, k).text for k in ("shadow_len", "key_len", "shadow_score"))
    places = len(c.partition(".")[2])
    return fmt(shown_value(a) * shown_value(b), places) == c


#: Section 10's square reads the same folded: every scaled score prints like its mirror.
SYMMETRIC_AS_SHOWN = Fact("every scaled score prints like its mirror image",
                          lambda s: all(fmt(s.S[i, j]) == fmt(s.S[j, i])
                                        for i in range(s.n) for j in range(i)))
#: Section 15's row has no spread (every score equal): no width changes its weights.
FLAT_WIDTH_ROW = Fact("every score of the width row is equal", lambda s: not s.width_z.any())
POINT = Fact("every value is the same vector", values_coincide)


def asymmetry_shown(s) -> bool:
    """Whether the asymmetric pair's two scaled scores print differently (sections 4, 10)."""
    return Differ("S_asym_fwd", "S_asym_bwd").holds(s, 4)


def extremes_order(s) -> list[str]:
    """Section 6: ``"max"`` and ``"min"`` in the order the walk reaches them."""
    return ["max", "min"] if s.max_cell[0] <= s.min_cell[0] else ["min", "max"]


MAX_FIRST = Fact("the walk reaches the maximum first", lambda s: extremes_order(s)[0] == "max")
MAX_ON_SELF = Fact("the maximum sits on the diagonal", lambda s: s.max_cell[0] == s.max_cell[1])


# ---------------------------------------------------------------- the variants, section by section

#: Section -> slot -> ``(caption key, condition)``, preferred first.
VARIANTS: dict[int, Variants] = {
    2: {"verdict": (("sweep_same", Alike("q_sweep_deg", "v_sweep_deg")),
                    ("sweep", Above("q_sweep_deg", "v_sweep_deg")),
                    ("sweep_other", Above("v_sweep_deg", "q_sweep_deg")))},
    3: {"shadow": (("shadow_differs", AtLeast("rows_where_shadow_differs", 1)),
                   ("shadow_agrees", Prints("rows_where_shadow_differs", "0"))),
        "follow": (("follow_self", Fact("the followed token wins its own row",
                                        lambda s: s.winner == s.follow)),
                   ("follow_tie", Both(Alike("R_follow_winner", "R_follow_self"),
                                       Fact("the winner is the followed word again",
                                            lambda s: _one_word(s, (s.winner, s.follow))))),
                   ("follow_level", Alike("R_follow_winner", "R_follow_self")),
                   ("follow_winner", Above("R_follow_winner", "R_follow_self"))),
        "trained": (("trained", Fact("a noun wins the row of a followed pronoun",
                                     lambda s: s.winner != s.follow
                                     and s.classes[s.follow] == lexicon.PRONOUN
                                     and s.classes[s.winner] == lexicon.NOUN)),
                    ("trained_generic", ALWAYS))},
    4: {"two_maps": (("two_maps", Differ("S_asym_fwd", "S_asym_bwd")),
                     ("two_maps_same", Both(Alike("S_asym_fwd", "S_asym_bwd"), PAIR_ONE_WORD)),
                     # x_a (W_Q W_Kᵀ − W_K W_Qᵀ) x_bᵀ is |x_a| |x_b| sin θ times a constant
                     ("two_maps_close", Alike("S_asym_fwd", "S_asym_bwd")))},
    5: {"recap": (("recap", Fact("shadow × key length as shown gives the score as shown",
                                 shown_product_agrees)),
                  ("recap_rounded", ALWAYS))},
    6: {"max": (("flat", Both(Alike("R_max", "R_min"), ONE_WORD)),
                ("peak_self", Both(MAX_FIRST, MAX_ON_SELF)),
                ("peak", MAX_FIRST),
                ("ceiling_self", MAX_ON_SELF),
                ("ceiling", ALWAYS)),
        "min": ((None, Alike("R_max", "R_min")),
                ("bottom", Both(MAX_FIRST, Differ("R_max", "R_min"))),
                ("floor", Differ("R_max", "R_min")))},
    7: {"rising": (("rising", Above("R_follow_long", "0")),),
        "overtakes": (("overtakes", Fact("the crossing lies between the two stretches shown",
                                         lambda s: s.stretch_overtakes)),),
        "never_overtakes": (("never_overtakes", Above("R_follow_winner", "R_follow_long_end")),
                            ("already_level", Both(Alike("R_follow_long", "R_follow_winner"),
                                                   Above("R_follow_long_end", "R_follow_winner")))),
        "every_row": (("every_row", AtLeast("rows_taken", 2)),
                      ("every_row_one", Prints("rows_taken", "1")),
                      ("every_row_none", Prints("rows_taken", "0")))},
    10: {"pair": (("pair", Differ("S_asym_fwd", "S_asym_bwd")),
                  ("pair_same", Alike("S_asym_fwd", "S_asym_bwd"))),
         "fold": (("fold", Not(SYMMETRIC_AS_SHOWN)),
                  ("fold_same", Both(SYMMETRIC_AS_SHOWN, ONE_WORD)),
                  ("fold_close", SYMMETRIC_AS_SHOWN)),
         "why": (("why", Differ("S_asym_fwd", "S_asym_bwd")),
                 ("why_same", Alike("S_asym_fwd", "S_asym_bwd")))},
    11: {"soft": (("soft_uniform", Alike("w_follow_max", "w_follow_min")),
                  ("soft", Differ("w_follow_max", "w_follow_min")))},
    15: {"power": (("power", Both(Above("lead_ratio_d1", "1"), Rises("top_d1", "top_d16"))),
                   ("power_shared", Both(Prints("lead_ratio_d1", "1.00"), Rises("top_d1", "top_d16"))),
                   ("power_flat", Both(Level("top_d1", "top_d16", "top_d64"), FLAT_WIDTH_ROW))),
         "climb": (("climb", Rises("top_d1", "top_d16", "top_d64")),
                   ("climb_pinned", Both(Rises("top_d1", "top_d16"), Alike("top_d16", "top_d64"))),
                   ("climb_flat", Level("top_d1", "top_d16", "top_d64")))},
    16: {"over_d": (("over_d", Both(Above("top_scaled", "top_over_d_max"),
                                    Above("top_over_d_max", "uniform"))),
                    ("over_d_reached", Both(Above("top_scaled", "top_over_d_max"),
                                            Alike("top_over_d_max", "uniform"))),
                    ("over_d_flat", Level("top_scaled", "top_over_d_max", "uniform")))},
    18: {"follow": (("follow_first", Fact("the followed token is the first", lambda s: s.follow == 0)),
                    ("follow_tie", Fact("several candidates print the largest weight",
                                        lambda s: len(s.causal_tied()) > 1)),
                    ("follow", Fact("one candidate prints the largest weight",
                                    lambda s: len(s.causal_tied()) == 1)))},
    20: {"step": (("never_back", Fact("the values lie on one side of a line through the origin",
                                      values_on_one_side)),
                  ("never_flipped", ALWAYS))},
    21: {"convex": (("convex_point", POINT), ("convex", Not(POINT))),
         "pull": (("pull_still", POINT),
                  ("pull", Fact("the hull token's value is a corner of the hull", hull_token_is_corner)),
                  ("pull_inner", ALWAYS)),
         "halt": (("halt_point", POINT),
                  ("halt_rounded", Both(Prints("w_hull_pulled", "1.000"), Alike("out_pulled", "v_hull"))),
                  ("halt", Differ("out_pulled", "v_hull")),
                  ("halt_same", Alike("out_pulled", "v_hull"))),
         "average": (("average_point", POINT), ("average", Not(POINT)))},
    25: {"row": (("row", Differ("wc_follow_winner", "w_follow_cwinner")),
                 ("row_same", Alike("wc_follow_winner", "w_follow_cwinner")))},
}


# ---------------------------------------------------------------- the slots, section by section


def _s01(s):
    return _beats(s, 1, "sentence", "two_numbers", "input", "query", "key", "value", "three_roles")


def _s02(s):
    return _beats(s, 2, "wander", "push", "verdict", "moral")


def _s03(s):
    return _beats(s, 3, "keys", "sweep", "shadow", "follow", "trained")


def _s04(s):
    return _beats(s, 4, "two_maps", "blend", "merged", "why")


def _s05(s):
    return _beats(s, 5, "arithmetic", "shadow", "sweep", "zero", "negative", "recap")


def _s06(s):
    return _beats(s, 6, "intro", "walk", *extremes_order(s), "no_scale")


def _s07(s):
    stretch = ("rising", "overtakes") if s.stretch_overtakes else ("never_overtakes",)
    return _beats(s, 7, "intro", *stretch, "every_row", "remedies")


def _s08(s):
    return _beats(s, 8, "intro", "fill", "count", "projections")


def _s09(s):
    return _beats(s, 9, "intro", "walk", "winner", "flattest")


def _s10(s):
    return _beats(s, 10, "intro", "pair", "fold", "why")


def _s11(s):
    return _beats(s, 11, "scores", "exp", "divide", "stair", "soft")


def _s12(s):
    return _beats(s, 12, "drag", "sum", "invariant")


def _s13(s):
    return _beats(s, 13, "lower", "floor", "mask", "stable", "same")


def _s14(s):
    return _beats(s, 14, "sum", "axis", "need", "slide", "gpt2")


def _s15(s):
    return _beats(s, 15, "row", "power", "climb", "gradient")


def _s16(s):
    return _beats(s, 16, "divide", "flat", "over_d", "divisor")


def _s17(s):
    return _beats(s, 17, "intro", "remove", "count", "position")


def _s18(s):
    return _beats(s, 18, "intro", "first", "walk", "follow")


def _s19(s):
    return _beats(s, 19, "natural", "leak", "silent", "fix")


def _s20(s):
    return _beats(s, 20, "values", "chain", "step", "output")


def _s21(s):
    return _beats(s, 21, "convex", "pull", "halt", "average", "mlp")


def _s22(s):
    again = ("again",) if len(s.permutations) > 1 else ()
    return _beats(s, 22, "intro", "same", *again, "equivariant", "positional")


def _s23(s):
    return _beats(s, 23, "pairs", "memory", "slide", "gpt2", "long", "flash")


def _s24(s):
    return _beats(s, 24, "scores", "mask", "softmax", "mix", "whole")


def _s25(s):
    return _beats(s, 25, "intro", "lift", "row", "bugs")


def _s00(s):  # the opening card
    return _beats(s, 0, "intro")


def _s99(s):  # the closing card
    return _beats(s, 99, "intro")


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
