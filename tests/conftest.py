"""Shared pytest set-up: the ``--set_test`` option regenerates scene control images."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# Scenes read their configuration from the environment; start every run from the defaults.
for var in ("ATTN_LANG", "ATTN_THEME", "ATTN_CAPTIONS", "ATTN_HEAD"):
    os.environ.pop(var, None)


# Under pytest-xdist every worker is a process of its own: give each its own manim media
# directory, so two workers never write (and read half-written) the same cached text SVG.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER")
if _WORKER:
    import atexit
    import shutil
    import tempfile

    from manim import config as _manim_config

    _manim_config.media_dir = tempfile.mkdtemp(prefix=f"attn-tests-{_WORKER}-")
    atexit.register(shutil.rmtree, _manim_config.media_dir, ignore_errors=True)


def pytest_addoption(parser):
    parser.addoption("--set_test", action="store_true", default=False,
                     help="write the scene control images instead of comparing against them")


def pytest_configure(config):
    config.addinivalue_line("markers", "scene: renders a manim scene (slower)")
