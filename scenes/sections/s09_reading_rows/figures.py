"""Section 9's figures: every number it shows, computed from the story and formatted once."""

from __future__ import annotations

from collections.abc import Mapping

from attn_math.fmt import fmt
from attn_math.story import Figure, Story, figure_table
from scenes.sections.s09_reading_rows.derived import flattest_row, shown_range

__all__ = ["caption_context", "figures", "roles"]


def figures(s: Story) -> dict[str, Figure]:
    """Reading rows."""
    f, w, fr = s.follow, s.winner, flattest_row(s)
    # The range is read off the row's displayed numbers, so "max − min" agrees with the
    # two values on screen (the exact range can round the other way).
    return figure_table(("S_follow_winner", s.S[f, w], fmt(s.S[f, w])),
                        ("flattest_range", s.S[fr].max() - s.S[fr].min(), fmt(shown_range(s, fr))))


def roles(s: Story) -> dict[str, dict]:
    """Its role as ``figures --json`` lists it: the flattest row."""
    return {"flattest_row": s.role_json(flattest_row(s))}


def caption_context(s: Story, figs: Mapping[str, Figure], lang: str | None) -> dict[str, str]:  # noqa: ARG001
    """The flattest row, named."""
    return {"flattest": s.token_name(flattest_row(s), lang)}
