"""scenes.widgets.slider: a slider's count reads as the number printed beside it."""

from __future__ import annotations

import pytest

from attn_math.fmt import fmt
from scenes.widgets.slider import CountTracker


@pytest.mark.parametrize("value", [0.5, 2.5, 3.5, 12.5, 37.4, 37.6, 7.0])
def test_count_is_the_whole_number_fmt_prints(value):
    # At an exact .5, round() (half to even) gives 2 for 2.5 while fmt prints "3".
    assert str(CountTracker(value).count()) == fmt(value, 0)
