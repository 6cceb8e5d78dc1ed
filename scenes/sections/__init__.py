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

Which folders those are is :mod:`scenes.folders` (the registry reads them there, so that
it never imports this package, whose units import the scene base, which reads the registry).
Importing this package imports only :mod:`scenes.folders` (no manim).
"""

from __future__ import annotations

from scenes.folders import search_path

__all__: list[str] = []

__path__[:] = search_path()
