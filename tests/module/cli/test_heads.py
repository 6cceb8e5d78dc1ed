"""``render.py heads`` (``cli.heads``): an ``--out`` that is not a PNG is refused in one line."""

from __future__ import annotations

import subprocess
import sys

from tests.support import ROOT


def test_heads_bad_input_is_one_line():
    p = subprocess.run([sys.executable, str(ROOT / "render.py"), "heads", "--out", "heads.txt"],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "png" in p.stderr
