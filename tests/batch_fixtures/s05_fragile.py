"""A section that fails for one variant only: any sentence with the token ``boom``."""

from __future__ import annotations

from pathlib import Path

from manim import RED, Circle, Create, Scene

from words import config


class FxFragile(Scene):
    def construct(self):
        head = config.current().head
        if head and '"boom"' in Path(head).read_text(encoding="utf-8"):
            raise RuntimeError("the fragile fixture breaks on 'boom'")
        self.play(Create(Circle(color=RED)), run_time=0.6)
