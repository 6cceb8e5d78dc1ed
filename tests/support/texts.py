"""A manim ``Text`` built by a chosen build (:mod:`patches.manim.text` or manim's own), whichever
is installed: for the tests that compare the two, or need manim's glyphs as they are."""

from __future__ import annotations

from manim import Text

__all__ = ["text_built_by"]


def text_built_by(generate, *args, **kwargs) -> Text:
    """``Text(*args, **kwargs)`` with ``generate`` as its ``generate_mobject`` for this one build."""
    saved = Text.generate_mobject
    Text.generate_mobject = generate
    try:
        return Text(*args, **kwargs)
    finally:
        Text.generate_mobject = saved
