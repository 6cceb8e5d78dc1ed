"""The faster mobject copy (:mod:`patches.manim.copies`) makes what manim's own deep copy makes.

The oracle is manim's ``Mobject.__deepcopy__`` itself (kept as ``MANIM_DEEPCOPY``): both
copies of the same mobject are walked side by side, attribute by attribute, down to every
array's bytes and every colour's four numbers; both must be free of the original (no array
or colour shared with it) and keep the original's own sharing (one array under two names
stays one array). The one documented difference: a glyph's parsed SVG path (``path_obj``)
is shared with the original instead of copied.
"""

from __future__ import annotations

import copy
import enum

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from manim import BLUE, RED, Circle, ManimColor, Square, Text, VGroup

from patches.manim.copies import MANIM_DEEPCOPY, color_deepcopy, fast_deepcopy
from patches.manim.text import MANIM_GENERATE
from tests.support.texts import text_built_by

_SHARED = {"path_obj"}


def _set_copy(cls, copier):
    """Make ``copier`` the deep copy of ``cls`` (None: the one ``cls`` inherits)."""
    if copier is not None:
        cls.__deepcopy__ = copier
    elif "__deepcopy__" in vars(cls):
        del cls.__deepcopy__


def _copy_with(m, mobject_copy, color_copy):
    """``copy.deepcopy(m)`` with these deep copies installed (``color_copy`` None: colours
    copied as manim copies them, through ``__reduce_ex__``), whatever was installed before."""
    from manim.mobject.mobject import Mobject

    saved = vars(Mobject)["__deepcopy__"], vars(ManimColor).get("__deepcopy__")
    _set_copy(Mobject, mobject_copy)
    _set_copy(ManimColor, color_copy)
    try:
        return copy.deepcopy(m)
    finally:
        _set_copy(Mobject, saved[0])
        _set_copy(ManimColor, saved[1])


def _manim_copy(m):
    """A deep copy as manim makes it."""
    return _copy_with(m, MANIM_DEEPCOPY, None)


def _fast_copy(m):
    """A deep copy as :mod:`patches.manim.copies` makes it."""
    return _copy_with(m, fast_deepcopy, color_deepcopy)


def _alike(ref, got, orig, path, seen):
    """``got`` equals ``ref`` (manim's copy) in type and value, all the way down, and
    shares no mutable part with ``orig``."""
    key = (id(ref), id(got))
    if key in seen:
        return
    seen.add(key)
    assert type(ref) is type(got), path
    if isinstance(ref, np.ndarray):
        assert ref.dtype == got.dtype and ref.shape == got.shape, path
        assert np.array_equal(ref, got, equal_nan=ref.dtype.kind == "f"), path
        assert orig is None or not np.shares_memory(got, orig), f"{path}: shared with the original"
    elif isinstance(ref, ManimColor):
        assert np.array_equal(ref._internal_value, got._internal_value), path
        assert got is not orig and got._internal_value is not orig._internal_value, path
    elif isinstance(ref, (list, tuple)):
        assert len(ref) == len(got), path
        if isinstance(ref, list) and ref:
            assert got is not orig, f"{path}: a list shared with the original"
        for i, (r, g, o) in enumerate(zip(ref, got, orig if orig is not None else [None] * len(ref))):
            _alike(r, g, o, f"{path}[{i}]", seen)
    elif isinstance(ref, dict):
        assert list(ref) == list(got), path
        for k in ref:
            _alike(ref[k], got[k], None if orig is None else orig[k], f"{path}.{k}", seen)
    elif hasattr(ref, "__dict__") and hasattr(ref, "get_family"):
        assert got is not orig, path
        assert list(vars(ref)) == list(vars(got)), path
        for k in vars(ref):
            if k in _SHARED:
                assert getattr(got, k) is getattr(orig, k), f"{path}.{k}: kept, not copied"
                continue
            _alike(getattr(ref, k), getattr(got, k), vars(orig).get(k), f"{path}.{k}", seen)
    elif isinstance(ref, (int, float, str, bool, bytes, type(None), enum.Enum)) or callable(ref):
        assert ref == got or (ref != ref and got != got), path
    else:
        assert ref == got or type(ref).__eq__ is object.__eq__, path


def _check(m):
    ref, got = _manim_copy(m), _fast_copy(m)
    _alike(ref, got, m, type(m).__name__, set())
    return got


def test_a_text_with_its_glyphs_paths_and_colours():
    t = text_built_by(MANIM_GENERATE, "q·k = 1.73", font_size=30, color=RED)   # glyphs keep their paths
    assert any(getattr(g, "path_obj", None) is not None for g in t.get_family())
    _check(t)


def test_a_group_with_a_target_updaters_and_a_shared_array():
    sq, c = Square().set_fill(BLUE, 0.4), Circle(color=RED)
    sq.generate_target()
    sq.target.shift([1, 0, 0])
    c.add_updater(lambda m, dt: m.rotate(dt))
    shared = np.array([1.0, 2.0, 3.0])
    sq.note_a, sq.note_b = shared, shared   # one array under two names
    group = VGroup(sq, c, Text("ab"))
    got = _check(group)
    assert got[0].note_a is got[0].note_b, "one array stays one array in the copy"
    assert got[1].updaters and got[1].updaters[0] is c.updaters[0]


def test_a_copy_moves_and_recolours_without_touching_the_original():
    t = Text("token", color=BLUE)
    before = [g.points.copy() for g in t.submobjects], t.get_fill_color()
    moved = _fast_copy(t).shift([2, 1, 0]).set_color(RED)
    assert all(np.array_equal(a, g.points) for a, g in zip(before[0], t.submobjects))
    assert t.get_fill_color() == before[1] and moved.get_fill_color() != before[1]


@settings(max_examples=25, deadline=None)
@given(st.tuples(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1), st.floats(0, 1)))
def test_a_colour_copies_its_four_numbers(rgba):
    c = ManimColor.from_rgba(rgba)
    got = color_deepcopy(c, {})
    assert got is not c and got._internal_value is not c._internal_value
    assert np.array_equal(got._internal_value, _manim_copy(c)._internal_value)


@pytest.mark.parametrize("text", ["the cat sat", "彼らは", "√d_k"])
def test_texts_of_each_script(text):
    _check(Text(text, font_size=24))
