"""Section 23's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from collections.abc import Mapping

from attn_math import cost
from attn_math.fmt import fmt_bytes, fmt_int, fmt_ratio
from attn_math.story import Figure, Story, figure_table

__all__ = ["caption_context", "figures"]

#: The bytes axis' ticks: 1 KiB, 1 MiB, 1 GiB.
BYTE_TICKS = (1024, 1024 ** 2, 1024 ** 3)


def caption_context(s: Story, figs: Mapping[str, Figure], lang: str | None) -> dict[str, str]:
    """Prose says "171 倍" / "171 times" (the caption adds the word), not "171x"."""
    if lang is None:
        return {}
    return {"bill_ratio": figs["bill_ratio"].text.rstrip("x")}


def figures(s: Story) -> dict[str, Figure]:
    """The bill."""
    m = cost.GPT2_SMALL
    head_b = cost.score_matrix_bytes(m.context)
    model_b = cost.model_score_bytes(m.context)
    long_b = cost.score_matrix_bytes(cost.LONG_CONTEXT)
    tok_b = cost.token_bytes(cost.LONG_CONTEXT)
    # The bytes axis' tick labels, in whole units.
    ticks = figure_table(*((f"bytes_tick_{k}", v, fmt_bytes(v, 0)) for k, v in enumerate(BYTE_TICKS)))
    return figure_table(("context", m.context, fmt_int(m.context)),
                        ("head_bytes", head_b, fmt_bytes(head_b)),
                        ("layers", m.n_layers, str(m.n_layers)),
                        ("heads", m.n_heads, str(m.n_heads)),
                        ("model_bytes", model_b, fmt_bytes(model_b, 0)),
                        ("long_context", cost.LONG_CONTEXT, fmt_int(cost.LONG_CONTEXT)),
                        ("long_bytes", long_b, fmt_bytes(long_b)),
                        ("token_bytes", tok_b, fmt_bytes(tok_b)),
                        ("bill_ratio", long_b / tok_b, fmt_ratio(long_b / tok_b)),
                        ("d_model", m.d_model, fmt_int(m.d_model))) | ticks
