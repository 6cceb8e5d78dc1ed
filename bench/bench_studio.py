"""Benchmark: the studio's loop, from a new sentence to its script, its first still, all
stills, and a new sentence cancelling the stills of the one before; against ``render.py
stills`` of the same sentence in the same minute.

Run with the project's interpreter::

    .venv/bin/python bench/bench_studio.py [--jobs N] [--lang en] [--out DIR] [--json FILE]

Starts the studio's server (``render.py studio --no-browser``, in its own process, as a
lecturer starts it; ``--jobs`` unset: the command's default, the number of cores). As the
page does when it opens, a first sentence's script and all its stills (the server, its text
caches and its spare job process then warm); then, for a sentence it has not seen, as the
page does: ``POST api/jobs`` for the stills of the 25 sections at preview quality (480p15)
and ``POST api/preview`` (the figures and the whole script), polling the job every 50 ms.
Measures:

(a) new sentence -> its script on the page (the preview's answer);
(b) -> the first still (the first section's ``done`` event, its PNG published);
(c) -> all 25 stills;
(d) a third sentence's stills, cancelled by a fourth sentence once its first section has
    started: from the fourth sentence's request to the third job's process group gone (no
    process of the group left but zombies).

And ``render.py stills`` of the same two sentences and sections into a folder of its own
(the first sentence untimed, so its text caches are as warm as the studio's), just before
and again just after the studio (each into a folder of its own), and (b) and (c) are given
as ratios to their mean: the machine is shared, so the ratio is the result. The stills of
both must be the same bytes. Goals: (a) < 1 s, (b) < 3 s, (c) no slower than ``stills``.
Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SENTENCES = ("the dog chased the ball across the wet grass", "a lecturer types her own example here",
             "every token looks at every other token", "the quick brown fox jumps over the lazy dog")


def post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    with urllib.request.urlopen(req, timeout=600) as r:
        return json.loads(r.read())


def get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=600) as r:
        return json.loads(r.read())


def group_alive(pgid: int) -> bool:
    """Whether a process of group ``pgid`` is left that is not a zombie (from /proc)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2:].split()   # after "pid (comm) ": state, ppid, pgrp
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False


