"""Where the sections are: the unit folders ``sNN_slug/``, built-in and from outside.

The built-in units are the package :mod:`scenes.sections`; folders named in
``ATTN_SECTION_DIRS`` (``os.pathsep``-separated; ``render.py --section-dir``) hold more
``sNN_slug/`` folders of the same shape, and join that package by being on its search path,
so they import as ``scenes.sections.sNN_slug`` like the built-in ones.

This module finds them without importing :mod:`scenes.sections`: the registry reads the
folders from here and the unit packages import the scene base, which reads the registry, so
an import of the sections package from the registry would close a loop. The package sets its
search path from :func:`search_path` when it is imported; :func:`unit_folders` brings the
path of an already imported package up to date (a folder named after it was imported).

Importing this module imports only ``words.config`` (no manim).
"""

from __future__ import annotations

import sys
from pathlib import Path

from words import config, units
from words.units import UNIT_NAME

__all__ = ["SectionFolderError", "PACKAGE", "UNIT_NAME", "BUILT_IN", "extra_dirs", "search_path",
           "follow_settings", "unit_folders"]

#: The package the units import under.
PACKAGE = "scenes.sections"
#: The built-in units' folder (the package's own): :data:`words.units.BUILT_IN`.
BUILT_IN = units.BUILT_IN


class SectionFolderError(ValueError):
    """A folder of sections that cannot be used (missing, or a number taken twice)."""


def extra_dirs() -> list[Path]:
    """The folders of outside sections of this run's settings (``--section-dir``), in order."""
    dirs = list(config.current().section_dirs)
    for d in dirs:
        if not d.is_dir():
            raise SectionFolderError(f"{config.SECTION_DIRS.name}: {d} is not a folder")
    return dirs


def search_path() -> list[str]:
    """The sections package's search path: the built-in folder, then the outside ones."""
    return [str(BUILT_IN), *(str(d) for d in extra_dirs())]


def follow_settings() -> list[str]:
    """Bring the sections package's search path (if it is imported) up to this run's settings,
    and return it: a process forked from one that imported the package with other settings
    calls it before it imports a section."""
    wanted = search_path()
    package = sys.modules.get(PACKAGE)
    if package is not None:
        package.__path__[:] = wanted  # the import system reads the package's path at each import
    return wanted


def unit_folders() -> list[tuple[int, Path]]:
    """Every unit folder (built-in and outside), as ``(number, folder)`` sorted by number.

    Raises
    ------
    SectionFolderError
        If two folders claim one number, or an outside unit's word files hold words of
        another section.
    """
    found: dict[int, Path] = {}
    for base in follow_settings():
        for number, folder in units.units_in(Path(base)):
            if number in found:
                raise SectionFolderError(
                    f"two sections numbered {number:02d}: {found[number]} and {folder}")
            found[number] = folder
            _check_words(folder)
    return sorted(found.items())


def _check_words(folder: Path) -> None:
    """A unit's word files hold only its own words (:mod:`words.units`)."""
    for kind in units.WORD_KINDS:
        for lang in config.LANGS:
            try:
                units.own_words(folder, kind, lang)
            except units.UnitWordsError as e:
                raise SectionFolderError(str(e)) from None
