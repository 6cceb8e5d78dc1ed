"""attn_math: the numbers behind the explainer, in pure numpy (no manim here).

``load_story()`` is the one entry point the scenes need: it reads the head named by
``ATTN_HEAD`` (default ``assets/head.toml``) and returns its :class:`Story`.
"""

from __future__ import annotations

from pathlib import Path

from words import config

from .fmt import MINUS, fmt, fmt_bytes, fmt_int, fmt_ratio, fmt_sci, fmt_vec
from .head import DEFAULT_HEAD_PATH, Head, HeadError, default_head, load_head, sentence_head
from .story import Figure, Story

__all__ = [
    "MINUS", "fmt", "fmt_bytes", "fmt_int", "fmt_ratio", "fmt_sci", "fmt_vec",
    "DEFAULT_HEAD_PATH", "Head", "HeadError", "default_head", "load_head", "sentence_head",
    "Figure", "Story", "load_story",
]


def load_story(path: str | Path | None = None) -> Story:
    """The story of the head at ``path``, else ``$ATTN_HEAD``, else the default head."""
    path = path or config.HEAD.read() or DEFAULT_HEAD_PATH
    return Story(load_head(path))
