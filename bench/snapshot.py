"""A copy of the project for a benchmark to render from, so that edits made while it runs
(or by the benchmark itself: bench_render edits a caption) never touch the working tree.

Everything ``render.py`` and the scenes import is copied: the pipeline, the scenes and their
math, the caption tables and the narration hook the scenes import; ``batch`` and ``slides``
for the benchmarks of those commands.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("render.py", "cli", "pipeline", "scenes", "words", "attn_math", "assets", "narration", "batch",
         "slides")


def snapshot(dest: Path) -> Path:
    """Copy the project's code and assets to ``dest/proj``; returns that folder."""
    proj = dest / "proj"
    shutil.rmtree(proj, ignore_errors=True)
    proj.mkdir(parents=True)
    for name in PARTS:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, proj / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif src.exists():
            shutil.copy2(src, proj / name)
    link_assets(proj)
    return proj


#: The name ``assets/`` installs under (``setup.py``): the code imports the data by it.
ASSETS_PACKAGE = "attn_explainer_assets"


def link_assets(proj: Path) -> None:
    """Make ``import attn_explainer_assets`` in ``proj`` find ``proj/assets``.

    The editable install maps that name to the checkout's ``assets/``; a copy of the
    project on ``PYTHONPATH`` (found before the install) must read its own data, or an edit
    to its captions would not be seen. A tree without ``assets/__init__.py`` predates the
    package and reads ``assets/`` by path.
    """
    if (proj / "assets" / "__init__.py").exists() and not (proj / ASSETS_PACKAGE).exists():
        (proj / ASSETS_PACKAGE).symlink_to("assets", target_is_directory=True)


def env_for(proj: Path, **extra: str) -> dict:
    """The environment a benchmark runs ``render.py`` with: the snapshot first on the path,
    no ``ATTN_*`` configuration inherited from the caller."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATTN_")}
    env.update(PYTHONPATH=str(proj), **extra)
    return env
