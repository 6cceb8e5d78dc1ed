"""The deck's output formats: one :class:`SlideFormat` per ``--format`` name, in :data:`SLIDE_FORMATS`.

Everything that differs by format is a field of its row: its file, what it is (for the
command's help), how it is written, what it needs on this machine, the files it loads from
beside it and the libraries whose versions key it. ``--format`` and its help, the check
before rendering, the manifest's keys, the studio's list of outputs and the code digest
follow from the table; nothing else names a format. Importing this module is cheap (the
command line reads the table for its help): the writers are imported when they write.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pipeline.files import atomic_write, publish, tmp_name, unlink
from pipeline.options import BadInput

from .deck import Deck

__all__ = ["SlideFormat", "SLIDE_FORMATS", "SLIDES_DIR", "parse_formats", "check_can_write",
           "files", "libraries"]

#: The folder of ``--out`` the deck is written to.
SLIDES_DIR = "slides"


def _replace_from_tmp(dest: Path, write: Callable[[Path], object]) -> None:
    """``write`` the file under a temporary name, then rename it to ``dest``."""
    tmp = tmp_name(dest)
    try:
        write(tmp)
        os.replace(tmp, dest)
    finally:
        unlink(tmp)


def _needs_nothing() -> None:
    pass


def _nothing_beside(deck: Deck, folder: Path) -> list[Path]:  # noqa: ARG001 - one file
    return []


def _write_pptx(deck: Deck, dest: Path) -> None:
    from .pptx_deck import write_pptx

    _replace_from_tmp(dest, lambda tmp: write_pptx(deck, tmp))


def _write_pdf(deck: Deck, dest: Path) -> None:
    from .pdf_handout import write_pdf

    _replace_from_tmp(dest, lambda tmp: write_pdf(deck, tmp))


def _write_html(deck: Deck, dest: Path) -> None:
    from . import html_deck

    folder = dest.parent
    page = html_deck.write_html(deck, folder, publish)
    atomic_write(dest, page)   # last: the page appears when its media are in place
    keep = {name.split("/", 1)[1] for name in html_deck.media_names(deck)}
    media = folder / html_deck.MEDIA_DIR
    for f in media.iterdir() if media.is_dir() else ():
        if f.is_file() and f.name not in keep:
            unlink(f)


def _html_beside(deck: Deck, folder: Path) -> list[Path]:
    from . import html_deck, reveal

    need = [folder / name for name in html_deck.media_names(deck)]
    return need + [folder / reveal.DIRNAME / f for f in reveal.FILES]


def _check_reveal() -> None:
    from . import reveal

    try:
        reveal.check_installed()
    except reveal.RevealMissing as e:
        raise BadInput(str(e)) from None


def _check_cjk_font() -> None:
    from .style import CJK_FONT_FILES, find_font

    if find_font(CJK_FONT_FILES) is None:
        raise BadInput("the handout needs Noto Sans CJK (Debian: apt-get install fonts-noto-cjk)")


@dataclass(frozen=True)
class SlideFormat:
    """One output of ``slides``.

    Attributes
    ----------
    name
        Its ``--format`` name.
    file
        Its file in ``OUT/slides``.
    write
        Writes the deck to that file (``write(deck, dest)``), complete or not at all.
    about
        What the file is, a few words for ``render.py slides --help``.
    check
        Raises :class:`BadInput` if this machine cannot write it (checked before rendering).
        A format that needs something installed also has a check in ``cli/doctor.py``
        whose ``needed_by`` names ``slides --format NAME`` (a test holds the two together).
    beside
        The files the output loads from beside it (``beside(deck, folder)``): an output
        is current only if they are all there.
    libraries
        The distributions that write it: their versions are part of the outputs' key.
    """

    name: str
    file: str
    write: Callable[[Deck, Path], None]
    about: str = ""
    check: Callable[[], None] = _needs_nothing
    beside: Callable[[Deck, Path], list[Path]] = _nothing_beside
    libraries: tuple[str, ...] = ()


#: Every slide format, by ``--format`` name, in the order they are written and listed.
SLIDE_FORMATS: dict[str, SlideFormat] = {f.name: f for f in (
    SlideFormat("pptx", "explainer.pptx", _write_pptx, about="a PowerPoint deck: clips embedded, autoplay, notes",
                libraries=("python-pptx",)),
    SlideFormat("html", "index.html", _write_html, about="a reveal.js deck, offline", check=_check_reveal,
                beside=_html_beside),
    SlideFormat("pdf", "handout.pdf", _write_pdf, about="a PDF handout, one page per section", check=_check_cjk_font,
                libraries=("fpdf2",)),
)}


def parse_formats(spec: str | None) -> tuple[SlideFormat, ...]:
    """``"pptx,html"`` -> those formats in canonical order; unknown names are :class:`BadInput`."""
    if spec is None or spec.strip().lower() == "all":
        return tuple(SLIDE_FORMATS.values())
    asked = [f.strip().lower() for f in spec.split(",") if f.strip()]
    bad = [f for f in asked if f not in SLIDE_FORMATS]
    if bad or not asked:
        raise BadInput(f"unknown --format {', '.join(bad) or repr(spec)} (choose from {', '.join(SLIDE_FORMATS)})")
    return tuple(f for f in SLIDE_FORMATS.values() if f.name in asked)


def check_can_write(formats: tuple[SlideFormat, ...]) -> None:
    """What the asked formats need on this machine, checked before anything renders."""
    for f in formats:
        f.check()


def files() -> list[str]:
    """Every format's file under ``--out``, in table order (``slides/explainer.pptx``, ...)."""
    return [f"{SLIDES_DIR}/{f.file}" for f in SLIDE_FORMATS.values()]


def libraries() -> tuple[str, ...]:
    """The distributions that write the formats, each once, in table order."""
    return tuple(dict.fromkeys(lib for f in SLIDE_FORMATS.values() for lib in f.libraries))
