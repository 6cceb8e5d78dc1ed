"""Section 22's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from attn_math.fmt import fmt_vec
from attn_math.story import Figure, Story, figure_table

__all__ = ["figures"]


def figures(s: Story) -> dict[str, Figure]:
    """Order does not exist."""
    return figure_table(("out_follow", s.O[s.follow], fmt_vec(s.O[s.follow])),
                        ("out_permuted", s.permuted_outputs,
                         " ".join(fmt_vec(o) for o in s.permuted_outputs)))
