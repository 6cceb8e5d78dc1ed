"""Damaged store entries: found by what they hold, rendered again, reported once.

A store entry records the sha256 of each of its files in its meta (written last). The
damage is done by hand to a finished render, as a full disk, a crash of the machine or a
stray tool would: a clip cut in half, a byte changed in the middle of a clip (same size), a
meta that is not JSON, a subtitle file removed, the output's manifest cut. The next run must
say so once per entry (one line naming the section), render those sections again, and
write exactly the outputs of an untouched run; the run after that says nothing.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.faults.harness import Case, Project, check_same, leftovers, outputs

# one worker builds the reference project (conftest) and runs every case that uses it
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("faults")]



def entry(out: Path, stem: str) -> tuple[Path, str]:
    """A section's store folder and the key its clip was last rendered under."""
    key = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["clips"][stem]["hash"]
    return out / ".cache" / "store" / stem, key


def cut_in_half(p: Path) -> None:
    data = p.read_bytes()
    p.unlink()   # a new file: the published clip (a hard link) keeps its bytes
    p.write_bytes(data[: len(data) // 2])


def flip_a_byte(p: Path) -> None:
    data = bytearray(p.read_bytes())
    data[len(data) // 2] ^= 0xFF
    p.unlink()
    p.write_bytes(bytes(data))


#: (what is damaged, section, how) in two rounds: one damage per section per run.
ROUNDS = (
    (("clip cut in half", "01-alpha", lambda d, k: cut_in_half(d / f"{k}.mp4")),
     ("meta not JSON", "02-beta", lambda d, k: (d / f"{k}.json").write_text('{"duration": 1.', encoding="utf-8")),
     ("a byte changed in a clip", "03-gamma", lambda d, k: flip_a_byte(d / f"{k}.mp4"))),
    (("subtitles removed", "01-alpha", lambda d, k: (d / f"{k}.en.vtt").unlink()),
     ("subtitles cut", "02-beta", lambda d, k: cut_in_half(d / f"{k}.srt"))),
)


def damaged_cases(project: Project, out: Path) -> list[Case]:
    expected = outputs(project.base / "en")
    cases = []
    for damages in ROUNDS:
        round_cases = []
        for what, stem, damage in damages:
            store, key = entry(out, stem)
            damage(store, key)
            round_cases.append((Case("damaged cache entry", what), stem))
        r = project.run("render", out, "--lang", "en")
        said = [ln for ln in r.stderr.splitlines() if "stored render was damaged" in ln]
        for case, stem in round_cases:
            if r.returncode != 0:
                case.fail("rerun_clean", f"exit {r.returncode}: {r.stderr.strip()[-200:]}")
            mine = [ln for ln in said if stem in ln]
            if len(mine) != 1:
                case.fail("message_clean", f"{len(mine)} lines about {stem}: {said}")
            check_same(case, out, expected)
            if leftovers(out):
                case.fail("outputs_intact", f"left behind: {leftovers(out)}")
        again = project.run("render", out, "--lang", "en")
        for case, _ in round_cases:
            if "stored render was damaged" in again.stderr or again.returncode != 0:
                case.fail("message_clean", f"reported again on the next run: {again.stderr[-300:]}")
            if "0 rendered, 3 cached" not in again.stderr:
                case.fail("rerun_clean", "the next run rendered again")
        cases += [c for c, _ in round_cases]
    return cases


def test_damaged_entries_are_rendered_again_and_reported_once(project, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(project.base / "en", out, symlinks=True)
    cases = damaged_cases(project, out)
    bad = [f"{c.point}: {c.notes}" for c in cases if not c.ok]
    assert not bad, bad


def test_a_cut_manifest_is_written_anew(project, tmp_path):
    """The output's manifest cut mid-way (a crash of the machine after a rename it did not
    flush): the next run reads it as absent and writes it whole; nothing renders again."""
    out = tmp_path / "out"
    shutil.copytree(project.base / "en", out, symlinks=True)
    m = out / "manifest.json"
    m.write_bytes(m.read_bytes()[:100])
    r = project.run("render", out, "--lang", "en")
    assert r.returncode == 0, r.stderr
    assert "0 rendered, 3 cached" in r.stderr
    json.loads(m.read_text(encoding="utf-8"))
    case = Case("cut manifest", "manifest.json")
    check_same(case, out, outputs(project.base / "en"))
    assert case.ok, case.notes
