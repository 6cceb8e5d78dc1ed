"""The suite's ``--dist loadgroup`` really keeps an ``xdist_group`` on one worker.

The grouped modules (batch, render, slides, narration) build expensive module fixtures (a
narrated render per language, a deck through LibreOffice, a Dask cluster) once per worker that
runs them. pytest 9.2 changed how node ids are stored, and pytest-xdist 3.8's loadgroup, which
marks a group by rewriting the node id, silently stopped grouping (pytest-xdist issue #1386):
the narration module then rendered each language twice, once on each worker (about 220 s of a
CI run). This runs a tiny suite the way ``pyproject.toml`` runs ours and counts the set-ups.
"""

from __future__ import annotations

import subprocess
import sys

SUITE = '''
import os
import pytest

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("expensive")]


@pytest.fixture(scope="module", params=["ja", "en"])
def render(request):
    with open(os.environ["SETUP_LOG"], "a") as log:
        log.write(f"{request.param} {os.environ.get('PYTEST_XDIST_WORKER')}\\n")
    return request.param


@pytest.mark.parametrize("k", range(4))
def test_cheap(k):
    pass


@pytest.mark.parametrize("k", range(4))
def test_uses_the_render(render, k):
    pass
'''

OTHERS = '''
import pytest


@pytest.mark.parametrize("k", range(40))
def test_elsewhere(k):
    pass
'''


def test_a_group_runs_on_one_worker_and_sets_up_its_fixture_once_per_param(tmp_path):
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (tmp_path / "test_grouped.py").write_text(SUITE, encoding="utf-8")
    (tmp_path / "test_others.py").write_text(OTHERS, encoding="utf-8")
    log = tmp_path / "setups.log"
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "-n", "2", "--dist", "loadgroup", str(tmp_path)],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120,
                       env={"SETUP_LOG": str(log), "PATH": "/usr/bin:/bin"})
    assert p.returncode == 0, p.stdout + p.stderr
    setups = log.read_text(encoding="utf-8").split("\n")[:-1]
    assert sorted(s.split()[0] for s in setups) == ["en", "ja"], setups
    assert len({s.split()[1] for s in setups}) == 1, f"the group ran on two workers: {setups}"
