"""Section 21's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from attn_math.fmt import fmt, fmt_vec
from attn_math.story import Figure, Story, figure_table
from scenes.sections.s21_inside_the_hull.derived import HULL_PULL_SCORE, hull, pulled_weights

__all__ = ["BORROWS", "caption_context", "figures", "roles"]

#: Figures of other sections (by slug) that this section's captions quote.
BORROWS = {"mixing-chain": ("out_follow",)}


def figures(s: Story) -> dict[str, Figure]:
    """Inside the hull."""
    h = hull(s).hull_token
    pulled = pulled_weights(s, HULL_PULL_SCORE)
    gap = float(np.linalg.norm(s.V[h] - hull(s).out_pulled))
    return figure_table(("hull_score", HULL_PULL_SCORE, fmt(HULL_PULL_SCORE)),
                        ("out_pulled", hull(s).out_pulled, fmt_vec(hull(s).out_pulled)),
                        ("v_hull", s.V[h], fmt_vec(s.V[h])),
                        ("w_hull_pulled", pulled[h], fmt(pulled[h], 3)),
                        ("hull_gap", gap, fmt(gap, 3)))


def roles(s: Story) -> dict[str, dict]:
    """Its role as ``figures --json`` lists it: the hull token."""
    return {"hull_token": s.role_json(hull(s).hull_token)}


def caption_context(s: Story, figs: Mapping[str, Figure], lang: str | None) -> dict[str, str]:  # noqa: ARG001
    """The hull token, named."""
    return {"hull_token": s.token_name(hull(s).hull_token, lang)}
