"""Benchmark: what CI spends, on a clean clone of the current commit.

Run with the project's interpreter::

    .venv/bin/python bench/bench_suite.py [--workdir DIR] [--json FILE] [--top 15]

Clones ``HEAD`` into ``--workdir`` (a temporary directory by default) and times, as
``.ci/run`` runs them: (a) the set-up (``scripts/bootstrap.sh --test``, a fresh ``.venv``;
the package caches of pip, npm and apt are the machine's), (b) ruff and mypy, (c) the suite
(``pytest``, every core), with the wall time of each test module summed over the workers
(:mod:`bench.suite_timeline`, a pytest plugin) and the CPU time of the run and its children.
Each step's output is kept beside the clone (``setup.log``, ``mypy.log``, ``pytest.log``).
The aim is CI under 10 minutes on the two cores. Speed is measured here, never asserted.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from words import config  # noqa: E402


def _timed(cmd: list[str], cwd: Path, env: dict | None = None, log: Path | None = None) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (children) and exit code of ``cmd``; its output goes to ``log``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    with open(log or os.devnull, "w") as out:
        rc = subprocess.run(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT).returncode
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, rc


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workdir", type=Path, default=None)
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--top", type=int, default=15, help="test modules listed, costliest first")
    args = ap.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="bench-suite-"))
    clone = work / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    report: dict = {"commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=clone,
                                             capture_output=True, text=True).stdout.strip()}
    # mypy with its cache where scripts/dev.sh keeps it (outside the checkout)
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    mypy_env = {**os.environ, "MYPY_CACHE_DIR": os.environ.get("MYPY_CACHE_DIR", f"{cache}/attn-explainer/mypy")}
    for name, cmd, env in (("setup", ["bash", "scripts/bootstrap.sh", "--test"], None),
                           ("ruff", [".venv/bin/ruff", "check", "."], None),
                           ("mypy", [".venv/bin/mypy"], mypy_env)):
        wall, cpu, rc = _timed(cmd, clone, env, work / f"{name}.log")
        report[name] = {"wall": round(wall, 1), "cpu": round(cpu, 1), "rc": rc}
        print(f"{name:6s} {wall:7.1f} s wall {cpu:7.1f} s CPU (exit {rc})", flush=True)
    timeline = work / "timeline"
    env = {**os.environ, "PYTHONPATH": str(clone), config.SUITE_TIMELINE.name: str(timeline)}
    wall, cpu, rc = _timed([".venv/bin/python", "-m", "pytest", "-p", "bench.suite_timeline", "-rfE"], clone, env,
                           work / "pytest.log")
    report["pytest"] = {"wall": round(wall, 1), "cpu": round(cpu, 1), "rc": rc}
    print(f"pytest {wall:7.1f} s wall {cpu:7.1f} s CPU (exit {rc})")
    modules: dict[str, float] = collections.defaultdict(float)
    for f in timeline.glob("*.jsonl"):
        for line in f.read_text().splitlines():
            row = json.loads(line)
            modules[row["id"].split("::")[0]] += row["seconds"]
    report["modules"] = dict(sorted(modules.items(), key=lambda kv: -kv[1]))
    busy = sum(modules.values())
    print(f"worker time {busy:.0f} s over the modules; the costliest:")
    for mod, s in list(report["modules"].items())[:args.top]:
        print(f"  {s:7.1f} s  {s / busy:5.1%}  {mod}")
    total = sum(report[k]["wall"] for k in ("setup", "ruff", "mypy", "pytest"))
    report["ci_wall"] = round(total, 1)
    print(f"CI in all: {total:.0f} s ({total / 60:.1f} min; aim under 10)")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
