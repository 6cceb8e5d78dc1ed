"""Section 22's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from attn_math.fmt import fmt_vec
from attn_math.story import Figure, Story, figure_table
from scenes.sections.s22_order_does_not_exist.derived import reorderings

__all__ = ["figures", "roles"]


def figures(s: Story) -> dict[str, Figure]:
    """Order does not exist."""
    return figure_table(("out_follow", s.O[s.follow], fmt_vec(s.O[s.follow])),
                        ("out_permuted", reorderings(s).permuted_outputs,
                         " ".join(fmt_vec(o) for o in reorderings(s).permuted_outputs)))


def roles(s: Story) -> dict[str, list[list[int]]]:
    """The shuffled reading orders, as ``figures --json`` lists them."""
    return {"permutations": reorderings(s).permutations}
