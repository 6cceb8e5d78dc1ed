"""The studio's renders through its API: two sections' clips, then a cancelled render that
leaves the previous outputs as they were (the lowest quality: what is tested is the studio)."""

from __future__ import annotations

import hashlib

import pytest

from .support import call, running_studio, wait_job

pytestmark = pytest.mark.slow

SENTENCE = "the cat sat on the mat"


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_render_two_sections_then_cancel_and_keep_the_previous_clips(tmp_path):
    with running_studio(tmp_path) as server:
        choice = {"sentence": SENTENCE, "lang": "en", "theme": "dark"}
        code, job = call(server, "api/jobs", {"product": "clips", "choice": choice, "sections": [1, 3],
                                              "quality": "tiny"})
        assert code == 200, job
        done = wait_job(server, job["id"], lambda j: not j["running"])
        assert done["code"] == 0, (tmp_path / ".studio" / "logs" / f"job-{job['id']}.log").read_text()
        assert {s: e["status"] for s, e in done["sections"].items()} == {
            "01-three-projections": "rendered", "03-which-key": "rendered"}
        clips = [tmp_path / "preview" / "clips" / f"{stem}.mp4" for stem in done["sections"]]
        before = {c: digest(c) for c in clips}
        # the same sections in the other theme, cancelled while the first one renders
        code, job = call(server, "api/jobs", {"product": "clips", "choice": {**choice, "theme": "light"},
                                              "sections": [1, 3], "quality": "tiny"})
        wait_job(server, job["id"], lambda j: any(e["event"] == "start" for e in j["sections"].values()))
        code, cancelled = call(server, f"api/jobs/{job['id']}/cancel", {})
        assert code == 200 and cancelled["cancelled"]
        after = wait_job(server, job["id"], lambda j: not j["running"], timeout=60)
        assert after["code"] != 0
        assert not any(e.get("status") == "rendered" for e in after["sections"].values())
        assert {c: digest(c) for c in clips} == before
        assert not list((tmp_path / "preview" / "clips").glob("*.tmp*"))


def test_a_sections_contact_sheet_with_the_probes_verdict(tmp_path):
    from PIL import Image

    with running_studio(tmp_path) as server:
        code, job = call(server, "api/jobs", {"product": "sheets", "sections": [3],
                                              "choice": {"sentence": SENTENCE, "lang": "en"}})
        done = wait_job(server, job["id"], lambda j: not j["running"])
    event = done["sections"]["03-which-key"]
    assert done["code"] == 0 and event["status"] == "rendered" and event["problems"] == []
    with Image.open(tmp_path / "preview" / "sheets" / "03-which-key.png") as sheet:
        # a row of three beats for every three beats said, plus the last frame
        assert sheet.width == 3 * 640 and sheet.height >= 2 * 382
