"""reveal.js, taken from its npm package at a pinned version and copied beside the page.

The deck must work offline from ``file://``: nothing is ever loaded from a CDN. The files
the deck uses (:data:`FILES`) and reveal.js's MIT licence ship inside this package
(``slides/vendor/reveal.js/``, package data), so a wheel, ``pipx`` or ``uv tool`` install
builds the HTML deck with no npm and no network. ``python -m slides.reveal`` wrote them:
it runs ``npm pack`` for the pinned version, checks the tarball against the pinned
integrity and unpacks :data:`FILES`. A render copies them next to ``index.html``.

To update: change :data:`VERSION` and :data:`INTEGRITY` (``npm view reveal.js@X dist.integrity``),
run ``python -m slides.reveal --update``, open a rendered deck, run ``tests/module/slides/test_slides.py``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from importlib.resources import files
from pathlib import Path

from words import config

VERSION = "6.0.2"
#: ``npm view reveal.js@6.0.2 dist.integrity``: the tarball is refused if it differs.
INTEGRITY = "sha512-JYIg5D9aoxoaLeb84O+OvAwsKWdIavVgEDScxtYEXFCT6t6TQrhNtSgogcjdCpdLsWglhJn3zyE3fUOwiH5KEg=="
#: What the deck loads (paths inside the package). The black and white themes embed their
#: fonts as data: URLs; the other themes import web fonts, so they are left out.
FILES = ("LICENSE", "package.json", "dist/reset.css", "dist/reveal.css", "dist/reveal.js",
         "dist/theme/black.css", "dist/theme/white.css", "dist/plugin/notes.js")
#: The folder beside index.html.
DIRNAME = "reveal.js"

#: The package-data folder that holds :data:`FILES` (inside this package).
PACKAGED = ("vendor", "reveal.js")


class RevealMissing(RuntimeError):
    """The pinned reveal.js is not where the deck looks for it; the message names the fix."""


def vendor_dir() -> Path:
    """Where the deck's reveal.js files are: ``$ATTN_REVEAL_DIR``, else the copy installed
    with this package."""
    return config.current().reveal_dir or Path(str(files(__package__).joinpath(*PACKAGED)))


def check_installed() -> Path:
    """The folder with every file of :data:`FILES` at :data:`VERSION`, or
    :class:`RevealMissing` naming the command that fixes it."""
    d = vendor_dir()
    missing = [f for f in FILES if not (d / f).is_file()]
    if not missing and _version(d) == VERSION:
        return d
    if config.current().reveal_dir is not None:
        fix = f"unset {config.REVEAL_DIR.name}, or run: python -m slides.reveal --update"
    else:
        fix = "reinstall attn-explainer (pip install --force-reinstall attn-explainer)"
    found = f"{len(missing)} of its files missing" if missing else f"version {_version(d)} found"
    raise RevealMissing(f"reveal.js {VERSION} is not installed in {d} ({found}): {fix}")


def _version(folder: Path) -> str:
    try:
        return str(json.loads((folder / "package.json").read_text(encoding="utf-8"))["version"])
    except (OSError, ValueError, KeyError):
        return "?"


def copy_beside(dest: Path) -> None:
    """Copy the deck's reveal.js files into ``dest`` (a folder next to index.html)."""
    src = check_installed()
    for f in FILES:
        target = dest / f
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src / f, target)


def _integrity(data: bytes) -> str:
    algo, _, _ = INTEGRITY.partition("-")
    return f"{algo}-" + base64.b64encode(hashlib.new(algo, data).digest()).decode()


def fetch(dest: Path | None = None) -> Path:
    """``npm pack reveal.js@VERSION``, check its integrity, unpack :data:`FILES` into ``dest``."""
    dest = dest or vendor_dir()
    npm = shutil.which("npm")
    if npm is None:
        raise RevealMissing("npm is not installed (Debian: apt-get install npm)")
    with tempfile.TemporaryDirectory(prefix="reveal-") as tmp:
        subprocess.run([npm, "pack", f"reveal.js@{VERSION}", "--pack-destination", tmp,
                        "--silent"], check=True, stdout=subprocess.DEVNULL)
        tgz = Path(tmp) / f"reveal.js-{VERSION}.tgz"
        got = _integrity(tgz.read_bytes())
        if got != INTEGRITY:
            raise RuntimeError(f"reveal.js {VERSION} tarball integrity {got} != pinned {INTEGRITY}")
        staging = Path(tmp) / "unpacked"
        with tarfile.open(tgz) as tar:
            for f in FILES:
                member = tar.extractfile(f"package/{f}")
                if member is None:  # a folder or a link where the deck needs a file
                    raise RuntimeError(f"reveal.js {VERSION} tarball: package/{f} is not a file")
                data = member.read()
                (staging / f).parent.mkdir(parents=True, exist_ok=True)
                (staging / f).write_bytes(data)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(dest, ignore_errors=True)
        shutil.move(str(staging), dest)
    return dest


def main(argv: list[str] | None = None) -> None:
    """``python -m slides.reveal [--update]``: say where the pinned reveal.js is; with
    ``--update`` (or when it is missing), fetch and unpack it there."""
    args = sys.argv[1:] if argv is None else argv
    if "--update" not in args:
        try:
            print(f"reveal.js {VERSION} already in {check_installed()}")
            return
        except RevealMissing:
            pass
    print(f"reveal.js {VERSION} unpacked into {fetch()}")


if __name__ == "__main__":
    try:
        main()
    except (RevealMissing, RuntimeError, subprocess.CalledProcessError) as e:
        print(f"slides.reveal: {e}", file=sys.stderr)
        sys.exit(1)
