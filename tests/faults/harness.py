"""What the fault suite shares: the fixture project, a real small filesystem, and the checks
every fault case makes (outputs intact, the re-run clean, the message clean).

A case injects a real fault (a full tmpfs, a SIGKILL, a cut file), never a mock. Its
invariants:

- *outputs intact*: every output file (everything in ``--out`` but ``.cache/``) is either the
  one of the run before or the one of an uninterrupted run of the new options, byte for
  byte (the fixture's renders are reproducible); the manifest is whole JSON; no temporary
  file is left behind.
- *re-run clean*: the same command run again, with nothing cleaned by hand, exits 0 and
  writes exactly what an uninterrupted run writes.
- *message clean*: the failing run printed at most one line on stderr, naming the cause,
  and never a traceback.

``bench/faults.py`` runs the same cases in larger numbers and prints the table.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
PKG = "fxfault"                 # the copied fixture package's name
#: Temporary names the project writes (files.tmp_name, tempfile.mkstemp in the voice cache).
LEFTOVER = re.compile(r"^\..+\.\d+\.tmp$|^\.tmp-")

__all__ = ["ROOT", "PKG", "SLIDE_FORMATS", "reference_project", "Case", "Tally", "Project", "tmpfs", "fill", "unfill", "outputs",
           "leftovers", "message_problem", "cases_wanted"]


#: The deck's formats the suite writes (the PDF's CJK font check is its own test's).
SLIDE_FORMATS = ("--format", "pptx,html")


def reference_project(base: Path) -> Project:
    """The fixture sections rendered uninterrupted: ``en``, ``render`` and ``slides`` in
    English (the previous outputs every case starts from); ``ja``, a copy of ``en`` rendered
    in Japanese (what a new ``render`` writes); ``ja-slides``, a copy of ``en`` with the
    Japanese deck (what a new ``slides`` writes). ``cold_seconds``: how long the Japanese
    render took (the scale of the kill moments)."""
    p = Project(base)
    steps = (("render", "en", "en", ()), ("slides", "en", "en", SLIDE_FORMATS),
             ("render", "ja", "ja", ()), ("slides", "ja-slides", "ja", SLIDE_FORMATS))
    for command, folder, lang, extra in steps:
        if folder != "en":
            shutil.copytree(base / "en", base / folder, symlinks=True)
        t0 = time.monotonic()
        r = p.run(command, base / folder, "--lang", lang, *extra)
        if r.returncode != 0:
            raise RuntimeError(f"{command} {folder}: {r.stderr.strip()[-300:]}")
        if (command, folder) == ("render", "ja"):
            p.cold_seconds = time.monotonic() - t0
    return p


def cases_wanted(ci: int) -> int:
    """How many cases of a kind to try: ``ci`` in CI, ``FAULT_CASES`` when set (the
    nightly run, bench/faults.py)."""
    return int(os.environ.get("FAULT_CASES") or ci)


@dataclass
class Case:
    """One fault injected and what was found after it."""

    fault: str
    point: str
    outputs_intact: bool = True
    rerun_clean: bool = True
    message_clean: bool = True
    notes: list[str] = field(default_factory=list)

    def fail(self, what: str, why: str) -> None:
        setattr(self, what, False)
        self.notes.append(why)

    @property
    def ok(self) -> bool:
        return self.outputs_intact and self.rerun_clean and self.message_clean


@dataclass
class Tally:
    """The cases of one fault, counted for the report's table."""

    fault: str
    cases: list[Case] = field(default_factory=list)

    def row(self) -> tuple[str, int, int, int, int]:
        n = len(self.cases)
        return (self.fault, n, sum(c.outputs_intact for c in self.cases),
                sum(c.rerun_clean for c in self.cases), sum(c.message_clean for c in self.cases))


class Project:
    """A copy of the three tiny fixture sections (tests/fixtures), rendered at 128x72 5 fps
    through ``python render.py`` in a subprocess, as a user runs it."""

    cold_seconds: float = 3.0

    def __init__(self, base: Path):
        self.base = base
        if not (base / PKG).is_dir():
            shutil.copytree(FIXTURES, base / PKG, ignore=shutil.ignore_patterns("__pycache__"))

    def env(self, extra: dict | None = None) -> dict:
        # none of this process's settings (a studio test in it sets ATTN_CAPTIONS_FILE)
        env = {k: v for k, v in os.environ.items() if not k.startswith("ATTN_")}
        env.update(ATTN_REGISTRY=f"{PKG}.registry", PYTHONPATH=os.pathsep.join([str(self.base), str(ROOT)]))
        return {**env, **(extra or {})}

    def argv(self, command: str, out: Path, *extra: str) -> list[str]:
        return [sys.executable, str(ROOT / "render.py"), command, "--quality", "tiny", "--jobs", "2",
                "--out", str(out), *extra]

    def run(self, command: str, out: Path, *extra: str, timeout: float = 180) -> subprocess.CompletedProcess:
        return subprocess.run(self.argv(command, out, *extra), env=self.env(), capture_output=True,
                              text=True, timeout=timeout)

    def start(self, command: str, out: Path, *extra: str) -> subprocess.Popen:
        return subprocess.Popen(self.argv(command, out, *extra), env=self.env(), stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)


