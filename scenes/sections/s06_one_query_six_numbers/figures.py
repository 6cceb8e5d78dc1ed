"""Section 6's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from collections.abc import Mapping

from attn_math.fmt import fmt
from attn_math.story import Figure, Story, figure_table
from scenes.sections.s06_one_query_six_numbers.derived import extreme_cells

__all__ = ["caption_context", "figures", "roles"]


def figures(s: Story) -> dict[str, Figure]:
    """One query, six numbers: the extreme cells."""
    hi, lo = s.R[extreme_cells(s).max_cell], s.R[extreme_cells(s).min_cell]
    return figure_table(("R_max", hi, fmt(hi)), ("R_min", lo, fmt(lo)))


def roles(s: Story) -> dict[str, dict]:
    """Its roles as ``figures --json`` lists them: the extreme cells."""
    cells = extreme_cells(s)
    return {"max_cell": s.role_json(cells.max_cell), "min_cell": s.role_json(cells.min_cell)}


def caption_context(s: Story, figs: Mapping[str, Figure], lang: str | None) -> dict[str, str]:  # noqa: ARG001
    """The row and column of each extreme cell, named."""
    cells = extreme_cells(s)
    return {"max_row": s.token_name(cells.max_cell[0], lang), "max_col": s.token_name(cells.max_cell[1], lang),
            "min_row": s.token_name(cells.min_cell[0], lang), "min_col": s.token_name(cells.min_cell[1], lang)}
