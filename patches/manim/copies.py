"""A faster deep copy of manim's mobjects, equal in result to manim's own.

Every ``play`` copies what it animates (an animation keeps its starting state and its
target as copies), and a section plays a few hundred animations of texts made of many
glyphs. Manim's :meth:`Mobject.__deepcopy__` hands every attribute to :func:`copy.deepcopy`,
most of them numbers, flags, strings and enums that a deep copy returns as they are, and
each glyph's parsed SVG path (``path_obj``, an ``svgelements.Path`` of many segment and
point objects) that nothing reads once the glyph's points are made. Skipped renders (the
layout probe, the still frames, ``render.py script``'s timing pass) spend half their time
there.

:func:`fast_deepcopy` copies the same attributes to the same values: immutable values are
kept (as :func:`copy.deepcopy` keeps them), a :class:`~manim.ManimColor` gets its own
copy of its four numbers without the generic ``__reduce_ex__`` path (:func:`color_deepcopy`,
also for colours in lists), everything else goes
through :func:`copy.deepcopy` with the same memo (so arrays shared within a mobject stay
shared in its copy); ``path_obj`` alone is shared between a glyph and its copies instead
of copied (manim reads it only while making the glyph's points, in its constructor).
``tests/module/patches/manim/test_copies.py`` compares it with manim's own copy, attribute by
attribute; the control images are unchanged by it.
"""

from __future__ import annotations

import copy
import enum
import types

import numpy as np
from manim import ManimColor
from manim.mobject.mobject import Mobject

__all__ = ["MANIM_DEEPCOPY", "color_deepcopy", "fast_deepcopy", "install"]

#: manim's own ``Mobject.__deepcopy__`` (the reference the tests compare with).
MANIM_DEEPCOPY = Mobject.__deepcopy__

#: Types :func:`copy.deepcopy` returns unchanged (its ``_deepcopy_atomic`` table).
_ATOMIC = frozenset({type(None), int, float, bool, complex, str, bytes, type, range,
                     types.BuiltinFunctionType, types.FunctionType, type(Ellipsis),
                     type(NotImplemented), property})
#: Attributes shared between a mobject and its copies: read only while constructing.
_SHARED = frozenset({"path_obj"})


def color_deepcopy(self: ManimColor, memo: dict) -> ManimColor:
    """``copy.deepcopy(color)``: the same class and state, its array copied."""
    new = object.__new__(type(self))
    new.__dict__.update({key: value.copy() if isinstance(value, np.ndarray) else copy.deepcopy(value, memo)
                         for key, value in self.__dict__.items()})
    return new


def fast_deepcopy(self: Mobject, memo: dict) -> Mobject:
    """``copy.deepcopy(mobject)``, as manim's ``Mobject.__deepcopy__`` makes it."""
    cls = self.__class__
    result = cls.__new__(cls)
    memo[id(self)] = result
    attrs = result.__dict__
    deepcopy = copy.deepcopy
    for key, value in self.__dict__.items():
        kind = type(value)
        if kind in _ATOMIC or isinstance(value, enum.Enum) or key in _SHARED:
            attrs[key] = value
        else:
            attrs[key] = deepcopy(value, memo)
    result.original_id = str(id(self))
    return result


def install() -> None:
    """Make :func:`fast_deepcopy` the deep copy of every mobject and :func:`color_deepcopy`
    that of every colour (idempotent)."""
    Mobject.__deepcopy__ = fast_deepcopy
    ManimColor.__deepcopy__ = color_deepcopy
