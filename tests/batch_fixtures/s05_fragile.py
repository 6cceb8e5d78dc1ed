"""A section that fails for one variant only: any sentence with the token ``boom``."""

from __future__ import annotations

import os
from pathlib import Path

from manim import RED, Circle, Create, Scene


class FxFragile(Scene):
    def construct(self):
        head = os.environ.get("ATTN_HEAD")
        if head and '"boom"' in Path(head).read_text(encoding="utf-8"):
            raise RuntimeError("the fragile fixture breaks on 'boom'")
        self.play(Create(Circle(color=RED)), run_time=0.6)
