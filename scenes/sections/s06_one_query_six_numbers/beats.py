"""Section 6's beat plan: the caption each of its slots shows, in order, for a story.

Every comparison is between the numbers as displayed.

- s06: the walk reaches the matrix's maximum and minimum in row order (the maximum first
  within one row); the first one said opens with "no ceiling"/"no floor", the second
  with "nor"; ``*_self`` when the maximum sits on the diagonal; ``flat`` when both print
  alike (every score equal), and the minimum then says nothing.
"""

from __future__ import annotations

from attn_math.beats import Beat, Figures, fixed
from attn_math.story import Story

__all__ = ["plan", "extremes_order"]


def extremes_order(s: Story) -> list[str]:
    """``"max"`` and ``"min"`` in the order the walk reaches them."""
    return ["max", "min"] if s.max_cell[0] <= s.min_cell[0] else ["min", "max"]


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: its own figures), in order."""
    order = extremes_order(s)
    if figs["R_max"].text == figs["R_min"].text:
        marks = {"max": "flat", "min": None}
    else:
        on_self = s.max_cell[0] == s.max_cell[1]
        if order[0] == "max":
            marks = {"max": "peak_self" if on_self else "peak", "min": "bottom"}
        else:
            marks = {"min": "floor", "max": "ceiling_self" if on_self else "ceiling"}
    return fixed("intro", "walk") + [Beat(m, marks[m]) for m in order] + fixed("no_scale")
