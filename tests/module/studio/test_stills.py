"""The page's stills through the studio's API: each still is on the page as soon as it is
written (not after the others), it is the still ``render.py stills`` writes for the same
sentence, and a new sentence's stills stop the old sentence's job, its whole process group."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from tests.support import ROOT

from .support import call, group_alive, running_studio, wait_job

pytestmark = pytest.mark.slow

SENTENCES = ("the cat sat on the mat", "a dog ran in the park")
SECTIONS = [3, 1, 5]


def shown(job: dict) -> dict[str, str]:
    return {s: e["hash"] for s, e in job["sections"].items() if e.get("status") in ("rendered", "cached")}


def test_each_still_is_shown_when_written_and_is_the_command_lines(tmp_path):
    body = {"product": "stills", "choice": {"sentence": SENTENCES[0], "lang": "en"}, "sections": SECTIONS,
            "quality": "tiny"}
    with running_studio(tmp_path / "studio", spares=True) as server:
        code, job = call(server, "api/jobs", body)
        assert code == 200, job
        first = wait_job(server, job["id"], lambda j: bool(shown(j)) or not j["running"], every=0.05)
        # one section at a time (--jobs 1), in the order asked: the first is on the page
        # while the others are still to come, and its PNG is there to fetch
        assert list(shown(first)) == ["03-which-key"] and first["running"]
        assert (tmp_path / "studio" / "preview" / "stills" / "03-which-key.png").is_file()
        done = wait_job(server, job["id"], lambda j: not j["running"], every=0.05)
    assert done["code"] == 0 and len(shown(done)) == len(SECTIONS)
    cli = tmp_path / "cli"
    subprocess.run([sys.executable, str(ROOT / "render.py"), "stills", "--sentence", SENTENCES[0], "--lang", "en",
                    "--quality", "tiny", "--sections", ",".join(map(str, SECTIONS)), "--out", str(cli)],
                   check=True, capture_output=True, timeout=300)
    studio_pngs = sorted((tmp_path / "studio" / "preview" / "stills").glob("*.png"))
    assert [p.name for p in studio_pngs] == sorted(p.name for p in (cli / "stills").glob("*.png"))
    for png in studio_pngs:
        assert png.read_bytes() == (cli / "stills" / png.name).read_bytes(), png.name


def test_a_new_sentence_stops_the_old_sentences_stills(tmp_path):
    many = list(range(1, 13))
    with running_studio(tmp_path, spares=True) as server:
        code, old = call(server, "api/jobs", {"product": "stills", "choice": {"sentence": SENTENCES[0], "lang": "en"},
                                              "sections": many, "quality": "tiny"})
        assert code == 200, old
        wait_job(server, old["id"], lambda j: any(e["event"] == "start" for e in j["sections"].values()), every=0.05)
        assert group_alive(old["pid"])
        code, new = call(server, "api/jobs", {"product": "stills", "choice": {"sentence": SENTENCES[1], "lang": "en"},
                                              "sections": [2], "quality": "tiny"})
        assert code == 200, new
        _, stopped = call(server, f"api/jobs/{old['id']}")
        assert stopped["cancelled"] and not stopped["running"] and stopped["code"] != 0
        assert len(shown(stopped)) < len(many)   # it did not run to its end
        end = time.monotonic() + 60   # its workers and forkserver go with it
        while group_alive(old["pid"]):
            assert time.monotonic() < end, "the old job's process group is still there"
            time.sleep(0.05)
        done = wait_job(server, new["id"], lambda j: not j["running"], every=0.05)
    assert done["code"] == 0 and list(shown(done)) == ["02-move-the-input"]
