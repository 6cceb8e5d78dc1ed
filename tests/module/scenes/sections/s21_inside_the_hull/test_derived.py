"""Section 21's derived quantities (``derived.hull``) for any head: the output with the hull
token's score pulled up is the reference output of the edited row (written out with Python
floats and ``math.exp``), and stays inside the values' hull."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given

from attn_math import core
from scenes.registry import story_of
from scenes.sections.s21_inside_the_hull.derived import hull
from tests.support.strategies import SETTINGS, heads


@SETTINGS
@given(heads())
def test_section21_pulled_output(h):
    """Pulling the hull token's score up gives the reference output of the edited row."""
    s = story_of(h)
    f, t = s.follow, hull(s).hull_token
    scores = [float(x) for x in s.S[f]]
    scores[t] = s.fig(21, "hull_score").value  # the score section 21 pulls to
    e = [math.exp(x - max(scores)) for x in scores]
    w = [x / sum(e) for x in e]
    expected = [sum(w[j] * float(s.V[j][c]) for j in range(s.n)) for c in range(2)]
    np.testing.assert_allclose(hull(s).out_pulled, expected, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(s.fig(21, "out_pulled").value, expected, rtol=1e-9, atol=1e-12)
    assert core.in_convex_hull(hull(s).out_pulled, s.V)
