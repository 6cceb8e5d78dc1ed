"""A section's folder, ``sNN_slug/``: the one rule for what counts as one, and the words it brings.

The registry (:mod:`scenes.folders`) finds the sections by this rule and the word tables
(:mod:`words.captions`, :mod:`words.spoken`, the slides' summaries) read a folder's own words
by it, so a folder is either a section everywhere or nowhere. Every section, built in
(:data:`BUILT_IN`) or from outside the repository (``--section-dir``), keeps beside its scene:

- ``captions/<lang>.toml``: its ``[sNN]`` beats, and its entries ``sNN`` (and ``sNN_n``) of
  ``[titles]`` and ``[summaries]``;
- ``spoken/<lang>.toml``: its ``[sNN]`` spoken variants.

The shared tables (``assets/captions/<lang>.toml``: ``[titles]`` of the video, ``[deck]``, ...;
``assets/spoken/<lang>.toml``: the readings) hold no section's words, so deleting a section's
folder deletes all of them. Anything else in a unit's files would change another section's
words without a word said; it is an error (:class:`UnitWordsError`), reported when the
registry loads.

No manim, and nothing of the project but this package: the bottom layer.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from pathlib import Path

__all__ = ["BUILT_IN", "UNIT_NAME", "WORD_KINDS", "UnitWordsError", "unit_number", "units_in", "own_words",
           "with_units", "word_dirs"]

#: The built-in units' folder: the package ``scenes.sections`` (found here by its path, so that
#: this bottom layer imports nothing of the scenes).
BUILT_IN = Path(__file__).resolve().parent.parent / "scenes" / "sections"

#: A unit's folder name: ``s`` + its two-digit number + ``_`` + its slug (underscores).
UNIT_NAME = re.compile(r"s(\d\d)_([a-z][a-z0-9_]*)")
#: The word files a unit folder may hold, by kind: ``<kind>/<lang>.toml``.
WORD_KINDS = ("captions", "spoken")
#: Shared tables in which a unit may add entries of its own (keyed ``sNN`` or ``sNN_n``).
_SHARED_TABLES = {"captions": ("titles", "summaries"), "spoken": ()}


class UnitWordsError(ValueError):
    """A unit's word file holds words that are not its own."""


def unit_number(folder: Path) -> int | None:
    """The section number of ``folder`` if it is a unit (its name is ``sNN_slug`` and it is a
    package), else None."""
    m = UNIT_NAME.fullmatch(folder.name)
    if m is None or not (folder / "__init__.py").is_file():
        return None
    return int(m[1])


def units_in(base: Path) -> list[tuple[int, Path]]:
    """The unit folders directly in ``base``, as ``(number, folder)`` in name order."""
    found = []
    for folder in sorted(Path(base).iterdir()):
        number = unit_number(folder)
        if number is not None:
            found.append((number, folder))
    return found


def own_words(folder: Path, kind: str, lang: str) -> dict:
    """The words unit ``folder`` brings of ``kind`` (:data:`WORD_KINDS`) in ``lang``: the
    parsed ``<kind>/<lang>.toml``, or ``{}`` when it has none.

    Raises
    ------
    UnitWordsError
        If the file holds a table or entry of another section, or a shared table the unit may
        not add to.
    """
    number = unit_number(folder)
    path = folder / kind / f"{lang}.toml"
    if number is None or not path.is_file():
        return {}
    with open(path, "rb") as f:
        data = tomllib.load(f)
    key = f"s{number:02d}"
    for name, value in data.items():
        if name == key and isinstance(value, dict):
            continue
        if name in _SHARED_TABLES[kind] and isinstance(value, dict):
            foreign = [k for k in value if k not in (key, f"{key}_n")]
            if not foreign:
                continue
            raise UnitWordsError(f"{path}: [{name}] {foreign[0]} is not this section's entry "
                                 f"(a section's own words use {key} and {key}_n)")
        raise UnitWordsError(f"{path}: [{name}] is not this section's table (a section's "
                             f"{kind} hold [{key}]"
                             + "".join(f" and {key} in [{t}]" for t in _SHARED_TABLES[kind]) + ")")
    return data


def word_dirs(extra: Iterable[Path] = ()) -> tuple[Path, ...]:
    """The folders whose units bring words: the built-in one, then ``extra`` (the outside
    folders, :data:`words.config.SECTION_DIRS`)."""
    return (BUILT_IN, *extra)


def with_units(data: dict, dirs: Iterable[Path], kind: str, lang: str) -> dict:
    """``data`` (a parsed word table) with the words every unit in ``dirs`` brings of ``kind``
    in ``lang`` merged in: its own tables added, its entries of shared tables added to them."""
    merged = dict(data)
    for base in dirs:
        if not Path(base).is_dir():
            continue
        for _, folder in units_in(base):
            for name, value in own_words(folder, kind, lang).items():
                merged[name] = {**merged.get(name, {}), **value}
    return merged
