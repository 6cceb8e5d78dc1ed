"""The data files the program reads at run time, as package data.

The repository's ``assets/`` folder installs as the package ``attn_explainer_assets``
(``setup.py`` maps the name to the folder): a top-level package called ``assets`` would share
its name with any other distribution's stray ``assets`` folder in site-packages. Every reader
finds a file here through :mod:`importlib.resources`, so the same code works from a checkout
(an editable install maps the name to this folder), a wheel, ``pipx`` or ``uv tool``.

=========================  ===========================================================
``head.toml``              the default head (sentence, inputs, ``W_Q``, ``W_K``, ``W_V``)
``example_spec.toml``      the example of ``--spec`` the README shows
``captions/<lang>.toml``   every word a viewer reads, per section
``spoken/<lang>.toml``     the spoken forms of symbols and the narration's variants
=========================  ===========================================================
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

__all__ = ["AssetMissing", "asset_file", "assets_dir"]


class AssetMissing(FileNotFoundError):
    """A data file the installed package should hold is not there (a broken install)."""


def assets_dir() -> Path:
    """The folder that holds the data files, wherever this package was installed.

    Returns
    -------
    Path
        A real directory: wheels install unpacked, and the renderers hand these paths to
        subprocesses and hash their bytes, so a zipped install is refused here.
    """
    root = files(__name__)
    if not isinstance(root, Path):
        raise AssetMissing(f"{__name__} is not installed as files on disk ({root}); "
                           "install attn-explainer with pip, pipx or uv")
    return root


def asset_file(*parts: str) -> Path:
    """The data file at ``parts`` under :func:`assets_dir`.

    Raises
    ------
    AssetMissing
        The file is absent; the message (one line) names it and the fix.
    """
    path = assets_dir().joinpath(*parts)
    if not path.is_file():
        raise AssetMissing(f"{path}: missing from the installed package; reinstall "
                           "attn-explainer (pip install --force-reinstall attn-explainer)")
    return path
