"""Benchmark: ``render.py batch`` on a local Dask cluster against ``render`` run once per variant.

Run with the project's interpreter::

    .venv/bin/python bench/bench_batch.py [--sections all] [--quality preview] [--variants 4]
                                          [--workdir DIR] [--json FILE]

Measures in one run, cold each time (a fresh output folder and clip store), on the same
``--variants`` variants (two English, two Japanese, dark and light, two custom sentences):

(a) ``render.py render`` once per variant, one after another (each with its default ``--jobs``,
    the number of cores);
(b) ``render.py batch`` with ``--workers 1``;
(c) ``render.py batch`` with ``--workers 2``.

Targets: (b) / (c) >= 1.8 (two workers nearly twice as fast as one), (c) / (a) <= 1.0 (the
batch no slower than rendering the variants one by one). It also checks that (a) and (c) wrote
clips under the same cache keys (and counts the byte-identical ones), and reports what a
cluster plan needs: the per-task render times of (b) (one render at a time), the client's time per
variant and the bytes each variant moves through the store, and from them the expected
makespan of 120 variants on 10, 50 and 200 workers (see the README's batch section).

Everything runs on a snapshot of the project copied into ``--workdir`` (a temporary directory
by default), so edits to the repository during the run do not change cache keys mid-batch.
Speed is measured here and never asserted in tests.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from snapshot import env_for, snapshot  # noqa: E402

VARIANTS = (  # name, sentence, follow, lang, theme
    ("en-dark", "", "", "en", "dark"),
    ("ja-light-neko", "猫 が 魚 を 食べた", "猫", "ja", "light"),
    ("en-light-dog", "the dog chased the ball and it rolled", "it", "en", "light"),
    ("ja-dark", "", "", "ja", "dark"),
)
PLAN_VARIANTS = 120
PLAN_WORKERS = (10, 50, 200)
#: Assumed bandwidth between the client and the store, for the plan (1 Gbit/s, in bytes/s).
CLIENT_LINK = 110e6




def run(proj: Path, args: list[str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, str(proj / "render.py"), *args], cwd=proj, env=env_for(proj),
                       capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"render.py {args[0]} failed ({p.returncode}):\n{p.stderr[-3000:]}")
    return wall, p.stderr


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def store_records(store: Path) -> list[dict]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(store.glob("*/*.json"))]


def plan(task_seconds: dict[str, float], stitch_seconds: float, variant_bytes: float, workers: int,
         variants: int = PLAN_VARIANTS) -> dict:
    """Expected makespan of ``variants`` variants on ``workers`` one-core workers.

    Greedy list scheduling (what Dask does with equal priorities) finishes within
    ``work / workers + longest task`` and no sooner than ``max(work / workers, longest task)``.
    The client stitches each variant as it completes (overlapped with rendering) and must pull
    every clip from the store once: the tail after the last task is one variant's stitch, and
    the client's link bounds the whole run at ``variants * bytes / link``.
    """
    work = variants * sum(task_seconds.values())
    longest = max(task_seconds.values())
    render_lo = max(work / workers, longest)
    render_hi = work / workers + longest
    client = variants * (stitch_seconds + variant_bytes / CLIENT_LINK)
    return {"workers": workers, "render_lower": render_lo, "render_upper": render_hi,
            "client_total": client, "makespan": max(render_hi + stitch_seconds, client),
            "bound": "client (stitch + download)" if client > render_hi else
                     ("longest section" if longest > work / workers else "total work / workers")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sections", default="all")
    ap.add_argument("--quality", default="preview")
    ap.add_argument("--variants", type=int, default=len(VARIANTS))
    ap.add_argument("--workdir", type=Path, default=None)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="bench-batch-"))
    proj = snapshot(work)
    variants = VARIANTS[: args.variants]
    csv = work / "variants.csv"
    csv.write_text("name,sentence,follow,lang,theme\n" + "".join(",".join(v) + "\n" for v in variants),
                   encoding="utf-8")
    common = ["--quality", args.quality, "--sections", args.sections]
    print(f"{len(variants)} variants, sections {args.sections}, {args.quality}; workdir {work}", flush=True)

    # (a) render once per variant, one after another
    seq = 0.0
    for name, sentence, follow, lang, theme in variants:
        opts = ["--lang", lang, "--theme", theme]
        opts += ["--sentence", sentence] if sentence else []
        opts += ["--follow", follow] if follow else []
        wall, _ = run(proj, ["render", *common, *opts, "--out", str(work / "seq" / name)])
        print(f"  render {name}: {wall:.1f}s", flush=True)
        seq += wall
    print(f"(a) render, one variant after another: {seq:.1f}s", flush=True)
    # (b), (c) batch on a LocalCluster of 1 and 2 workers, cold
    batch = {}
    for n in (1, 2):
        shutil.rmtree(work / f"batch{n}", ignore_errors=True)
        batch[n], err = run(proj, ["batch", str(csv), *common, "--workers", str(n), "--out", str(work / f"batch{n}")])
        print(f"({'bc'[n - 1]}) batch --workers {n}: {batch[n]:.1f}s   [{err.strip().splitlines()[-1]}]", flush=True)

    # the same cache keys must come out; the bytes may still differ where render itself is not
    # reproducible from run to run (README), so identical clips are counted, not required
    keys = [json.loads((work / d / v[0] / "manifest.json").read_text())["clips"] for v in variants
            for d in ("seq", "batch2")]
    same_keys = all({k: c["hash"] for k, c in a.items()} == {k: c["hash"] for k, c in b.items()}
                    for a, b in zip(keys[::2], keys[1::2]))
    clips = [(c, work / "batch2" / v[0] / "clips" / c.name) for v in variants
             for c in sorted((work / "seq" / v[0] / "clips").glob("*.mp4"))]
    same = sum(sha(a) == sha(b) for a, b in clips)
    # task times of (b): one render at a time, the closest to a worker with a core of its own
    records = store_records(work / "batch1" / ".cache" / "store")
    by_section: dict[str, list[float]] = {}
    for r in records:
        by_section.setdefault(r["stem"], []).append(r["render_seconds"])
    task_seconds = {s: statistics.mean(v) for s, v in by_section.items()}  # one variant's tasks
    report = json.loads((work / "batch2" / "batch.json").read_text(encoding="utf-8"))
    stitch = [v["client_seconds"] for v in report["variants"].values()]
    variant_bytes = sum(sum(f["size"] for f in r["files"].values()) for r in records) / len(variants)
    longest = max(task_seconds, key=task_seconds.get)
    result = {
        "variants": len(variants), "sections": len(task_seconds), "quality": args.quality,
        "seconds": {"render_sequential": seq, "batch_1": batch[1], "batch_2": batch[2]},
        "speedup_2_over_1": batch[1] / batch[2], "batch_2_over_sequential": batch[2] / seq,
        "same_cache_keys": same_keys, "identical_clips": [same, len(clips)],
        "task_seconds": {"sum_per_variant": sum(task_seconds.values()), "mean": statistics.mean(task_seconds.values()),
                         "longest": [longest, task_seconds[longest]], "per_section": task_seconds},
        "client_per_variant": {"publish_and_stitch": statistics.mean(stitch), "bytes": variant_bytes},
        "plan": [plan(task_seconds, statistics.mean(stitch), variant_bytes, w) for w in PLAN_WORKERS],
    }
    print(f"\nspeed-up of 2 workers over 1: {result['speedup_2_over_1']:.2f} (aim >= 1.8)")
    print(f"batch (2 workers) / sequential render: {result['batch_2_over_sequential']:.2f} (aim <= 1.0)")
    print(f"same cache keys in batch and render: {same_keys}; byte-identical clips: {same} of {len(clips)}")
    print(f"per variant: {sum(task_seconds.values()):.0f} task-seconds over {len(task_seconds)} tasks "
          f"(longest {longest} {task_seconds[longest]:.1f}s); client {statistics.mean(stitch):.2f}s, "
          f"{variant_bytes / 1e6:.1f} MB through the store")
    print(f"\nplan for {PLAN_VARIANTS} variants (store link {CLIENT_LINK / 1e6:.0f} MB/s):")
    for p in result["plan"]:
        print(f"  {p['workers']:>4} workers: {p['render_lower'] / 60:6.1f}-{p['render_upper'] / 60:6.1f} min of rendering, "
              f"client {p['client_total'] / 60:5.1f} min -> about {p['makespan'] / 60:.1f} min, bound by {p['bound']}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
