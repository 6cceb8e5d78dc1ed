"""The sections and the title cards, one folder each: ``sNN_slug/``.

A folder is a package holding everything of one section: ``__init__.py`` names its scene
class (``SCENE``; ``CARD = True`` for a title card), ``scene.py`` is the scene (manim),
``figures.py`` computes the numbers it shows and ``beats.py`` plans its captions (both
manim-free), and any part only it uses sits beside them. ``NN`` places the section in the
video and keys its captions (``[sNN]``); the slug names its clip.

Sections written outside the repository join this package: each folder named in
``ATTN_SECTION_DIRS`` (``os.pathsep``-separated; ``render.py --section-dir``) holds more
``sNN_slug/`` folders of the same shape, plus their words (``captions/<lang>.toml``).
They import as ``scenes.sections.sNN_slug`` like the built-in ones, so the pipeline's
workers and the plain manim CLI find them by the same name.

Importing this package imports nothing else (no manim).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

__all__ = ["SECTION_DIRS_VAR", "SectionFolderError", "UNIT_NAME", "extra_dirs", "unit_folders"]

#: The environment variable naming folders of sections from outside the repository.
SECTION_DIRS_VAR = "ATTN_SECTION_DIRS"
#: A unit's folder name: ``s`` + its two-digit number + ``_`` + its slug (underscores).
UNIT_NAME = re.compile(r"s(\d\d)_([a-z][a-z0-9_]*)")

_BUILT_IN = str(Path(__file__).resolve().parent)


class SectionFolderError(ValueError):
    """A folder of sections that cannot be used (missing, or a number taken twice)."""


def extra_dirs() -> list[Path]:
    """The folders of outside sections named by ``ATTN_SECTION_DIRS``, in order."""
    value = os.environ.get(SECTION_DIRS_VAR, "")
    dirs = [Path(p).expanduser().resolve() for p in value.split(os.pathsep) if p.strip()]
    for d in dirs:
        if not d.is_dir():
            raise SectionFolderError(f"{SECTION_DIRS_VAR}: {d} is not a folder")
    return dirs


def _sync_path() -> list[str]:
    """This package's search path: the built-in folder, then the outside ones."""
    wanted = [_BUILT_IN, *(str(d) for d in extra_dirs())]
    __path__[:] = wanted  # the import system reads the package's path at each import
    return wanted


def unit_folders() -> list[tuple[int, Path]]:
    """Every unit folder (built-in and outside), as ``(number, folder)`` sorted by number.

    Raises
    ------
    SectionFolderError
        If two folders claim one number.
    """
    found: dict[int, Path] = {}
    for base in _sync_path():
        for folder in sorted(Path(base).iterdir()):
            m = UNIT_NAME.fullmatch(folder.name)
            if not m or not (folder / "__init__.py").is_file():
                continue
            number = int(m[1])
            if number in found:
                raise SectionFolderError(
                    f"two sections numbered {number:02d}: {found[number]} and {folder}")
            found[number] = folder
    return sorted(found.items())


_sync_path()
