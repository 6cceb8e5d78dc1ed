"""``render.py script`` agrees with what ``render`` writes.

Renders a few real sections at the hidden ``tiny`` quality (5 fps) through the CLI, as a
user would, and compares the stitched ``explainer.srt`` (read with the ``srt`` package)
with ``render.py script --json`` for the same options: the same cues in the same order,
the same text (line breaks included), start and end within one frame.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
import srt

from tests.support import ROOT

pytestmark = pytest.mark.slow

FRAME = 1 / 5  # tiny renders at 5 fps

CASES = {
    # sections with a split cue (22), a walk whose beats follow the rows (6), variants (3),
    # a note that comes and goes with the values (11: its easing is a time-based updater)
    "default-en": ("en", "3,6,11,22", []),
    "custom-ja": ("ja", "6,18", ["--sentence", "the dog chased the ball and it rolled"]),
    # the opening card shifts every section after it; each clip ends with a fade
    "card-en": ("en", "opening,2", []),
}


def _run(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for k in ("ATTN_LANG", "ATTN_HEAD", "ATTN_CAPTIONS", "ATTN_THEME"):
        env.pop(k, None)
    return subprocess.run([sys.executable, str(ROOT / "render.py"), *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=900)


@pytest.mark.parametrize("case", sorted(CASES))
def test_script_equals_the_rendered_srt(case, tmp_path):
    lang, sections, extra = CASES[case]
    common = ["--lang", lang, "--sections", sections, "--quality", "tiny", *extra]
    r = _run("render", *common, "--out", str(tmp_path / "out"), "--jobs", "2")
    assert r.returncode == 0, r.stderr
    rendered = list(srt.parse((tmp_path / "out" / "explainer.srt").read_text(encoding="utf-8")))

    s = _run("script", *common, "--json")
    assert s.returncode == 0, s.stderr
    script = json.loads(s.stdout)

    assert [c["text"] for c in script] == [c.content for c in rendered]
    for c, r_cue in zip(script, rendered):
        assert set(c) == {"section", "beat", "text", "start", "end"}
        assert isinstance(c["section"], int) and isinstance(c["beat"], str)
        assert abs(c["start"] - r_cue.start.total_seconds()) <= FRAME + 1e-3, (c, r_cue)
        assert abs(c["end"] - r_cue.end.total_seconds()) <= FRAME + 1e-3, (c, r_cue)
    assert len(rendered) >= 4


def test_script_rejects_bad_input_in_one_line():
    r = _run("script", "--sections", "99")
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    assert r.stdout == ""
