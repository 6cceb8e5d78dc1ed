"""``--captions-file FILE``: the option, and its check before anything renders.

The file's format and its merge into the caption tables are :mod:`scenes.captions_file`;
here the command line checks it (bad input: one line, exit 2) and makes this process
read it too (the stitched video's title, slide titles and notes).
"""

from __future__ import annotations

import os
from pathlib import Path

import click

from .options import BadInput

__all__ = ["captions_file_option", "check_captions_file"]


def captions_file_option(f):
    """``--captions-file FILE`` for ``render``, ``stills``, ``slides`` and ``script``."""
    return click.option("--captions-file", "captions_file", default=None, metavar="FILE",
                        type=click.Path(path_type=Path, dir_okay=False),
                        help="A TOML file of your own words: the [sNN] tables and keys of "
                             "assets/captions/<lang>.toml (titles and ui_* words too), for "
                             "--lang or in [ja]/[en] tables.")(f)


def check_captions_file(path: Path | None, langs: tuple[str, ...]) -> Path | None:
    """``path`` resolved, after checking every entry against the packaged tables of
    ``langs`` (bad input otherwise); this process then reads it (``ATTN_CAPTIONS_FILE``)."""
    if path is None:
        return None
    from scenes import captions_file
    from scenes.captions import packaged

    try:
        captions_file.check(path, langs, {lang: packaged(lang) for lang in captions_file.LANGS})
    except captions_file.CaptionsFileError as e:
        raise BadInput(" ".join(str(e).split())) from None
    resolved = Path(path).resolve()
    os.environ[captions_file.ENV] = str(resolved)
    return resolved