def job_process(server: int) -> int:
    """The pid of the running ``studio.job`` child of ``server`` (for a studio whose job
    state does not say it)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text, cmd = stat.read_text(), (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2:].split()
        if int(fields[1]) == server and b"studio.job" in cmd and b"--warm" not in cmd and fields[0] != "Z":
            return int(stat.parent.name)
    raise RuntimeError("no job process")


def stills_job(url: str, sentence: str, lang: str, sections: list[int]) -> dict:
    return post(url + "api/jobs", {"product": "stills", "choice": {"sentence": sentence, "lang": lang},
                                   "sections": sections})


def until(url: str, job: int, done, step: float = 0.05) -> dict:
    while True:
        state = get(url + f"api/jobs/{job}")
        if done(state):
            return state
        time.sleep(step)


def shown(state: dict) -> list[str]:
    return [s for s, e in state["sections"].items() if e.get("status") in ("rendered", "cached")]


def studio(a, out: Path) -> tuple[dict, dict[str, bytes]]:
    """The measures (a) to (d), and the stills of the measured sentence by name."""
    jobs = ["--jobs", str(a.jobs)] if a.jobs else []
    server = subprocess.Popen([sys.executable, str(ROOT / "render.py"), "studio", "--no-browser", "--out", str(out),
                               "--lang", a.lang, *jobs], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        url = server.stdout.readline().strip()
        first = post(url + "api/preview", {"sentence": SENTENCES[0], "lang": a.lang})
        sections = [s["number"] for s in first["sections"] if not s["card"]]
        warm = stills_job(url, SENTENCES[0], a.lang, sections)
        until(url, warm["id"], lambda s: not s["running"], 0.5)
        time.sleep(a.settle)   # the spare job process ready, as after a lecturer reads the page

        t0 = time.perf_counter()
        job = stills_job(url, SENTENCES[1], a.lang, sections)
        t_asked = time.perf_counter()
        preview = post(url + "api/preview", {"sentence": SENTENCES[1], "lang": a.lang})
        t_script = time.perf_counter() - t_asked
        state = until(url, job["id"], lambda s: bool(shown(s)) or not s["running"])
        t_first = time.perf_counter() - t0
        first_section = shown(state)
        state = until(url, job["id"], lambda s: not s["running"])
        t_all = time.perf_counter() - t0
        failed = [s for s, e in state["sections"].items() if e.get("status") == "failed"]
        done = shown(state)
        pngs = {p.name: p.read_bytes() for p in (out / "preview" / "stills").glob("*.png")}

        old = stills_job(url, SENTENCES[2], a.lang, sections)
        until(url, old["id"], lambda s: any(e["event"] == "start" for e in s["sections"].values()))
        pid = old.get("pid") or job_process(server.pid)
        t1 = time.perf_counter()
        stills_job(url, SENTENCES[3], a.lang, sections)
        t_answer = time.perf_counter() - t1
        while group_alive(pid):
            time.sleep(0.01)
        t_cancel = time.perf_counter() - t1
    finally:
        server.terminate()
        server.wait(60)
    return {"sections": len(sections), "script_s": round(t_script, 3), "server_preview_s": preview["seconds"],
            "first_still_s": round(t_first, 2), "first_still": first_section,
            "all_stills_s": round(t_all, 1), "stills": len(done), "failed": failed,
            "cancel_s": round(t_cancel, 2), "new_job_answered_s": round(t_answer, 2)}, pngs


def command_line(a, out: Path, sections: list[int], sentence: str) -> float:
    """Seconds of ``render.py stills`` of ``sentence`` into ``out``."""
    jobs = ["--jobs", str(a.jobs)] if a.jobs else []
    t0 = time.perf_counter()
    subprocess.run([sys.executable, str(ROOT / "render.py"), "stills", "--sentence", sentence, "--lang", a.lang,
                    "--quality", "preview", "--sections", ",".join(map(str, sections)), "--out", str(out), *jobs],
                   check=True, capture_output=True)
    return time.perf_counter() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=None, help="both commands' --jobs (default: theirs)")
    ap.add_argument("--lang", default="en")
    ap.add_argument("--settle", type=float, default=5.0, help="seconds between the first sentence and the next")
    ap.add_argument("--out", default=None)
    ap.add_argument("--json", default=None)
    a = ap.parse_args(argv)
    out = Path(a.out or tempfile.mkdtemp(prefix="bench-studio-"))
    load = os.getloadavg()[0]
    sys.path.insert(0, str(ROOT))
    from scenes import registry

    sections = [unit.number for unit in registry.SECTIONS]
    # the command line in the same state as the studio (its text caches warm from a first
    # sentence), timed just before and just after the studio: the machine's load changes
    command_line(a, out / "cli-before", sections, SENTENCES[0])
    before = command_line(a, out / "cli-before", sections, SENTENCES[1])
    result, pngs = studio(a, out / "studio")
    command_line(a, out / "cli-after", sections, SENTENCES[0])
    after = command_line(a, out / "cli-after", sections, SENTENCES[1])
    cli = (before + after) / 2
    same = all((out / "cli-before" / "stills" / name).read_bytes() == data for name, data in pngs.items())
    result.update({"jobs": a.jobs or "the commands' default", "load_before": round(load, 1),
                   "load_after": round(os.getloadavg()[0], 1), "stills_command_s": [round(before, 1), round(after, 1)],
                   "all_stills_ratio": round(result["all_stills_s"] / cli, 2),
                   "first_still_ratio": round(result["first_still_s"] / cli, 3),
                   "same_stills_as_command": same and len(pngs) == result["sections"]})
    print(json.dumps(result, indent=1))
    if a.json:
        Path(a.json).write_text(json.dumps(result, indent=1))
    return 0 if not result["failed"] and result["same_stills_as_command"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
