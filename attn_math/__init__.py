"""attn_math: the numbers behind the explainer, in pure numpy (no manim here).

``load_story(path)`` reads the head at ``path`` (default ``assets/head.toml``) and returns its
:class:`Story`, with the figures of the sections it is given (the section registry,
:func:`scenes.registry.load_story`, gives every section's and the run's head).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .fmt import MINUS, fmt, fmt_bytes, fmt_int, fmt_ratio, fmt_sci, fmt_vec
from .head import DEFAULT_HEAD_PATH, Head, HeadError, default_head, load_head, sentence_head
from .story import Figure, SectionFigures, Story

__all__ = [
    "MINUS", "fmt", "fmt_bytes", "fmt_int", "fmt_ratio", "fmt_sci", "fmt_vec",
    "DEFAULT_HEAD_PATH", "Head", "HeadError", "default_head", "load_head", "sentence_head",
    "Figure", "SectionFigures", "Story", "load_story",
]


def load_story(path: str | Path | None = None, sections: Sequence[SectionFigures] = ()) -> Story:
    """The story of the head at ``path``, else the default head, with the figures of
    ``sections`` (the section registry's: :func:`scenes.registry.load_story`)."""
    path = path or DEFAULT_HEAD_PATH
    return Story(load_head(path), sections)
