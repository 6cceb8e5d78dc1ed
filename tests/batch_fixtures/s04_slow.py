"""A section that takes a few seconds of wall time, so a test can kill its worker mid-task.

When ``ATTN_BATCH_MARKS`` names a folder, the render writes ``04-slow.<pid>`` there as it starts
and ``04-slow.<pid>.done`` when its wait is over (one pair per attempt; the pid is the render
process's).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from manim import BLUE, Create, Scene, Square

from words import config

SECONDS = 4.0


class FxSlow(Scene):
    def construct(self):
        marks = os.environ.get("ATTN_BATCH_MARKS")
        if marks:
            Path(marks, f"04-slow.{os.getpid()}").write_text(config.current().lang)
        time.sleep(SECONDS)
        if marks:
            Path(marks, f"04-slow.{os.getpid()}.done").touch()
        self.play(Create(Square(color=BLUE)), run_time=0.6)
