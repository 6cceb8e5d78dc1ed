"""Each section's one-sentence summary (``[summaries]`` of the caption tables): with the
section's title, the text alternative of its video and its still.

The tables are the ones beside the registry's project (``<root>/assets/captions``), so a
project of its own (the test fixtures) brings its own summaries. A summary may name roles
through the captions' placeholders (``{follow}``), filled from the story as captions are.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path

__all__ = ["TABLE", "summaries_of", "summary"]

#: The caption tables' table of summaries, keyed by ``sNN``.
TABLE = "summaries"


def summaries_of(root: Path, lang: str) -> dict[str, str]:
    """The ``[summaries]`` table of ``root``'s caption file in ``lang`` (empty if it has none),
    with every section's own (in its folder, built in or from outside: :mod:`words.units`)."""
    from words import config, units

    path = Path(root) / "assets" / "captions" / f"{lang}.toml"
    data = {}
    if path.is_file():
        with open(path, "rb") as f:
            data = tomllib.load(f)
    built_in = Path(root) / "scenes" / "sections"  # the project's own sections, where their words are
    data = units.with_units(data, (built_in, *config.current().section_dirs), "captions", lang)
    return dict(data.get(TABLE, {}))


def summary(table: Mapping[str, str], number: int, context: Callable[[], Mapping[str, str]]) -> str:
    """Section ``number``'s summary from ``table``, its placeholders filled from ``context()``
    (called only when the summary has any); "" when the table has none for it."""
    from words import captions

    text = table.get(captions.section_key(number), "")
    if not captions.placeholders(text):
        return text
    return text.format_map(_Strict(context()))


class _Strict(dict):
    """A placeholder the story cannot fill is an error, as in a caption."""

    def __missing__(self, key):
        raise KeyError(f"summary placeholder {{{key}}} has no value in the story")
