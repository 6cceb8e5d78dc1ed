"""What the claim sweep checks for one sentence (``tests/module/attn_math/test_claims.py``, ``bench/sweep.py``).

For every beat a section's plan says (:meth:`scenes.registry.Section.plan`), in both languages:

- the plan found a true variant (no :class:`attn_math.claims.NoTrueVariant`);
- the chosen variant's declared condition holds against the figures;
- an independent oracle, where the variant makes a checkable claim (:data:`ORACLES`:
  written here from the story's arrays and the figures' texts with plain numpy and
  ``float``, not with the conditions of :mod:`attn_math.claims`), agrees;
- the caption fills in both languages, with no placeholder left.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from attn_math import Story, lexicon
from attn_math.claims import NoTrueVariant
from attn_math.fmt import fmt
from scenes import registry
from scenes.registry import by_number
from scenes.sections.s07_long_key_trap.derived import long_key_trap
from scenes.sections.s09_reading_rows.derived import shown_range
from scenes.sections.s21_inside_the_hull.derived import hull, pulled_weights
from scenes.sections.s22_order_does_not_exist.derived import reorderings
from words import captions, config

__all__ = ["ORACLES", "SECTIONS", "check_story"]

#: The sections whose captions the sweep reads, from the registry (the title cards quote no
#: figure).
SECTIONS = tuple(unit.number for unit in registry.SECTIONS)


def _num(s: Story, section: int, name: str) -> float:
    return float(s.fig(section, name).text.replace("\u2212", "-"))


def _text(s: Story, section: int, name: str) -> str:
    return s.fig(section, name).text


def _leaders_taken(s: Story) -> int:
    """Rows whose argmax becomes the long key once stretched to the slider's end."""
    K = s.K.copy()
    K[long_key_trap(s).long_key] = K[long_key_trap(s).long_key] * long_key_trap(s).stretch_max
    before = np.argmax(s.Q @ s.K.T, axis=1)
    after = np.argmax(s.Q @ K.T, axis=1)
    return int(np.sum((after == long_key_trap(s).long_key) & (before != long_key_trap(s).long_key)))


def _values_apart(s: Story) -> bool:
    return bool(np.ptp(s.V, axis=0).max() > 1e-9)


def _one_top(s: Story) -> bool:
    """Section 18: one causal candidate prints the largest weight (at the bars' decimals)."""
    f, places = s.follow, s.sum_places[18].parts
    shown = [float(fmt(s.Wc[f, j], places)) for j in range(f + 1)]
    return shown.count(max(shown)) == 1


def _alone_at_top(values, decimals: int, end=max) -> bool:
    """One entry alone prints the row's largest (``end=min``: smallest) at ``decimals``: the
    texts as a viewer reads them, compared as texts."""
    texts = [fmt(float(v), decimals) for v in values]
    top = end(texts, key=lambda t: float(t.replace("\u2212", "-")))
    return texts.count(top) == 1


def _places(text: str) -> int:
    return len(text.partition(".")[2])


def _collinear(s: Story) -> bool:
    """Every value lies on one line through the first two distinct ones (cross products)."""
    V = s.V
    apart = [v for v in V if np.abs(v - V[0]).max() > 1e-9]
    if not apart:
        return False
    d = apart[0] - V[0]
    return all(abs(d[0] * (v - V[0])[1] - d[1] * (v - V[0])[0]) <= 1e-9 * max(1.0, float(np.abs(V).max()) ** 2)
               for v in V)


def _follow_row_alone(s: Story) -> bool:
    return _alone_at_top(s.R[s.follow], _places(_text(s, 3, "R_follow_winner")))


def _soft_alone(s: Story) -> bool:
    row, bars = s.W[s.follow], s.sum_places[11].parts
    return _alone_at_top(row, bars) and _alone_at_top(row, bars, min)


#: Words the lexicon lists as nouns and pronouns, read from its own word lists.
_LISTED = {cls: set(lexicon._WORDS[cls].split()) for cls in (lexicon.NOUN, lexicon.PRONOUN)}

