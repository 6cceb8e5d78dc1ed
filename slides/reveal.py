"""reveal.js, taken from its npm package at a pinned version and copied beside the page.

The deck must work offline from ``file://``: nothing is ever loaded from a CDN. The set-up
(``scripts/bootstrap.sh``, through ``python -m slides.reveal``) runs ``npm pack`` for the
pinned version, checks the tarball against the pinned integrity and unpacks the files the
deck uses (:data:`FILES`) and the licence into :func:`vendor_dir`. A render never touches
the network: it copies those files next to ``index.html``.

To update: change :data:`VERSION` and :data:`INTEGRITY` (``npm view reveal.js@X dist.integrity``),
run ``python -m slides.reveal``, open a rendered deck, run ``tests/test_slides.py``.
"""

from __future__ import annotations

import base64
import hashlib
import shutil
import subprocess
import sys
import tarfile
import tempfile
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

_ROOT = Path(__file__).resolve().parent.parent


class RevealMissing(RuntimeError):
    """The pinned reveal.js is not unpacked yet (run the set-up)."""


def vendor_dir() -> Path:
    """Where the set-up unpacks reveal.js: ``$ATTN_REVEAL_DIR`` or ``vendor/reveal.js-<VERSION>``."""
    return config.REVEAL_DIR.read() or _ROOT / "vendor" / f"reveal.js-{VERSION}"


def check_installed() -> Path:
    """The unpacked package, or :class:`RevealMissing` naming the command that fixes it."""
    d = vendor_dir()
    missing = [f for f in FILES if not (d / f).is_file()]
    if missing:
        raise RevealMissing(f"reveal.js {VERSION} is not installed in {d} "
                            f"(run: bash scripts/bootstrap.sh --slides)")
    return d


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
                member = tar.getmember(f"package/{f}")
                unpacked = tar.extractfile(member)
                if unpacked is None:
                    raise RuntimeError(f"reveal.js {VERSION}: package/{f} is not a file")
                data = unpacked.read()
                (staging / f).parent.mkdir(parents=True, exist_ok=True)
                (staging / f).write_bytes(data)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(dest, ignore_errors=True)
        shutil.move(str(staging), dest)
    return dest


def main() -> None:
    """``python -m slides.reveal``: unpack the pinned reveal.js unless it is already there."""
    try:
        print(f"reveal.js {VERSION} already in {check_installed()}")
    except RevealMissing:
        print(f"reveal.js {VERSION} unpacked into {fetch()}")


if __name__ == "__main__":
    try:
        main()
    except (RevealMissing, RuntimeError, subprocess.CalledProcessError) as e:
        print(f"slides.reveal: {e}", file=sys.stderr)
        sys.exit(1)
