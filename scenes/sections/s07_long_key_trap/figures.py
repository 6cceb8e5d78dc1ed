"""Section 7's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from attn_math.fmt import fmt
from attn_math.story import Figure, Story, figure_table
from scenes.sections.s07_long_key_trap.derived import long_key_trap

__all__ = ["BORROWS", "caption_context", "figures", "roles"]

#: The slider moves in tenths.
STRETCH_STEP = 0.1

#: Figures of other sections (by slug) that this section's captions quote.
BORROWS = {"which-key": ("R_follow_winner",)}


def figures(s: Story) -> dict[str, Figure]:
    """The long-key trap."""
    cross = long_key_trap(s).stretch_cross
    lo = (np.floor(cross / STRETCH_STEP) * STRETCH_STEP if long_key_trap(s).stretch_overtakes
          else long_key_trap(s).stretch_max)
    hi = lo + STRETCH_STEP
    base = s.R[s.follow, long_key_trap(s).long_key]
    end = long_key_trap(s).stretch_max * base
    return figure_table(("stretch_cross", cross, fmt(cross, 2) if long_key_trap(s).stretch_overtakes else "∞"),
                        ("stretch_lo", lo, fmt(lo, 1)),
                        ("stretch_hi", hi, fmt(hi, 1)),
                        ("stretch_max", long_key_trap(s).stretch_max, fmt(long_key_trap(s).stretch_max, 1)),
                        ("R_follow_long", base, fmt(base)),
                        ("R_follow_long_end", end, fmt(end)),
                        # the rows whose leader the stretched key takes (the rerun, every row)
                        ("rows_taken", long_key_trap(s).rows_taken, str(len(long_key_trap(s).rows_taken))))


def roles(s: Story) -> dict[str, dict]:
    """Its role as ``figures --json`` lists it: the long key."""
    return {"long_key": s.role_json(long_key_trap(s).long_key)}


def caption_context(s: Story, figs: Mapping[str, Figure], lang: str | None) -> dict[str, str]:  # noqa: ARG001
    """The long key, named."""
    return {"long_key": s.token_name(long_key_trap(s).long_key, lang)}
