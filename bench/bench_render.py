"""Benchmark: the render pipeline (render.py) against the plain manim CLI, cold, warm, after an edit.

Run with the project's interpreter::

    .venv/bin/python bench/bench_render.py [--sections 1-25] [--quality preview] [--lang ja]
                                           [--workdir DIR] [--compare-workers] [--json FILE]

Measures in one run, at ``--quality`` (default preview, 480p15) on every implemented section
of ``--sections`` (default all):

(a) a cold render through ``render.py`` (``--jobs 1`` and ``--jobs 2``) against the same
    sections rendered by the plain manim CLI (``manim render -ql``) one after another;
(b) a warm re-run of ``render.py`` with nothing changed;
(c) a re-run after changing one section's caption (the section whose cold render time is the
    median, unless ``--change N``);
(d) the share of stitching (joining the MP4, chapters, merged .srt) in the cold total.

Targets: (a) render.py / manim CLI <= 1.0, lower with --jobs 2; (b) warm < 5% of cold;
(c) < 2/N of cold for N sections; (d) stitching < 2% of the total. "cold" in (b) and (d) is
the ``--jobs 2`` cold render through render.py (the one being re-run); (c) is reported
against both cold runs: one section re-rendered alone runs on one core, so against the
``--jobs 2`` cold run 2/N asks it to beat the average section.

``--compare-workers`` adds a cold ``--jobs 1`` render with ``ATTN_RENDER_WORKER=subprocess``
(one fresh python per section) to compare with the default forkserver workers.

Everything runs on a snapshot of the project copied into ``--workdir`` (a temporary
directory by default), so the caption edit never touches the repository and concurrent
edits to it do not disturb the timings. Speed is measured here and never asserted in tests.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from snapshot import env_for, snapshot  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from words import config  # noqa: E402


def render_py(proj: Path, out: Path, args: list[str], **env: str) -> tuple[float, dict, str]:
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, str(proj / "render.py"), "--out", str(out), *args],
                       cwd=proj, env=env_for(proj, **env), capture_output=True, text=True)
    wall = time.perf_counter() - t0
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8")) if (out / "manifest.json").exists() else {}
    if p.returncode not in (0, 1):
        sys.exit(f"render.py failed ({p.returncode}):\n{p.stderr[-2000:]}")
    return wall, manifest, p.stderr


def manim_cli(proj: Path, sections: list[dict], media: Path, lang: str) -> tuple[float, list[str]]:
    """The same sections through the plain manim CLI, one process after another."""
    failed = []
    t0 = time.perf_counter()
    for s in sections:
        cmd = [sys.executable, "-m", "manim", "render", "-ql", "--silent", "--media_dir", str(media),
               s["file"], s["scene"]]
        p = subprocess.run(cmd, cwd=proj, env=env_for(proj, **{config.LANG.name: lang}), capture_output=True, text=True)
        if p.returncode != 0:
            failed.append(s["stem"])
    return time.perf_counter() - t0, failed


def edit_caption(proj: Path, lang: str, number: int) -> str:
    """Append a word to the first caption line of section ``number``; returns the key edited."""
    path = proj / "assets" / "captions" / f"{lang}.toml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    table = f"[s{number:02d}]"
    inside = False
    for i, line in enumerate(lines):
        if line.strip().startswith("["):
            inside = line.split("#")[0].strip() == table
            continue
        m = re.match(r'^(\s*[\w.-]+\s*=\s*")(.*)("\s*(#.*)?)$', line.rstrip("\n"))
        if inside and m:
            lines[i] = f"{m[1]}{m[2]} (bench){m[3]}\n"
            path.write_text("".join(lines), encoding="utf-8")
            return line.split("=")[0].strip()
    sys.exit(f"no caption line found in {table} of {path}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sections", default="all")
    ap.add_argument("--quality", default="preview")
    ap.add_argument("--lang", default="ja")
    ap.add_argument("--workdir", type=Path, default=None)
    ap.add_argument("--change", type=int, default=None, help="section whose caption is edited in (c)")
    ap.add_argument("--compare-workers", action="store_true")
    ap.add_argument("--skip-cli", action="store_true", help="skip the plain manim CLI run (a)")
    ap.add_argument("--json", type=Path, default=None, help="also write the results here")
    args = ap.parse_args()
    if args.quality != "preview" and not args.skip_cli:
        print("note: the manim CLI baseline renders at -ql (480p15), i.e. preview", file=sys.stderr)

    work = args.workdir or Path(tempfile.mkdtemp(prefix="bench-render-"))
    work.mkdir(parents=True, exist_ok=True)
    proj = snapshot(work)
    listing = subprocess.run([sys.executable, str(proj / "render.py"), "list", "--json"], cwd=proj,
                             env=env_for(proj), capture_output=True, text=True, check=True)
    rows = [r for r in json.loads(listing.stdout) if r["implemented"]]
    if args.sections != "all":
        sys.path.insert(0, str(proj))
        import render  # the snapshot's

        wanted = {s.number for s in render.parse_sections(args.sections, render.load_registry().sections)}
        rows = [r for r in rows if r["number"] in wanted]
    if not rows:
        sys.exit("no implemented sections selected")
    spec = ",".join(str(r["number"]) for r in rows)
    n = len(rows)
    common = ["--quality", args.quality, "--lang", args.lang, "--sections", spec]
    print(f"{n} sections ({spec}) at {args.quality}; work dir {work}", flush=True)
    res: dict = {"sections": [r["stem"] for r in rows], "quality": args.quality, "cores": os.cpu_count()}

    if not args.skip_cli:
        cli_s, cli_failed = manim_cli(proj, rows, work / "cli-media", args.lang)
        res["manim_cli_sequential_s"] = cli_s
        res["manim_cli_failed"] = cli_failed
        print(f"(a) manim CLI, one after another: {cli_s:.1f}s" + (f"  (failed: {cli_failed})" if cli_failed else ""), flush=True)

    jobs1_s, m1, _ = render_py(proj, work / "out-j1", [*common, "--jobs", "1"])
    res["render_jobs1_cold_s"] = jobs1_s
    print(f"(a) render.py --jobs 1, cold: {jobs1_s:.1f}s", flush=True)
    if args.compare_workers:
        sub_s, _, _ = render_py(proj, work / "out-sub", [*common, "--jobs", "1"], **{config.RENDER_WORKER.name: "subprocess"})
        res["render_jobs1_cold_subprocess_workers_s"] = sub_s
        print(f"    render.py --jobs 1, cold, subprocess workers: {sub_s:.1f}s", flush=True)
    cold_s, m2, _ = render_py(proj, work / "out-j2", [*common, "--jobs", "2"])
    res["render_jobs2_cold_s"] = cold_s
    print(f"(a) render.py --jobs 2, cold: {cold_s:.1f}s", flush=True)

    warm_s, mw, _ = render_py(proj, work / "out-j2", [*common, "--jobs", "2"])
    res["warm_s"] = warm_s
    print(f"(b) warm re-run: {warm_s:.2f}s", flush=True)

    secs = m1.get("last_run", {}).get("render_seconds", {})
    if args.change is not None:
        target = next(r for r in rows if r["number"] == args.change)
    else:
        order = sorted(rows, key=lambda r: secs.get(r["stem"], 0))
        target = order[(len(order) - 1) // 2]
    key = edit_caption(proj, args.lang, target["number"])
    edit_s, me, _ = render_py(proj, work / "out-j2", [*common, "--jobs", "2"])
    rerendered = [k for k, v in me.get("last_run", {}).get("status", {}).items() if v == "rendered"]
    res.update(caption_edit_s=edit_s, caption_edit_section=target["stem"], caption_edit_key=key,
               caption_edit_rerendered=rerendered)
    print(f"(c) after editing {target['stem']} [{key}]: {edit_s:.1f}s, re-rendered {rerendered}", flush=True)

    stitch_s = m2.get("last_run", {}).get("seconds", {}).get("stitch", 0.0)
    res["stitch_s"] = stitch_s
    res["section_seconds_jobs1"] = secs

    def verdict(ok: bool) -> str:
        return "PASS" if ok else "FAIL"

    print("\nresults (targets from the issue):")
    if not args.skip_cli:
        r1, r2 = jobs1_s / res["manim_cli_sequential_s"], cold_s / res["manim_cli_sequential_s"]
        res.update(ratio_a_jobs1=r1, ratio_a_jobs2=r2)
        print(f"(a) render.py/manim CLI: --jobs 1 {r1:.2f}, --jobs 2 {r2:.2f}   "
              f"target <= 1.0 and lower with 2: {verdict(r1 <= 1.0 and r2 < r1)}")
    if args.compare_workers:
        print(f"    workers: forkserver {jobs1_s:.1f}s vs subprocess {res['render_jobs1_cold_subprocess_workers_s']:.1f}s")
    rb, rc, rd = warm_s / cold_s, edit_s / cold_s, stitch_s / cold_s
    res.update(ratio_b=rb, ratio_c=rc, ratio_c_vs_jobs1=edit_s / jobs1_s, ratio_d=rd)
    print(f"(b) warm/cold {rb:.3%}   target < 5%: {verdict(rb < 0.05)}")
    r1c = edit_s / jobs1_s
    print(f"(c) edit/cold: {r1c:.3f} of the --jobs 1 cold run ({verdict(r1c < 2 / n)}), "
          f"{rc:.3f} of the --jobs 2 cold run ({verdict(rc < 2 / n)});  target < 2/N = {2 / n:.3f}"
          + ("" if rerendered == [target["stem"]] else "   (!) re-rendered more than one section"))
    print(f"(d) stitching {stitch_s:.2f}s = {rd:.3%} of cold   target < 2%: {verdict(rd < 0.02)}")
    if args.json:
        args.json.write_text(json.dumps(res, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
