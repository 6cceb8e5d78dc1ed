"""The rules for a total shown beside its parts, tested without rendering: the total is
coarsened where that makes the parts as shown add up to it
(:func:`attn_math.sums.sum_decimals`), else its readout says the parts are rounded wherever
they do not add up (:func:`attn_math.sums.parts_add_up`, decided here against Decimal
arithmetic on the printed texts). The drawn numbers and the note are read while the layout
probe renders the sections (``tests/shown_sums.py``, used by ``tests/test_layout.py`` and
``tests/test_scenes.py``); :class:`tests.support.shown_sums.SumReader`'s verdicts are tested here.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attn_math import Story, default_head, sentence_head
from attn_math.sums import SumPlaces, parts_add_up, sum_decimals
from scenes import registry
from scenes.registry import story_of
from scenes.sections.s11_softmax_staircase.derived import staircase
from tests.support.sentences import LAYOUT as SENTENCES
from tests.support.shown_sums import SumReader

#: The sentences: the default one (ja/dark) and test_layout's.
CASES = {"default": (None, "ja", "dark"), **SENTENCES}


# ---------------------------------------------------------------- the rule, without rendering

def _story(sentence: str | None) -> Story:
    return story_of(default_head() if sentence is None else sentence_head(sentence.split()))


def test_rounded_parts_can_miss_the_rounded_total():
    leak = np.array([0.03954341, 0.03954341])       # section 19, the 12-token sentence
    assert not parts_add_up(leak, 3, 3)             # 0.040 + 0.040 under 0.079
    assert parts_add_up(leak, 3, 2)                 # 0.040 + 0.040 under 0.08


def test_sum_decimals_coarsens_the_total_only():
    leak = np.array([0.03954341, 0.03954341])
    assert sum_decimals([leak], 3) == SumPlaces(3, 2)
    # The parts never take more decimals than they are given: where no coarser total agrees,
    # nothing changes (and the rendered test lists the case).
    thirds = np.array([0.0335, 0.0335, 0.0335])
    assert sum_decimals([thirds], 2) == SumPlaces(2, 2)     # 0.03 × 3 = 0.09 under 0.10 (or 0.1)
    assert not parts_add_up(thirds, 2, 2) and not parts_add_up(thirds, 2, 1)
    assert sum_decimals([np.array([0.25, 0.75])], 2) == SumPlaces(2, 2)
    # Three parts of 0.01052: 0.011 × 3 = 0.033 under 0.032 (or 0.03, 0.0), 0.0105 × 3 =
    # 0.0315 under 0.0316: no decimals up to the cap reconcile them, and nothing changes.
    stuck = np.array([0.01052, 0.01052, 0.01052])
    assert sum_decimals([stuck], 3) == SumPlaces(3, 3)
    assert not parts_add_up(stuck, 3, 3)


# ---------------------------------------------------------------- when the note is shown

def _shown(x: float, places: int) -> Decimal:
    """``x`` as printed at ``places`` decimals, by Decimal arithmetic on its text (half away
    from zero, the project's rounding; these rows are positive, where that is half up)."""
    return Decimal(repr(float(x))).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def _adds_up(parts, places: int, total_places: int, total: float | None = None) -> bool:
    total = sum(float(p) for p in parts) if total is None else total
    return sum((_shown(p, places) for p in parts), Decimal(0)) == _shown(total, total_places)


@pytest.mark.parametrize("sentence", list(CASES))
def test_section19_leak_adds_up(sentence):
    """The leaked weights as shown add up to the leak as shown, by Decimal arithmetic on the
    printed values (not by the predicate that chose the decimals)."""
    s = _story(CASES[sentence][0])
    p = s.sum_places[19]
    leaked = s.Wbug[s.bug_row, s.bug_row + 1:]
    shown_total = s.fig(19, "bug_leak").text
    assert len(shown_total.split(".")[1]) == p.total
    assert sum((_shown(w, p.parts) for w in leaked), Decimal(0)) == Decimal(shown_total)


def test_a_row_that_adds_up():
    row = np.array([0.25, 0.75])                          # 0.25 + 0.75 = 1.00
    assert _adds_up(row, 2, 2) and parts_add_up(row, 2, 2)
    row = np.array([0.2, 0.3, 0.5])                       # 0.20 + 0.30 + 0.50 under Σ w = 1.000
    assert _adds_up(row, 2, 3) and parts_add_up(row, 2, 3)


def test_a_row_that_does_not_add_up():
    thirds = np.full(3, 1 / 3)                            # 0.33 × 3 = 0.99 under Σ = 1.00
    assert not _adds_up(thirds, 2, 2) and not parts_add_up(thirds, 2, 2)
    sixths = np.full(6, 1 / 6)                            # 0.17 × 6 = 1.02 under Σ w = 1.000
    assert not _adds_up(sixths, 2, 3) and not parts_add_up(sixths, 2, 3)


def test_the_total_shown_is_the_readouts_own():
    # A live readout passes the value it shows: the parts are compared with it, not with
    # their own sum (both print alike at a settled frame; 1.004 and 0.996 do not at 3).
    row = np.array([0.25, 0.75])
    assert parts_add_up(row, 2, 2, total=1.004)           # "1.00"
    assert not parts_add_up(row, 2, 3, total=1.004)       # "1.004"
    assert not parts_add_up(row, 2, 2, total=0.994)       # "0.99"


def test_section11_default_exp_stage_does_not_add_up():
    s = _story(None)
    places = s.sum_places[11]
    exp = staircase(s).stages[1]
    # 1.24 + 3.37 + 1.70 + 1.32 + 2.24 + 1.37 = 11.24 under Σ = 11.25
    assert sum(_shown(x, places.parts) for x in exp) != _shown(float(exp.sum()), places.total)
    assert not parts_add_up(exp, *places, total=float(staircase(s).sums[1]))


@given(st.lists(st.floats(0.0, 5.0, allow_nan=False), min_size=1, max_size=12),
       st.integers(1, 3), st.integers(1, 3))
def test_decision_agrees_with_decimal_arithmetic(parts, places, total_places):
    row = np.array(parts)
    assert parts_add_up(row, places, total_places) == _adds_up(row, places, total_places,
                                                                float(np.sum(row)))


@pytest.mark.parametrize("sentence", list(CASES))
@pytest.mark.parametrize("section", [n for n in (11, 12, 18) if n in {u.number for u in registry.SECTIONS}])
def test_settled_rows_decided_like_decimal_arithmetic(sentence, section):
    s = _story(CASES[sentence][0])
    places = s.sum_places[section]
    assert places.parts == s.sections[section].sums.places.parts   # the parts keep the storyboard's
    for row in s.summed_rows(section):
        assert parts_add_up(row, *places) == _adds_up(row, *places, float(np.sum(row)))


# ---------------------------------------------------------------- the rendered check's verdicts

def _reader(*seen) -> SumReader:
    r = SumReader(18)
    r.seen = list(seen)
    return r


def test_reader_wants_the_note_where_the_parts_miss():
    _reader(("walk settled", ["0.33", "0.33", "0.33"], "1.00", True)).check("thirds")
    with pytest.raises(AssertionError, match="no note says"):
        _reader(("walk settled", ["0.33", "0.33", "0.33"], "1.00", False)).check("thirds")


def test_reader_refuses_the_note_where_the_parts_add_up():
    _reader(("intro settled", ["0.25", "0.75"], "1.00", False)).check("halves")
    with pytest.raises(AssertionError, match="yet they add up"):
        _reader(("intro settled", ["0.25", "0.75"], "1.00", True)).check("halves")
    with pytest.raises(AssertionError, match="never shown"):
        _reader().check("none")


# ---------------------------------------------------------------- the readout's note, live

def test_the_note_follows_the_parts_and_eases():
    from scenes.widgets.readouts import TotalReadout, _ease_note

    row = {"parts": np.array([0.25, 0.75])}
    total = TotalReadout("Σ w =", lambda: float(row["parts"].sum()), lambda: row["parts"],
                         "parts rounded", parts_decimals=2, decimals=2, sample=1.0)

    def opacity() -> float:
        return float(np.max(total.note.get_fill_opacity()))

    assert opacity() == 0.0                               # 0.25 + 0.75 = 1.00: no note
    assert total.note.get_top()[1] > total.line().get_top()[1]     # over the line
    row["parts"] = np.full(3, 1 / 3)                      # 0.33 × 3 = 0.99 under 1.00
    total.update(TotalReadout.NOTE_FADE / 4)              # a quarter of the way in
    assert opacity() == pytest.approx(0.25)
    total.update(TotalReadout.NOTE_FADE)                  # then all the way, and it rests
    assert opacity() == 1.0
    total.update(0.0)
    assert _ease_note not in total.note.get_updaters()    # nothing left to ease
    row["parts"] = np.array([0.25, 0.75])
    total.update(TotalReadout.NOTE_FADE / 4)              # easing out ...
    assert 0.0 < opacity() < 1.0 and total.note.has_time_based_updater()
    total.finish_easing()                                 # ... a wait begins: done, no updater
    assert opacity() == 0.0 and not total.note.has_time_based_updater()
    total.update(2 * TotalReadout.NOTE_FADE)
    assert opacity() == 0.0
