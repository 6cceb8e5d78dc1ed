"""The fault report: every fault of the fault suite (tests/faults/), in larger numbers, as a
table: fault, cases tried, outputs intact, re-run clean, messages clean.

    sudo python bench/faults.py [--cases N] [--seed S] [--write-docs]

Root is needed for the tmpfs mounts (a real full disk). ``--cases`` is the number of cases
of each kind (CI runs the suite's own smaller numbers); ``--write-docs`` puts the table,
dated, into docs/reliability.md between its ``<!-- faults-table -->`` markers. The
studio's and the command line's fuzz run through pytest with ``FAULT_CASES``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.faults.harness import SLIDE_FORMATS, Case, Project, Tally, reference_project, tmpfs  # noqa: E402
from tests.faults.test_damaged_cache import damaged_cases  # noqa: E402
from tests.faults.test_disk_full import disk_full_case, needed_span, spread  # noqa: E402
from tests.faults.test_kill import batch_kills, kill_chains, studio_kills  # noqa: E402
from tests.faults.test_store_race import store_race  # noqa: E402

DOC = ROOT / "docs" / "reliability.md"
MARK = "<!-- faults-table -->"


def disk_full(p: Project, work: Path, command: str, n: int, seed: int) -> Tally:
    extra = SLIDE_FORMATS if command == "slides" else ()
    new = p.base / ("ja-slides" if command == "slides" else "ja")
    span = needed_span(p.base / "en", new)
    tally = Tally(f"disk full during `{command}` (tmpfs, 0 to {span // 1024} KB free)")
    for i, leave in enumerate(spread(n, span, seed)):
        with tmpfs(work / f"{command}-disk{i}", size=f"{(span * 3) // 1024 + 512}k") as mount:
            tally.cases.append(disk_full_case(p, mount, leave, command, extra))
    return tally


def pytest_tally(fault: str, test: str, cases: int, examples: int) -> Tally:
    """A fuzz module of the suite run with ``FAULT_CASES=cases`` (``examples``
    requests or runs in all): its rows count the examples, a failed test marks as many."""
    env = {**os.environ, "FAULT_CASES": str(cases), "PYTHONPATH": str(ROOT)}
    # a test that hangs dumps every thread's stack after 5 minutes and is given up after 30
    command = [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:randomly",
               "-o", "faulthandler_timeout=300", test]
    try:
        r = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        r = subprocess.CompletedProcess(command, -9, out, "")
    failed = len(re.findall(r"^FAILED ", r.stdout, flags=re.M))
    if r.returncode not in (0, 1) or (r.returncode == 1 and not failed):
        failed = examples   # pytest itself ended badly (killed, a hang's timeout): nothing counts as passed
    tally = Tally(fault)
    for i in range(examples):
        c = Case(fault, str(i))
        if i < failed:
            c.fail("message_clean", "a fuzz test failed")
            c.fail("outputs_intact", "a fuzz test failed")
        tally.cases.append(c)
    if r.returncode != 0:
        print(r.stdout[-3000:], file=sys.stderr)
    return tally


def table(tallies: list[Tally]) -> str:
    rows = ["| fault | cases tried | outputs intact | re-run clean | messages clean |",
            "|---|---:|---:|---:|---:|"]
    for t in tallies:
        fault, n, intact, rerun, clean = t.row()
        rows.append(f"| {fault} | {n} | {intact}/{n} | {rerun}/{n} | {clean}/{n} |")
    return "\n".join(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=20, help="cases of each kind (default 20)")
    ap.add_argument("--seed", type=int, default=38)
    ap.add_argument("--write-docs", action="store_true", help="put the table into docs/reliability.md")
    args = ap.parse_args()
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="attn-faults-") as tmp:
        work = Path(tmp)
        p = reference_project(work / "project")
        tallies = [disk_full(p, work, "render", args.cases, args.seed),
                   disk_full(p, work, "slides", max(2, args.cases // 2), args.seed + 1)]
        for command, extra, new in (("render", (), "ja"), ("slides", SLIDE_FORMATS, "ja-slides")):
            kills, finished = kill_chains(p, work / f"kills-{command}", command, extra, args.cases,
                                          args.seed + 2, new)
            tallies.append(Tally(f"SIGKILL of `{command}` at random moments "
                                 f"({finished} more runs ended before their kill)", kills))
        tallies.append(Tally("SIGKILL of the studio during an explainer job, started again each time",
                             studio_kills(p, work / "kills-studio", args.cases, args.seed + 4)))
        tallies.append(Tally("SIGKILL of `batch` (3 variants, its own local Dask cluster) at random moments",
                             batch_kills(p, work / "kills-batch", args.cases, args.seed + 5)))
        race = Tally("one clip store written by two processes and read by a third, 216 puts each")
        for i in range(args.cases):
            case = Case(race.fault, str(i))
            for problem in store_race(work / f"race{i}"):
                case.fail("outputs_intact", problem)
            race.cases.append(case)
        tallies.append(race)
        damaged = Tally("damaged store entry (cut clip, changed byte, bad JSON, lost subtitles)")
        import shutil

        out = work / "damaged"
        shutil.copytree(p.base / "en", out, symlinks=True)
        damaged.cases = damaged_cases(p, out)
        tallies.append(damaged)
    from cli.group import COMMANDS

    fuzz = args.cases * 6
    tallies.append(pytest_tally(f"hostile requests to the studio and the recorder ({fuzz} fuzzed, "
                                "50 clients x 3, fixed attacks)", "tests/faults/test_studio_attack.py",
                                fuzz, fuzz))
    tallies.append(pytest_tally("command line fuzzed (every command's options)",
                                "tests/faults/test_cli_fuzz.py", args.cases * 3, args.cases * 3 * len(COMMANDS)))
    batch = "tests/module/batch/test_batch.py::"
    tallies.append(pytest_tally("a busy Dask worker SIGKILLed every second through a 9-variant batch",
                                batch + "test_workers_killed_again_and_again_through_a_batch", 1, 1))
    tallies.append(pytest_tally("the scheduler SIGKILLed mid-batch, restarted on its address with new workers",
                                batch + "test_scheduler_restarted_mid_batch", 1, 1))
    text = table(tallies)
    print(text)
    bad = [f"{c.fault} at {c.point}: {c.notes}" for t in tallies for c in t.cases if not c.ok]
    for b in bad:
        print("  ", b)
    took = time.monotonic() - t0
    print(f"({took:.0f} s)")
    if args.write_docs:
        day = dt.date.today().isoformat()
        block = (f"{MARK}\n{day}, `python bench/faults.py --cases {args.cases} --seed {args.seed}` "
                 f"({took:.0f} s on this machine):\n\n{text}\n{MARK}")
        doc = DOC.read_text(encoding="utf-8")
        DOC.write_text(re.sub(f"{MARK}.*?{MARK}", lambda _: block, doc, flags=re.S), encoding="utf-8")


if __name__ == "__main__":
    main()
