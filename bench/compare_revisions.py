"""Benchmark: two revisions of the code, rendered back to back on this machine.

Run with the project's interpreter::

    .venv/bin/python bench/compare_revisions.py BEFORE [AFTER] [--rounds 2] [--jobs 1]
                                                [--sections 1-25] [--quality preview]
                                                [--lang ja] [--workdir DIR] [--json FILE]

``BEFORE`` and ``AFTER`` are git revisions (``AFTER`` defaults to ``HEAD``). Each is
exported with ``git archive`` into ``--workdir`` (a temporary directory by default), so the
working tree is never touched, and both run with this interpreter (the same manim and
libraries). Then the two are rendered cold (a fresh ``--out``, so no section cache) with
``render.py --jobs N``, alternating ``BEFORE, AFTER, BEFORE, AFTER, ...`` for ``--rounds``
rounds, so that a burst of load elsewhere on a shared machine falls on both. Reported:
each run's wall time and the ratio AFTER / BEFORE of the medians (below 1: the new code is
faster). A refactor that should not cost time must come out at about 1. Speed is measured
here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from snapshot import link_assets  # noqa: E402


def export(rev: str, dest: Path) -> tuple[Path, str]:
    """The tree of ``rev`` unpacked into ``dest``; returns the folder and the full commit id."""
    commit = subprocess.run(["git", "rev-parse", rev], cwd=ROOT, check=True, capture_output=True,
                            text=True).stdout.strip()
    dest.mkdir(parents=True, exist_ok=True)
    archive = dest.with_suffix(".tar")
    subprocess.run(["git", "archive", "--format=tar", "-o", str(archive), commit], cwd=ROOT, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(dest, filter="data")
    archive.unlink()
    link_assets(dest)   # the revision reads its own captions, not the checkout's
    return dest, commit


def render_cold(proj: Path, out: Path, args: list[str]) -> float:
    """Wall seconds of one cold ``render.py`` run of the tree ``proj`` into ``out``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATTN_")}
    env["PYTHONPATH"] = str(proj)
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, str(proj / "render.py"), "render", "--out", str(out), *args],
                       cwd=proj, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"render.py of {proj.name} failed ({p.returncode}):\n{p.stderr[-2000:]}")
    return wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before")
    ap.add_argument("after", nargs="?", default="HEAD")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--sections", default="1-25")
    ap.add_argument("--quality", default="preview")
    ap.add_argument("--lang", default="ja")
    ap.add_argument("--workdir", type=Path)
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()

    work = a.workdir or Path(tempfile.mkdtemp(prefix="attn-compare-"))
    trees = {name: export(rev, work / name) for name, rev in (("before", a.before), ("after", a.after))}
    args = ["--jobs", str(a.jobs), "--sections", a.sections, "--quality", a.quality, "--lang", a.lang]
    walls: dict[str, list[float]] = {"before": [], "after": []}
    for k in range(a.rounds):
        for name, (proj, _) in trees.items():
            wall = render_cold(proj, work / f"out-{name}-{k}", args)
            walls[name].append(wall)
            print(f"round {k + 1}: {name:6s} {wall:7.1f} s", flush=True)
    med = {name: statistics.median(w) for name, w in walls.items()}
    ratio = med["after"] / med["before"]
    print(f"median: before {med['before']:.1f} s, after {med['after']:.1f} s, after/before = {ratio:.3f}")
    report = {"before": trees["before"][1], "after": trees["after"][1], "args": args,
              "walls": walls, "median": med, "ratio": ratio}
    if a.json:
        a.json.write_text(json.dumps(report, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