@contextlib.contextmanager
def tmpfs(where: Path, size: str = "4m") -> Iterator[Path]:
    """A real filesystem of ``size`` mounted at ``where`` (root only; unmounted afterwards,
    lazily if a process still holds it)."""
    where.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], check=True,
                   capture_output=True)
    try:
        yield where
    finally:
        if subprocess.run(["umount", str(where)], capture_output=True).returncode:
            subprocess.run(["umount", "-l", str(where)], capture_output=True)


def fill(mount: Path, leave: int) -> None:
    """Fill ``mount`` so that only about ``leave`` bytes stay free."""
    free = shutil.disk_usage(mount).free
    with open(mount / "filler", "ab") as f:
        want = max(0, free - leave)
        while want > 0:
            chunk = min(want, 1 << 20)
            try:
                f.write(b"\0" * chunk)
                f.flush()
            except OSError:
                break
            want -= chunk


def unfill(mount: Path) -> None:
    (mount / "filler").unlink(missing_ok=True)


def outputs(out: Path) -> dict[str, str]:
    """Every output file (``.cache/`` aside) and its sha256."""
    found = {}
    # .cache/ is not walked at all: a render still dying may be removing its folders there
    for folder, dirs, files in os.walk(out):
        if Path(folder) == out:
            dirs[:] = [d for d in dirs if d != ".cache"]
        for name in files:
            p = Path(folder, name)
            if LEFTOVER.match(name) or not p.is_file():
                continue
            found[str(p.relative_to(out))] = digest(p)
    return dict(sorted(found.items()))


def digest(path: Path) -> str:
    """A file's sha256; a zip's (the .pptx) over its members' names and bytes, as its
    members' timestamps change from run to run. A cut zip reads as its bytes' digest."""
    import zipfile

    if path.suffix == ".pptx":
        try:
            with zipfile.ZipFile(path) as z:
                h = hashlib.sha256()
                for name in sorted(z.namelist()):
                    h.update(name.encode() + b"\0" + hashlib.sha256(z.read(name)).digest())
                return "zip:" + h.hexdigest()
        except (zipfile.BadZipFile, OSError, KeyError):
            pass
    return hashlib.sha256(path.read_bytes()).hexdigest()


def leftovers(out: Path) -> list[str]:
    """Temporary files or scratch folders a finished run left behind."""
    left = [str(p.relative_to(out)) for p in out.rglob("*") if LEFTOVER.match(p.name)]
    if (out / ".cache" / "tmp").exists():
        left.append(".cache/tmp")
    return left


def check_outputs(case: Case, out: Path, before: dict[str, str], after: dict[str, str],
                  allow_leftovers: bool = False) -> None:
    """Each output is the previous run's or the uninterrupted new run's, byte for byte; the
    manifest (it holds timings) is whole JSON; no temporary file is left (unless
    ``allow_leftovers``: a killed run's are the next run's to remove)."""
    now = outputs(out)
    for rel, digest in now.items():
        if rel == "manifest.json":
            try:
                json.loads((out / rel).read_text(encoding="utf-8"))
            except ValueError:
                case.fail("outputs_intact", "manifest.json is not whole JSON")
            continue
        if digest not in (before.get(rel), after.get(rel)):
            case.fail("outputs_intact", f"{rel} is neither the previous nor the new file")
    for rel in before:
        if rel not in now and rel in after:
            case.fail("outputs_intact", f"{rel} was removed")
    left = [] if allow_leftovers else leftovers(out)
    if left:
        case.fail("outputs_intact", f"left behind: {', '.join(left[:4])}")


def check_same(case: Case, out: Path, expected: dict[str, str]) -> None:
    """The outputs are exactly an uninterrupted run's (the manifest's timings aside)."""
    now = {k: v for k, v in outputs(out).items() if k != "manifest.json"}
    want = {k: v for k, v in expected.items() if k != "manifest.json"}
    if now != want:
        diff = sorted(set(now.items()) ^ set(want.items()))
        case.fail("rerun_clean", f"re-run differs from an uninterrupted run in {sorted({d[0] for d in diff})[:4]}")


def message_problem(stderr: str, expect: Sequence[str] = ()) -> str | None:
    """What is wrong with a failing run's stderr: a traceback or a warning, not exactly one
    ``render.py: error:`` line, that line not last, or a line without any of ``expect``;
    None when it is clean. (The progress display also goes to stderr, above the line.)"""
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    if "Traceback" in stderr:
        return "a traceback: " + lines[-1][:120]
    if "Warning" in stderr:
        return "a warning: " + next(ln for ln in lines if "Warning" in ln)[:120]
    errors = [ln for ln in lines if ln.startswith("render.py: error")]
    if len(errors) != 1 or lines[-1] != errors[0]:
        return f"{len(errors)} error lines on stderr: {' | '.join(lines[-3:])[:200]}"
    if expect and not any(e in errors[0] for e in expect):
        return f"unexpected message: {errors[0][:160]}"
    return None


def wait_gone(pid: int, timeout: float = 10) -> None:
    """Wait until process ``pid`` (and so its flock) is gone."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
