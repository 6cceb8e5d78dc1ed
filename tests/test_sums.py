"""The rule that keeps a total shown beside its parts equal to the parts as shown
(:func:`attn_math.story.sum_decimals`), tested without rendering; the drawn numbers are read
and added while the layout probe renders the sections (``tests/shown_sums.py``, used by
``tests/test_layout.py`` and ``tests/test_scenes.py``).
"""

from __future__ import annotations

import numpy as np
import pytest

from attn_math import Story, default_head, sentence_head
from attn_math.story import SumPlaces, parts_add_up, sum_decimals
from tests.test_layout import SENTENCES

#: The sentences: the default one (ja/dark) and test_layout's.
CASES = {"default": (None, "ja", "dark"), **SENTENCES}


# ---------------------------------------------------------------- the rule, without rendering

def _story(sentence: str | None) -> Story:
    return Story(default_head() if sentence is None else sentence_head(sentence.split()))


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


@pytest.mark.parametrize("sentence", list(CASES))
def test_section19_leak_adds_up(sentence):
    s = _story(CASES[sentence][0])
    p = s.sum_places[19]
    assert parts_add_up(s.Wbug[s.bug_row, s.bug_row + 1:], *p)
    assert len(s.fig(19, "bug_leak").text.split(".")[1]) == p.total
