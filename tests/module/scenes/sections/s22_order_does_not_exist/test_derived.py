"""Section 22's derived quantities (``derived.reorderings``) for any head: each shuffle is a
real reordering, and its weights (per token) and output are the unshuffled ones."""

from __future__ import annotations

import numpy as np
from hypothesis import given

from scenes.registry import story_of
from scenes.sections.s22_order_does_not_exist.derived import reorderings
from tests.support.strategies import SETTINGS, heads


@SETTINGS
@given(heads())
def test_story_permuted_outputs(h):
    s = story_of(h)
    assert len(reorderings(s).permutations) == (1 if s.n == 2 else 2)
    for p, o in zip(reorderings(s).permutations, reorderings(s).permuted_outputs):
        assert sorted(p) == list(range(s.n)) and p != list(range(s.n))
        np.testing.assert_allclose(o, s.O[s.follow], rtol=1e-9, atol=1e-12)


@SETTINGS
@given(heads())
def test_section22_shuffled_head_shows_the_same_row(h):
    """Each shuffle's weights (per token) and output are the unshuffled ones."""
    s = story_of(h)
    assert len(reorderings(s).permuted_weights) == len(reorderings(s).permuted_outputs) == len(reorderings(s).permutations)
    for w, o in zip(reorderings(s).permuted_weights, reorderings(s).permuted_outputs, strict=True):
        np.testing.assert_allclose(w, s.W[s.follow], rtol=1e-9, atol=1e-15)
        np.testing.assert_allclose(o, s.O[s.follow], rtol=1e-9, atol=1e-12)
