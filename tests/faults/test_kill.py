"""``render`` killed with SIGKILL at seeded random moments, then run again.

No handler runs on SIGKILL: the lock's holder is gone, temporary files and half-written
store entries stay where they were. Each kill is followed by the next run, which must take
the lock over (never "in use by another render.py run"); the outputs after each kill are
the previous ones or the new ones; the last run, not interrupted, writes exactly what an
uninterrupted run writes, and leaves no temporary file.

To keep CI cheap the kills come in chains: each run of a chain starts from what the killed
one left (a lecturer pressing Ctrl-C... or a laptop lid, again and again), so later kills
land in later phases (planning, rendering, publishing, joining, the manifest). A chain
starts from the English outputs and renders Japanese.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import select
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.faults.harness import (
    SLIDE_FORMATS,
    Case,
    Project,
    cases_wanted,
    check_outputs,
    check_same,
    leftovers,
    outputs,
)
from tests.support import ROOT

# one worker builds the reference project (conftest) and runs every case that uses it
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("faults")]

IN_USE = "in use by another"
CHAIN = 4



def kill_at(project: Project, command: str, out, seconds: float, *extra: str) -> tuple[bool, str, float]:
    """Start ``command``, SIGKILL it after ``seconds``: whether it was still running, its
    stderr, and how long it ran."""
    t0 = time.monotonic()
    p = project.start(command, out, *extra)
    try:
        p.wait(seconds)
        return False, p.stderr.read() if p.stderr else "", time.monotonic() - t0
    except Exception:  # noqa: BLE001 - subprocess.TimeoutExpired: still running, as wanted
        os.kill(p.pid, signal.SIGKILL)
        _, err = p.communicate()
        return True, err, time.monotonic() - t0


def kill_chains(project: Project, tmp_path, command: str, extra: tuple[str, ...], points: int,
                seed: int, new_dir: str) -> tuple[list[Case], int]:
    """``points`` kills in chains of :data:`CHAIN`; returns the cases and how many runs
    finished before their kill (those are not kill points: the next kill is drawn inside
    the length of that run)."""
    rng = random.Random(seed)
    base, cases, finished = project.base, [], 0
    new = outputs(base / new_dir)
    chain = 0
    while len(cases) < points:
        out = tmp_path / f"chain{chain}"
        chain += 1
        shutil.copytree(base / "en", out, symlinks=True)
        prev = outputs(out)
        scale, first = project.cold_seconds, len(cases)
        while len(cases) - first < CHAIN and len(cases) < points:
            t = rng.uniform(0.0, scale)
            case = Case(f"SIGKILL ({command})", f"{t:.2f} s")
            killed, err, ran = kill_at(project, command, out, t, "--lang", "ja", *extra)
            if IN_USE in err:
                case.fail("rerun_clean", "a stale lock was not taken over")
            # the outputs are whole (a killed run's temporary files are the next run's to remove)
            check_outputs(case, out, prev, new, allow_leftovers=killed)
            if killed:
                cases.append(case)
            else:
                finished += 1
                scale = ran
                if not case.ok:
                    cases.append(case)
        r = project.run(command, out, "--lang", "ja", *extra)
        judged = cases[first:] or [Case(f"SIGKILL ({command})", "re-run")]
        final = judged[-1]
        if r.returncode != 0:
            final.fail("rerun_clean", f"re-run exit {r.returncode}: {r.stderr.strip()[-200:]}")
        if IN_USE in r.stderr:
            final.fail("rerun_clean", "a stale lock was not taken over")
        check_same(final, out, new)
        left = leftovers(out)
        if left:
            final.fail("rerun_clean", f"left behind after the re-run: {left[:4]}")
        for c in judged:   # every kill of the chain is judged by the chain's re-run
            c.rerun_clean = c.rerun_clean and final.rerun_clean
    return cases, finished


def test_render_killed_at_random_points(project, tmp_path):
    cases, _ = kill_chains(project, tmp_path, "render", (), cases_wanted(20), seed=3838, new_dir="ja")
    bad = [f"{c.point}: {c.notes}" for c in cases if not c.ok]
    assert not bad, bad


def test_slides_killed_at_random_points(project, tmp_path):
    """The deck (PowerPoint and reveal.js) killed while its clips, posters or files are
    written; fewer points in CI than ``render`` (FAULT_CASES for the nightly size)."""
    cases, _ = kill_chains(project, tmp_path, "slides", SLIDE_FORMATS, cases_wanted(4), seed=3839,
                           new_dir="ja-slides")
    bad = [f"{c.point}: {c.notes}" for c in cases if not c.ok]
    assert not bad, bad


def test_a_live_lock_is_refused_and_a_dead_one_taken_over(project, tmp_path):
    """While a run holds the folder a second one is refused (exit 2, the holder's process
    id); once the holder is killed, the next run takes the folder over at once."""
    out = tmp_path / "out"
    shutil.copytree(project.base / "en", out, symlinks=True)
    first = project.start("render", out, "--lang", "ja", "--force")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not (out / ".cache" / "lock").read_text().strip() == str(first.pid):
        time.sleep(0.02)
    second = project.run("render", out, "--lang", "ja")
    os.kill(first.pid, signal.SIGKILL)
    first.communicate()
    assert second.returncode == 2
    assert f"is in use by another render.py run (process {first.pid})" in second.stderr.splitlines()[-1]
    third = project.run("render", out, "--lang", "ja")
    assert third.returncode == 0, third.stderr
    case = Case("lock", "taken over")
    check_same(case, out, outputs(project.base / "ja"))
    assert case.ok and not leftovers(out), (case.notes, leftovers(out))


# ----------------------------------------------------------------------------- the studio

def _studio(project: Project, out) -> tuple[subprocess.Popen, str]:
    """The studio started on ``out`` as a user starts it (its own process group, as a terminal
    gives it), and its page's address once it prints it."""
    p = subprocess.Popen([sys.executable, str(ROOT / "render.py"), "studio", "--out", str(out), "--no-browser",
                          "--port", "0", "--lang", "ja", "--jobs", "2"], env=project.env(),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    ready, _, _ = select.select([p.stdout], [], [], 60)
    url = p.stdout.readline().strip() if ready else ""
    assert url.startswith("http://127.0.0.1:"), f"the studio printed no address: {url!r}"
    return p, url


def _ask(url: str, route: str, body: dict | None = None) -> dict:
    req = urllib.request.Request(url + route, data=None if body is None else json.dumps(body).encode(),
                                 method="GET" if body is None else "POST")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


#: The studio's explainer of the fixture sections, Japanese, at the tests' tiny quality.
STUDIO_JOB = {"product": "explainer", "choice": {"lang": "ja", "theme": "dark"}, "quality": "tiny"}


def _studio_outputs(out) -> dict[str, str]:
    """The outputs a studio job writes (its own ``.studio`` folder of logs and words aside)."""
    return {k: v for k, v in outputs(out).items() if not k.startswith(".studio")}


def _run_job(url: str, timeout: float = 120) -> dict:
    job = _ask(url, "api/jobs", STUDIO_JOB)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = _ask(url, f"api/jobs/{job['id']}")
        if not state["running"]:
            return state
        time.sleep(0.1)
    raise AssertionError("the studio's job did not finish")


def studio_kills(project: Project, tmp_path, points: int, seed: int) -> list[Case]:
    """The studio SIGKILLed (with nothing else: its job's processes must follow it) at
    ``points`` seeded random moments of an explainer job, started again on the same folder
    each time: it starts (no stale lock), its processes are all gone after a kill, the outputs
    are the previous or the new ones, and a last job writes what an uninterrupted one writes
    (judged on the last case)."""
    from tests.module.studio.support import group_alive

    rng = random.Random(seed)
    reference = tmp_path / "reference"
    shutil.copytree(project.base / "en", reference, symlinks=True)
    t0 = time.monotonic()
    server, url = _studio(project, reference)
    try:
        assert _run_job(url)["code"] == 0
    finally:
        server.kill()
        server.communicate()
    whole = time.monotonic() - t0
    new = _studio_outputs(reference)
    out = tmp_path / "out"
    shutil.copytree(project.base / "en", out, symlinks=True)
    prev = _studio_outputs(out)
    cases = []
    for _ in range(points):
        t = rng.uniform(0.0, whole)
        case = Case("SIGKILL (studio)", f"{t:.2f} s")
        server, url = _studio(project, out)
        with contextlib.suppress(OSError):
            _ask(url, "api/jobs", STUDIO_JOB)
        time.sleep(t)
        os.kill(server.pid, signal.SIGKILL)
        _, err = server.communicate()
        deadline = time.monotonic() + 15
        while group_alive(server.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        if group_alive(server.pid):
            case.fail("rerun_clean", "a render of the killed studio is still running")
        if "Traceback" in err:
            case.fail("message_clean", "a traceback on stderr")
        now = _studio_outputs(out)
        for rel, digest in now.items():
            if rel != "manifest.json" and digest not in (prev.get(rel), new.get(rel)):
                case.fail("outputs_intact", f"{rel} is neither the previous nor the new file")
        cases.append(case)
    server, url = _studio(project, out)
    try:
        final = _run_job(url)
    finally:
        server.kill()
        server.communicate()
    last = cases[-1]
    if final["code"] != 0:
        last.fail("rerun_clean", f"the job after the kills ended with {final['code']}")
    check_same(last, out, new | {k: v for k, v in outputs(out).items() if k.startswith(".studio")})
    left = [p for p in leftovers(out) if not p.startswith(".studio")]
    if left:
        last.fail("rerun_clean", f"left behind: {left[:4]}")
    return cases


def test_studio_killed_at_random_points(project, tmp_path):
    cases = studio_kills(project, tmp_path, cases_wanted(20), seed=3840)
    bad = [f"{c.point}: {c.notes}" for c in cases if not c.ok]
    assert not bad, bad


# ----------------------------------------------------------------------------- batch

#: Three variants of the fixture sections, one Japanese.
BATCH_CSV = "name,lang\nada,en\nbo,ja\ncy,en\n"


def _batch_argv(variants, out) -> list[str]:
    return [sys.executable, str(ROOT / "render.py"), "batch", str(variants), "--workers", "2",
            "--quality", "tiny", "--out", str(out)]


def _batch_outputs(out) -> dict[str, str]:
    """Every variant's outputs (each variant's own ``.cache`` and the batch's store aside)."""
    return {k: v for k, v in outputs(out).items() if ".cache" not in Path(k).parts}


#: Records with the run's timings: whole JSON, never compared byte for byte.
RECORDS = ("manifest.json", "batch.json")


def _same_or_previous(case: Case, out, prev: dict[str, str], new: dict[str, str]) -> None:
    for rel, digest in _batch_outputs(out).items():
        if Path(rel).name in RECORDS:
            try:
                json.loads((out / rel).read_text(encoding="utf-8"))
            except ValueError:
                case.fail("outputs_intact", f"{rel} is not whole JSON")
        elif digest not in (prev.get(rel), new.get(rel)):
            case.fail("outputs_intact", f"{rel} is neither the previous nor the new file")


def batch_kills(project: Project, tmp_path, points: int, seed: int) -> list[Case]:
    """``render.py batch`` (its own local Dask cluster) SIGKILLed at ``points`` seeded random
    moments, in chains of :data:`CHAIN` from an empty folder: after each kill its workers and
    renders are gone with it and every variant's files are the previous or the new ones; the
    chain's re-run writes what an uninterrupted batch writes (judged on each chain's cases)."""
    from tests.module.studio.support import group_alive

    rng = random.Random(seed)
    tmp_path.mkdir(parents=True, exist_ok=True)
    variants = tmp_path / "variants.csv"
    variants.write_text(BATCH_CSV, encoding="utf-8")
    reference = tmp_path / "reference"
    t0 = time.monotonic()
    r = subprocess.run(_batch_argv(variants, reference), env=project.env(), capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    whole, new = time.monotonic() - t0, _batch_outputs(reference)
    cases: list[Case] = []
    chain = 0
    while len(cases) < points:
        out = tmp_path / f"chain{chain}"
        chain += 1
        prev: dict[str, str] = {}
        first = len(cases)
        while len(cases) - first < CHAIN and len(cases) < points:
            t = rng.uniform(0.0, whole)
            case = Case("SIGKILL (batch)", f"{t:.2f} s")
            p = subprocess.Popen(_batch_argv(variants, out), env=project.env(), stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True, start_new_session=True)
            try:
                p.wait(t)
                finished = True
            except subprocess.TimeoutExpired:
                os.kill(p.pid, signal.SIGKILL)
                finished = False
            _, err = p.communicate()
            deadline = time.monotonic() + 20
            while group_alive(p.pid) and time.monotonic() < deadline:
                time.sleep(0.1)
            if group_alive(p.pid):
                case.fail("rerun_clean", "a worker or render of the killed batch is still running")
            if IN_USE in err:
                case.fail("rerun_clean", "a stale lock was not taken over")
            _same_or_previous(case, out, prev, new)
            prev = _batch_outputs(out)
            if not finished:
                cases.append(case)
        r = subprocess.run(_batch_argv(variants, out), env=project.env(), capture_output=True, text=True, timeout=300)
        judged = cases[first:] or [Case("SIGKILL (batch)", "re-run")]
        if r.returncode != 0:
            judged[-1].fail("rerun_clean", f"re-run exit {r.returncode}: {r.stderr.strip()[-200:]}")
        now = {k: v for k, v in _batch_outputs(out).items() if Path(k).name not in RECORDS}
        want = {k: v for k, v in new.items() if Path(k).name not in RECORDS}
        if now != want:
            differ = sorted({k for k, _ in set(now.items()) ^ set(want.items())})
            judged[-1].fail("rerun_clean", f"the re-run's outputs differ from an uninterrupted batch's in {differ[:5]}")
        left = leftovers(out)
        if left:
            judged[-1].fail("rerun_clean", f"left behind after the re-run: {left[:4]}")
        for c in judged:
            c.rerun_clean = c.rerun_clean and judged[-1].rerun_clean
    return cases


def test_batch_killed_at_random_points(project, tmp_path):
    cases = batch_kills(project, tmp_path / "batch", cases_wanted(8), seed=3842)
    bad = [f"{c.point}: {c.notes}" for c in cases if not c.ok]
    assert not bad, bad
