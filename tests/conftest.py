"""Shared pytest set-up: the ``--set_test`` option (regenerates scene control images), one
media directory per xdist worker, and the order the work is handed out (longest first)."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# A run's settings are read from the environment where no command built them: start every
# test from the defaults.
for var in ("ATTN_LANG", "ATTN_THEME", "ATTN_CAPTIONS", "ATTN_HEAD"):
    os.environ.pop(var, None)

# Tests stop the commands they start with Ctrl-C (SIGINT), as a terminal delivers it. A shell
# starts a background job (`pytest ... &` in a script, nohup) with SIGINT ignored, and every
# process inherits that: those commands would then never see the signal (a recorder serving on,
# a batch running to its end). Take SIGINT as an interactive run does, here and so in every
# worker and child.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


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
    config.addinivalue_line(
        "markers", "slow: renders sections or drives an external program (LibreOffice, Chromium, "
        "Dask, a voice); the fast tier is `-m 'not slow'` (`bash scripts/dev.sh test --fast`)")


#: The xdist groups (each kept on one worker: their module fixtures render a fixture project,
#: start a cluster or build a deck once), longest first by the suite's ``--durations`` on
#: this 2-core machine. Under ``--dist loadgroup`` a group is one unit of work: sent late, it
#: keeps one worker busy while the other idles, so the longest go first; a group not listed
#: follows the listed ones.
GROUPED_LONGEST_FIRST = ("narration", "batch", "faults", "install", "recordings", "captions_file", "voices",
                         "flash", "render", "slides", "stepped", "recorder", "subtitles", "external_section",
                         "accessible-slides", "transcript")


def _group(item) -> str | None:
    marker = item.get_closest_marker("xdist_group")
    return (marker.args[0] if marker.args else marker.kwargs.get("name")) if marker else None


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects: the fast tier renders nothing
def pytest_itemcollected(item):
    """A test that renders a scene is slow, whether or not it says so."""
    if item.get_closest_marker("scene") and not item.get_closest_marker("slow"):
        item.add_marker(pytest.mark.slow)


@pytest.hookimpl(trylast=True)   # after any plugin that shuffles the order
def pytest_collection_modifyitems(session, config, items):
    """Order the work longest first: the grouped tests, then the scene renders (each a test
    of its own), then the other slow tests, then the fast ones (which fill the gaps at the
    end); the order within each part is kept. Every xdist worker collects the same order, as
    xdist requires."""
    def rank(item) -> tuple[int, int]:
        group = _group(item)
        if group is not None:
            known = group in GROUPED_LONGEST_FIRST
            return (0, GROUPED_LONGEST_FIRST.index(group) if known else len(GROUPED_LONGEST_FIRST))
        if item.get_closest_marker("scene"):
            return (1, 0)
        return (2, 0) if item.get_closest_marker("slow") else (3, 0)

    items.sort(key=rank)


@pytest.fixture(autouse=True)
def _settings_of_one_test_stay_in_it():
    """Every test starts from the settings of its environment and ends with the environment it
    started with: a command run in-process (click's runner) installs its settings (a custom
    sentence's head, a captions file), which would otherwise reach the next test of the same
    xdist worker; a test's ``monkeypatch.setenv`` of an ``ATTN_*`` variable is read at its
    first :func:`words.config.current`, as a process started with it would."""
    from words import config

    saved = dict(os.environ)
    config.use(None)
    yield
    config.use(None)
    if os.environ != saved:
        os.environ.clear()
        os.environ.update(saved)
