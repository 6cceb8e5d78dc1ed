"""Section 8's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from collections.abc import Mapping

from attn_math import cost, prose
from attn_math.fmt import fmt_int
from attn_math.story import Figure, Story, figure_table

__all__ = ["caption_context", "figures"]

#: The context whose dot products it counts: "a 1,000-token context needs a million".
MILLION_CONTEXT = 1000


def caption_context(s: Story, figs: Mapping[str, Figure], lang: str | None) -> dict[str, str]:
    """Japanese prose writes 100万, not 1,000,000."""
    if lang != "ja":
        return {}
    return {"dots_1000": prose.compact_number(figs["dots_1000"].value, lang)}


def figures(s: Story) -> dict[str, Figure]:
    """The square."""
    dots = cost.dot_products(MILLION_CONTEXT)
    cross_n = cost.quadratic_overtakes_at(cost.GPT2_SMALL.d_model)
    return figure_table(("n_dots", s.n * s.n, fmt_int(s.n * s.n)),
                        ("context_1000", MILLION_CONTEXT, fmt_int(MILLION_CONTEXT)),
                        ("dots_1000", dots, fmt_int(dots)),
                        ("proj_cross_tokens", cross_n, fmt_int(cross_n)),
                        ("d_model", cost.GPT2_SMALL.d_model, fmt_int(cost.GPT2_SMALL.d_model)))
