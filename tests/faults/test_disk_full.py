"""A full disk at every write site of ``render`` and ``slides``, on a real small filesystem.

Why tmpfs: it is a real filesystem that fills (ENOSPC from the kernel at whatever write
comes next, in manim's encoder, PyAV's muxer, a rename's copy, the manifest), where
``RLIMIT_FSIZE`` would only cap one file and a mock would test the mock. The disk is filled
leaving a seeded spread of free space, from none to about what the new run needs, so the
cases land on the lock, the clips' renders, the store, the published clips and subtitles,
the joined video, the transcript, the deck and the manifest in turn.

Each case: the previous run's outputs are on the disk (English), the disk is filled, the
new run (Japanese, every section stale) must end with exit 0, or exit 1 and the one line
``render.py: error: no space left in FOLDER (... free, ... needed)``; every output is then the
previous one or the new one, no temporary file is left; with the space freed, the same
command writes exactly what an uninterrupted run writes.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from tests.faults.harness import (
    SLIDE_FORMATS,
    Case,
    Project,
    cases_wanted,
    check_outputs,
    check_same,
    fill,
    message_problem,
    outputs,
    tmpfs,
    unfill,
)

# one worker builds the reference project (conftest) and runs every case that uses it
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("faults")]

FULL = "render.py: error: no space left in "



def spread(n: int, span: int, seed: int) -> list[int]:
    """``n`` amounts of free space in ``[0, span]``: both ends, then seeded random points."""
    rng = random.Random(seed)
    points = [0, span][:n] + [rng.randrange(0, span) for _ in range(max(0, n - 2))]
    return sorted(points)


def needed_span(before: Path, after: Path) -> int:
    """About what the new run adds: its store entries, clips, video, deck (the bytes of the
    uninterrupted run's tree beyond the previous one's), with a little room."""
    def size(p: Path) -> int:
        return sum(f.stat().st_size for f in p.rglob("*") if f.is_file())
    return int(max(size(after), size(before)) * 1.1)


def disk_full_case(project: Project, mount: Path, leave: int, command: str, extra: tuple[str, ...]) -> Case:
    base = project.base
    out = mount / "out"
    shutil.copytree(base / "en", out, symlinks=True)
    prev, new = outputs(out), outputs(base / ("ja-slides" if command == "slides" else "ja"))
    case = Case(f"disk full ({command})", f"{leave // 1024} KB free")
    fill(mount, leave)
    r = project.run(command, out, "--lang", "ja", *extra)
    if r.returncode not in (0, 1):
        case.fail("message_clean", f"exit code {r.returncode}")
    if r.returncode == 1:
        problem = message_problem(r.stderr, expect=(FULL,))
        if problem:
            case.fail("message_clean", problem)
        elif f"in {out}" not in r.stderr:
            case.fail("message_clean", "the message does not name the output folder")
    check_outputs(case, out, prev, new)
    unfill(mount)
    r = project.run(command, out, "--lang", "ja", *extra)
    if r.returncode != 0:
        case.fail("rerun_clean", f"re-run exit {r.returncode}: {r.stderr.strip()[-160:]}")
    check_same(case, out, new)
    return case


def test_render_on_a_full_disk(project, tmp_path):
    span = needed_span(project.base / "en", project.base / "ja")
    failures = []
    for i, leave in enumerate(spread(cases_wanted(4), span, seed=38)):
        with tmpfs(tmp_path / f"disk{i}", size=f"{(span * 3) // 1024 + 512}k") as mount:
            case = disk_full_case(project, mount, leave, "render", ())
        if not case.ok:
            failures.append(f"{case.point}: {case.notes}")
    assert not failures, failures


def test_slides_on_a_full_disk(project, tmp_path):
    """The deck (PowerPoint and reveal.js; the PDF needs a CJK font check of its own) on a
    disk that fills while the clips, the posters or the deck are written."""
    span = needed_span(project.base / "en", project.base / "ja-slides")
    failures = []
    for i, leave in enumerate(spread(cases_wanted(2), span, seed=3801)):
        with tmpfs(tmp_path / f"disk{i}", size=f"{(span * 3) // 1024 + 512}k") as mount:
            case = disk_full_case(project, mount, leave, "slides", SLIDE_FORMATS)
        if not case.ok:
            failures.append(f"{case.point}: {case.notes}")
    assert not failures, failures


def test_a_full_disk_before_anything_is_written(project, tmp_path):
    """No room even for the lock's process id: the same one line, nothing created but the
    folders."""
    with tmpfs(tmp_path / "disk", size="64k") as mount:
        fill(mount, 0)
        r = project.run("render", mount / "out", "--lang", "ja")
        assert r.returncode == 1
        assert message_problem(r.stderr, expect=(FULL,)) is None, r.stderr
        assert outputs(mount / "out") == {}


def test_voice_cache_on_a_full_disk(tmp_path):
    """A line synthesised into a full voice cache: the disk's error, no half-written line
    (the next run would read it as cached), no temporary file; with room, the line."""
    from narration.synth import Synthesizer
    from pipeline.files import is_disk_full

    with tmpfs(tmp_path / "disk", size="2m") as mount:
        synth = Synthesizer(mount / "voice")
        fill(mount, 16 * 1024)
        with pytest.raises(OSError) as e:
            synth.line("A line far too long for sixteen kilobytes of audio.", "en")
        assert is_disk_full(e.value)
        assert not synth.has("A line far too long for sixteen kilobytes of audio.", "en")
        assert [p.name for p in (mount / "voice").rglob("*") if p.is_file()] == []
        unfill(mount)
        line = synth.line("A line far too long for sixteen kilobytes of audio.", "en")
        assert line.seconds > 1 and line.path.is_file()


def test_studio_outputs_on_a_full_disk(tmp_path):
    """The studio's edit of the words and the recorder's take on a full disk: 507 with the
    one line, the previous file kept, no temporary file."""
    import json
    import urllib.request

    from narration.recorder import RecorderServer
    from tests.module.studio.support import call, running_studio

    with tmpfs(tmp_path / "disk", size="512k") as mount, running_studio(mount / "out") as studio:
        code, preview = call(studio, "api/preview", {"sentence": "the cat sat on the mat", "lang": "en"})
        beat = next(c["beat"] for c in preview["script"] if c["section"] == 4)
        code, _ = call(studio, "api/words", {"lang": "en", "section": 4, "key": beat, "text": "Short words."})
        assert code == 200
        before = (mount / "out" / "captions.toml").read_bytes()
        fill(mount, 0)
        code, answer = call(studio, "api/words", {"lang": "en", "section": 4, "key": beat,
                                                  "text": "Much longer words of the lecturer. " * 400})
        assert code == 507 and answer["error"].startswith("no space left in "), answer
        assert (mount / "out" / "captions.toml").read_bytes() == before
        rec = RecorderServer(mount / "out" / "recordings", [{"id": "s01-a", "text": "x", "section": 1,
                                                             "beat": "a"}], "en").start()
        try:
            req = urllib.request.Request(f"{rec.url}take/s01-a.wav", data=b"RIFF" + b"\0" * 200_000, method="PUT")
            try:
                urllib.request.urlopen(req, timeout=30)
                code, answer = 200, {}
            except urllib.error.HTTPError as e:
                code, answer = e.code, json.loads(e.read())
            assert code == 507 and "no space left in" in answer["error"], answer
        finally:
            rec.stop()
        left = [p.name for p in (mount / "out").rglob("*") if p.name.startswith(".") and p.is_file()]
        assert left == [], left


def test_a_studio_render_on_a_full_disk(tmp_path, monkeypatch):
    """A render the page starts, on a disk with no room: the job's error is the command
    line's one line, its exit code 1."""
    from tests.module.studio.support import call, running_studio

    monkeypatch.setenv("ATTN_REGISTRY", "tests.fixtures.registry")
    with tmpfs(tmp_path / "disk", size="1m") as mount, running_studio(mount / "out") as studio:
        fill(mount, 8 * 1024)
        code, job = call(studio, "api/jobs", {"product": "explainer", "quality": "tiny", "choice": {"lang": "en"}})
        assert code == 200, job
        studio.jobs.get(job["id"]).wait(120)
        code, state = call(studio, f"api/jobs/{job['id']}")
        log = studio.jobs.get(job["id"]).log.read_text(encoding="utf-8", errors="replace")
        assert state["code"] == 1 and (state["error"] or "").startswith("no space left in "), (state, log[-800:])