#: (section, caption key) -> what must be true of the story when the plan shows it.
ORACLES: dict[tuple[int, str], Callable[[Story], bool]] = {
    (2, "sweep"): lambda s: _num(s, 2, "q_sweep_deg") > _num(s, 2, "v_sweep_deg"),
    (2, "sweep_other"): lambda s: _num(s, 2, "q_sweep_deg") < _num(s, 2, "v_sweep_deg"),
    (2, "sweep_same"): lambda s: _text(s, 2, "q_sweep_deg") == _text(s, 2, "v_sweep_deg"),
    (3, "follow_winner"): lambda s: (_num(s, 3, "R_follow_winner") > _num(s, 3, "R_follow_self")
                                     and _follow_row_alone(s)),
    (3, "follow_shared"): lambda s: not _follow_row_alone(s),
    (3, "follow_self"): lambda s: s.R[s.follow, s.follow] >= s.R[s.follow].max() and _follow_row_alone(s),
    (3, "follow_self_shared"): lambda s: s.R[s.follow, s.follow] >= s.R[s.follow].max(),
    (3, "shadow_level"): lambda s: len({t.lower() for t in s.tokens}) == 1,
    (3, "trained"): lambda s: (s.tokens[s.follow].lower() in _LISTED[lexicon.PRONOUN]
                               and s.tokens[s.winner].lower() in _LISTED[lexicon.NOUN]),
    (4, "merged"): lambda s: _text(s, 4, "S_asym_fwd") != _text(s, 4, "S_asym_bwd"),
    (4, "merged_two"): lambda s: _text(s, 4, "S_asym_fwd") == _text(s, 4, "S_asym_bwd") and s.n == 2,
    (4, "merged_same"): lambda s: _text(s, 4, "S_asym_fwd") == _text(s, 4, "S_asym_bwd") and s.n > 2,
    (6, "intro"): lambda s: s.n > 2,
    (6, "intro_two"): lambda s: s.n == 2,
    (9, "winner_shared"): lambda s: not _alone_at_top(s.S[s.follow], _places(_text(s, 9, "S_follow_winner"))),
    (9, "flattest"): lambda s: _alone_at_top([shown_range(s, i) for i in range(s.n)],
                                             _places(_text(s, 9, "flattest_range")), min),
    (9, "flattest_shared"): lambda s: not _alone_at_top([shown_range(s, i) for i in range(s.n)],
                                                        _places(_text(s, 9, "flattest_range")), min),
    (11, "soft_top"): lambda s: (_alone_at_top(s.W[s.follow], s.sum_places[11].parts)
                                 and not _alone_at_top(s.W[s.follow], _places(_text(s, 11, "w_follow_min")), min)),
    (11, "soft_range"): lambda s: _text(s, 11, "w_follow_max") != _text(s, 11, "w_follow_min"),
    (12, "drag"): lambda s: s.n > 2,
    (12, "drag_two"): lambda s: s.n == 2,
    (16, "flat"): lambda s: len({_text(s, 15, k) for k in ("top_d1", "top_d16", "top_d64")}) > 1,
    (16, "flat_level"): lambda s: len({_text(s, 15, k) for k in ("top_d1", "top_d16", "top_d64")}) == 1,
    (18, "follow_first"): lambda s: s.follow == 0,
    (21, "convex"): lambda s: _values_apart(s) and not _collinear(s),
    (21, "convex_segment"): _collinear,
    (21, "average"): lambda s: _values_apart(s) and not _collinear(s),
    (21, "average_segment"): _collinear,
    (21, "pull_end"): _collinear,
    (21, "halt_point_rounded"): lambda s: not _values_apart(s) and pulled_weights(s, 8.0)[hull(s).hull_token] < 1,
    (22, "same"): lambda s: [s.tokens[i].lower() for i in reorderings(s).permutations[0]] != [t.lower() for t in s.tokens],
    (22, "same_words"): lambda s: [s.tokens[i].lower() for i in reorderings(s).permutations[0]] == [t.lower() for t in s.tokens],
    (25, "row_tied"): lambda s: not _alone_at_top(s.Wc[s.follow, :s.follow + 1], _places(_text(s, 25, "wc_follow_winner"))),
    (3, "follow_tie"): lambda s: (_text(s, 3, "R_follow_winner") == _text(s, 3, "R_follow_self")
                                  and s.tokens[s.winner].lower() == s.tokens[s.follow].lower()),
    (4, "two_maps"): lambda s: _text(s, 4, "S_asym_fwd") != _text(s, 4, "S_asym_bwd"),
    (4, "two_maps_same"): lambda s: s.tokens[s.asym[0]].lower() == s.tokens[s.asym[1]].lower(),
    (6, "flat"): lambda s: len({f"{x:.2f}" for x in s.R.ravel()}) == 1,
    (7, "rising"): lambda s: s.R[s.follow, long_key_trap(s).long_key] > 0,
    (7, "never_overtakes"): lambda s: (long_key_trap(s).stretch_max * s.R[s.follow, long_key_trap(s).long_key]
                                       < s.R[s.follow, s.winner]),
    (7, "every_row"): lambda s: _leaders_taken(s) >= 2,
    (7, "every_row_one"): lambda s: _leaders_taken(s) == 1,
    (7, "every_row_none"): lambda s: _leaders_taken(s) == 0,
    (9, "winner"): lambda s: (fmt(s.S[s.follow].max()) != fmt(s.S[s.follow].min())
                              and _alone_at_top(s.S[s.follow], _places(_text(s, 9, "S_follow_winner")))),
    (15, "row"): lambda s: float(np.std(s.S[s.width_row])) > 1e-9,
    (16, "divide"): lambda s: float(np.std(s.S[s.width_row])) > 1e-9,
    (10, "pair"): lambda s: _text(s, 10, "S_asym_fwd") != _text(s, 10, "S_asym_bwd"),
    (10, "why"): lambda s: _text(s, 10, "S_asym_fwd") != _text(s, 10, "S_asym_bwd"),
    (10, "fold_same"): lambda s: len({t.lower() for t in s.tokens}) == 1,
    (11, "soft"): lambda s: (_text(s, 11, "w_follow_max") != _text(s, 11, "w_follow_min")
                             and _soft_alone(s) and _text(s, 11, "w_ratio") != "1.0"),
    (11, "soft_uniform"): lambda s: _text(s, 11, "w_follow_max") == _text(s, 11, "w_follow_min"),
    (15, "power"): lambda s: _num(s, 15, "top_d16") > _num(s, 15, "top_d1"),
    (15, "climb"): lambda s: _num(s, 15, "top_d1") < _num(s, 15, "top_d16") < _num(s, 15, "top_d64"),
    (15, "climb_pinned"): lambda s: (_num(s, 15, "top_d1") < _num(s, 15, "top_d16")
                                     and _text(s, 15, "top_d16") == _text(s, 15, "top_d64")),
    (15, "climb_flat"): lambda s: len({_text(s, 15, k) for k in ("top_d1", "top_d16", "top_d64")}) == 1,
    (15, "power_flat"): lambda s: np.allclose(s.S[s.width_row], s.S[s.width_row][0], rtol=0, atol=1e-12),
    (16, "over_d"): lambda s: (_num(s, 16, "top_scaled") > _num(s, 16, "top_over_d_max")
                               > _num(s, 16, "uniform")),
    (16, "over_d_flat"): lambda s: _text(s, 16, "top_scaled") == _text(s, 16, "uniform"),
    (18, "follow"): _one_top,
    (21, "halt"): lambda s: _values_apart(s) and _text(s, 21, "out_pulled") != _text(s, 21, "v_hull"),
    (21, "halt_same"): lambda s: _values_apart(s) and _text(s, 21, "out_pulled") == _text(s, 21, "v_hull"),
    (21, "halt_rounded"): lambda s: _values_apart(s) and pulled_weights(s, 8.0)[hull(s).hull_token] < 1,
    (21, "halt_point"): lambda s: not _values_apart(s),
    (21, "pull"): _values_apart,
    (21, "pull_inner"): _values_apart,
    (25, "row"): lambda s: (_text(s, 25, "wc_follow_winner") != _text(s, 25, "w_follow_cwinner")
                            and _alone_at_top(s.Wc[s.follow, :s.follow + 1], _places(_text(s, 25, "wc_follow_winner")))),
    (25, "row_same"): lambda s: _alone_at_top(s.Wc[s.follow, :s.follow + 1], _places(_text(s, 25, "wc_follow_winner"))),
}


def check_story(story: Story, sections=SECTIONS, langs=config.LANGS) -> tuple[int, list[str]]:
    """``(beats checked, problems)`` for ``story``: one line per problem, naming the section,
    the beat and what is false."""
    problems: list[str] = []
    checked = 0
    for section in sections:
        try:
            planned = by_number(section).plan(story)
        except NoTrueVariant as e:
            problems.append(f"s{section:02d}: {e}")
            continue
        for beat in planned:
            checked += 1
            if beat.key is None:
                continue
            where = f"s{section:02d} {beat.slot}->{beat.key}"
            if not beat.claim.holds(story, story.shown_figures(section)):
                problems.append(f"{where}: its condition fails ({beat.claim.describe()})")
            oracle = ORACLES.get((section, beat.key))
            if oracle is not None and not oracle(story):
                problems.append(f"{where}: the oracle disagrees")
            for lang in langs:
                try:
                    text = captions.render(lang, section, beat.key, story.caption_context(section, lang))
                except KeyError as e:
                    problems.append(f"{where} [{lang}]: {e}")
                    continue
                if "{" in text or "}" in text:
                    problems.append(f"{where} [{lang}]: a placeholder is left: {text}")
    return checked, problems
