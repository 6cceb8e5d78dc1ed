"""render.py end to end, on the three tiny fixture sections (tests/fixtures), at 128x72 5 fps.

The fixture package is copied to a temporary directory so the tests can edit a caption
and make sections fail (ATTN_FIXTURE_FAIL) without touching the repository. Rendering
goes through ``python render.py`` in a subprocess, as a user would run it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import av
import pytest
import srt

from tests.support import FIXTURES, ROOT

sys.path.insert(0, str(ROOT))

import render  # noqa: E402
from pipeline import cache, media, options, registry  # noqa: E402
from tests.fixtures import registry as fixture_registry  # noqa: E402

PKG = "fxproj"           # the copied fixture package
TITLES_EN = ["Alpha", "Beta", "Gamma"]
STEMS = ["01-alpha", "02-beta", "03-gamma"]
FRAME = 1 / 5            # the hidden "tiny" quality renders at 5 fps


# One worker runs this module, so the fixture project is rendered once (pytest-xdist).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("render")]


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    base = tmp_path_factory.mktemp("render")
    shutil.copytree(FIXTURES, base / PKG, ignore=shutil.ignore_patterns("__pycache__"))
    return base


def run(project: Path, *args: str, env: dict | None = None, check_rc: int | None = 0):
    full_env = {**os.environ, "ATTN_REGISTRY": f"{PKG}.registry",
                "PYTHONPATH": os.pathsep.join([str(project), str(ROOT)]), **(env or {})}
    for k in ("ATTN_LANG", "ATTN_THEME", "ATTN_CAPTIONS", "ATTN_HEAD", "ATTN_FIXTURE_FAIL"):
        if k not in (env or {}):
            full_env.pop(k, None)
    p = subprocess.run([sys.executable, str(ROOT / "render.py"), *args], env=full_env,
                       capture_output=True, text=True, timeout=300)
    if check_rc is not None:
        assert p.returncode == check_rc, p.stdout + p.stderr
    return p


def out_args(project: Path, *extra: str) -> list[str]:
    return ["--quality", "tiny", "--out", str(project / "out"), *extra]


def last_run(project: Path) -> dict:
    return json.loads((project / "out" / "manifest.json").read_text(encoding="utf-8"))["last_run"]


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def rendered(project):
    """A cold render of all three fixture sections, in English, with 2 workers."""
    run(project, *out_args(project, "--lang", "en", "--jobs", "2"))
    return project / "out"


# ----------------------------------------------------------------------------- end to end


def clip_duration(path: Path) -> float:
    with av.open(str(path)) as c:
        return c.duration / 1e6


def test_stitched_video_duration_and_chapters(rendered):
    mp4 = rendered / "explainer.mp4"
    clips = [rendered / "clips" / f"{s}.mp4" for s in STEMS]
    total = sum(clip_duration(c) for c in clips)
    with av.open(str(mp4)) as c:
        assert c.streams.video[0].codec_context.name == "h264"
        assert abs(c.duration / 1e6 - total) <= FRAME
        chapters = c.chapters()
        frames = sum(1 for _ in c.decode(video=0))
    assert [ch["metadata"]["title"] for ch in chapters] == TITLES_EN
    starts = [float(ch["start"] * ch["time_base"]) for ch in chapters]
    ends = [float(ch["end"] * ch["time_base"]) for ch in chapters]
    assert starts[0] == 0 and all(abs(e - s) < 1e-3 for e, s in zip(ends, starts[1:]))
    assert abs(ends[-1] - total) <= FRAME
    assert frames == round(total * 5)


def test_merged_srt_ordered_and_inside(rendered):
    cues = list(srt.parse((rendered / "explainer.srt").read_text(encoding="utf-8")))
    with av.open(str(rendered / "explainer.mp4")) as c:
        duration = dt.timedelta(microseconds=c.duration)
    assert [c.content for c in cues] == ["alpha", "beta", "second", "gamma"]
    assert all(a.start <= b.start for a, b in zip(cues, cues[1:]))
    assert all(dt.timedelta(0) <= c.start < c.end <= duration for c in cues)
    # each cue is shifted by its section's start: "beta" opens section 2
    alpha = clip_duration(rendered / "clips" / "01-alpha.mp4")
    assert abs(cues[1].start.total_seconds() - alpha) < 0.01


def test_clips_have_their_own_srt(rendered):
    for stem in STEMS:
        assert (rendered / "clips" / f"{stem}.mp4").is_file()
        cues = list(srt.parse((rendered / "clips" / f"{stem}.srt").read_text(encoding="utf-8")))
        assert cues and cues[0].start == dt.timedelta(0)
        assert cues[-1].end.total_seconds() <= clip_duration(rendered / "clips" / f"{stem}.mp4") + 1e-6


def test_second_run_hits_the_cache(project, rendered):
    before = (rendered / "explainer.mp4").stat()
    stale = rendered / "clips" / ".01-alpha.mp4.99999.tmp"  # as left by a killed run
    stale.write_bytes(b"partial")
    p = run(project, *out_args(project, "--lang", "en"))
    # Every section cached (status and summary), nothing rewritten: no wall-clock limit here,
    # speed is measured in bench/, never asserted.
    assert set(last_run(project)["status"].values()) == {"cached"}
    assert "3 cached" in p.stderr and "unchanged" in p.stderr
    after = (rendered / "explainer.mp4").stat()
    assert (before.st_ino, before.st_mtime_ns) == (after.st_ino, after.st_mtime_ns)
    assert not stale.exists()


def test_caption_change_rerenders_only_that_section(project, rendered):
    captions = project / PKG / "assets" / "captions" / "en.toml"
    original = captions.read_text(encoding="utf-8")
    try:
        captions.write_text(original.replace('"second"', '"second, edited"'), encoding="utf-8")
        run(project, *out_args(project, "--lang", "en"))
        assert last_run(project)["status"] == {"01-alpha": "cached", "02-beta": "rendered",
                                                "03-gamma": "cached"}
        merged = (rendered / "explainer.srt").read_text(encoding="utf-8")
        assert "second, edited" in merged
    finally:
        captions.write_text(original, encoding="utf-8")
    run(project, *out_args(project, "--lang", "en"))  # the old render is still in the cache
    assert set(last_run(project)["status"].values()) == {"cached"}


def test_failed_section_gives_exit_1_and_no_incomplete_video(project, rendered):
    before = sha(rendered / "explainer.mp4")
    p = run(project, *out_args(project, "--lang", "ja"), env={"ATTN_FIXTURE_FAIL": "FxGamma"}, check_rc=1)
    assert "FAILED 03-gamma" in p.stderr and "asked to fail" in p.stderr
    assert sha(rendered / "explainer.mp4") == before          # not replaced by a 2-section video
    status = last_run(project)["status"]
    assert status == {"01-alpha": "rendered", "02-beta": "rendered", "03-gamma": "failed"}
    # with --allow-missing the video is written from what exists, and the run still says 1
    run(project, *out_args(project, "--lang", "ja", "--allow-missing"),
        env={"ATTN_FIXTURE_FAIL": "FxGamma"}, check_rc=1)
    with av.open(str(rendered / "explainer.mp4")) as c:
        assert [ch["metadata"]["title"] for ch in c.chapters()] == ["アルファ", "ベータ"]


def test_interrupted_run_keeps_outputs_and_resumes(project, rendered):
    out = rendered
    keep = {p: sha(p) for p in [out / "explainer.mp4", out / "explainer.srt",
                                *(out / "clips").glob("*")]}
    store = out / ".cache" / "store" / "01-alpha"
    metas_before = set(store.glob("*.json"))
    env = {**os.environ, "ATTN_REGISTRY": f"{PKG}.registry",
           "PYTHONPATH": os.pathsep.join([str(project), str(ROOT)])}
    env.pop("ATTN_FIXTURE_FAIL", None)
    proc = subprocess.Popen([sys.executable, str(ROOT / "render.py"),
                             *out_args(project, "--theme", "light", "--jobs", "1")],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while set(store.glob("*.json")) == metas_before and proc.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)  # section 1 is done, section 2 is rendering (or about to)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted" in err
    # the previous outputs are intact, nothing half-written is left in --out: the video and
    # its subtitles are the previous ones (no stitch ran); a clip is either the previous one
    # or, for a section that finished before the signal arrived (section 1 is published as
    # soon as it is done, which can beat the signal on a loaded machine), its new complete
    # render, byte for byte the one in the store
    for p, before in keep.items():
        now = sha(p)
        if now != before:
            assert p.parent.name == "clips", f"{p.name} changed by an interrupted run"
            stored = {sha(q) for q in (out / ".cache" / "store" / p.stem).glob(f"*{p.suffix}")}
            assert now in stored, f"{p.name} is neither the previous clip nor a finished one"
    leftovers = [p for p in out.rglob("*") if ".tmp" in p.name or p.suffix in (".partial",)]
    assert leftovers == []
    assert not (out / ".cache" / "tmp").exists()
    for meta in (out / ".cache" / "store").rglob("*.json"):
        assert meta.with_suffix(".mp4").is_file() or meta.with_suffix(".png").is_file()
    # the next run resumes: section 1 is not rendered again
    run(project, *out_args(project, "--theme", "light"))
    status = last_run(project)["status"]
    assert status["01-alpha"] == "cached" and status["03-gamma"] == "rendered"


def test_stills(project):
    from PIL import Image

    run(project, "stills", *out_args(project, "--sections", "1,gamma"))
    pngs = sorted((project / "out" / "stills").glob("*.png"))
    assert [p.stem for p in pngs] == ["01-alpha", "03-gamma"]
    for p in pngs:
        assert Image.open(p).size == (128, 72)


def test_list_json(project):
    p = run(project, "list", "--json")
    rows = json.loads(p.stdout)
    assert [r["slug"] for r in rows] == ["alpha", "beta", "gamma"]
    assert all(r["implemented"] for r in rows)


# ----------------------------------------------------------------------------- bad input


BAD = [
    (["--sections", "9"], "unknown section 9"),
    (["--sections", "1-x"], "--sections"),
    (["--sections", "3-1"], "malformed range"),
    (["--sections", "1,,2"], "empty item"),
    (["--sections", "nope"], "unknown section 'nope'"),
    (["--quality", "ultra"], "--quality"),
    (["--lang", "fr"], "--lang"),
    (["--theme", "blue"], "--theme"),
    (["--captions", "maybe"], "--captions"),
    (["--jobs", "0"], "--jobs"),
    (["stills", "--sections", "0"], "unknown section 0"),
    (["frobnicate"], "No such command"),
]


@pytest.mark.parametrize("args,needle", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_exit_2_one_line(args, needle, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("ATTN_REGISTRY", "tests.fixtures.registry")
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as e:
        render.main([*args, "--out", str(out)] if args[0] != "frobnicate" else args)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and needle in err and "Traceback" not in err
    assert not (out / "clips").exists()


def test_unwritable_out_exit_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("ATTN_REGISTRY", "tests.fixtures.registry")
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.raises(SystemExit) as e:
        render.main(["--out", str(blocker / "out")])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "cannot be written" in err


# ----------------------------------------------------------------------------- units


def test_parse_sections_order_and_forms():
    secs = fixture_registry.SECTIONS
    assert [s.number for s in registry.parse_sections("3,1-2", secs)] == [1, 2, 3]
    assert [s.number for s in registry.parse_sections("gamma, 1", secs)] == [1, 3]
    assert [s.number for s in registry.parse_sections(None, secs)] == [1, 2, 3]
    assert [s.number for s in registry.parse_sections("2-2,2", secs)] == [2]


def test_merge_subtitles_shifts_orders_and_clips():
    a = srt.compose([srt.Subtitle(1, dt.timedelta(0), dt.timedelta(seconds=1), "a")])
    b = srt.compose([srt.Subtitle(1, dt.timedelta(seconds=0.5), dt.timedelta(seconds=3), "b2"),
                     srt.Subtitle(2, dt.timedelta(0), dt.timedelta(seconds=0.5), "b1")])
    cues = list(srt.parse(media.merge_subtitles([(a, 0.0), (b, 2.0)], total=4.0)))
    assert [c.content for c in cues] == ["a", "b1", "b2"]
    assert cues[1].start == dt.timedelta(seconds=2) and cues[2].end == dt.timedelta(seconds=4)
    cleaned = media.clean_subtitles(b, duration=1.0)
    assert [(c.content, c.end.total_seconds()) for c in cleaned] == [("b1", 0.5), ("b2", 1.0)]


def test_section_hash_inputs(tmp_path):
    reg = registry.Registry(fixture_registry.SECTIONS, fixture_registry.ROOT, "x")
    hasher = cache.Hasher(reg)
    s1, s2 = fixture_registry.SECTIONS[:2]
    src1 = registry.scene_file(s1)
    base = options.Options(quality="tiny")
    h = cache.section_hash(s1, base, "clip", hasher, src1)
    assert h == cache.section_hash(s1, base, "clip", cache.Hasher(reg), src1)
    for changed in (options.Options(quality="preview"), options.Options(quality="tiny", lang="en"),
                    options.Options(quality="tiny", theme="light"),
                    options.Options(quality="tiny", captions="none")):
        assert cache.section_hash(s1, changed, "clip", hasher, src1) != h
    assert cache.section_hash(s1, base, "still", hasher, src1) != h
    head = tmp_path / "head.toml"
    head.write_text("x = 1\n")
    assert cache.section_hash(s1, options.Options(quality="tiny", head=head), "clip", hasher, src1) != h
    assert cache.section_env(s1, options.Options(head=head))["ATTN_HEAD"] == str(head.resolve())
    assert cache.section_hash(s2, base, "clip", hasher, registry.scene_file(s2)) != h


def test_section_hash_follows_imports_not_unrelated_widgets(tmp_path):
    root = tmp_path
    (root / "scenes" / "widgets").mkdir(parents=True)
    (root / "attn_math").mkdir()
    (root / "scenes" / "s01_x.py").write_text("from scenes.widgets.used import W\nfrom . import style\n")
    (root / "scenes" / "style.py").write_text("BLUE = 1\n")
    (root / "scenes" / "widgets" / "used.py").write_text("from ..style import BLUE\nW = 1\n")
    (root / "scenes" / "widgets" / "unused.py").write_text("U = 1\n")
    (root / "attn_math" / "story.py").write_text("S = 1\n")
    section = fixture_registry.SECTIONS[0]
    src = root / "scenes" / "s01_x.py"
    reg = registry.Registry(fixture_registry.SECTIONS, root, "scenes.registry")

    def h() -> str:
        return cache.section_hash(section, options.Options(), "clip", cache.Hasher(reg), src)

    closure = cache.Hasher(reg).code_closure(src)
    assert sorted(p.relative_to(root).as_posix() for p in closure) == [
        "scenes/s01_x.py", "scenes/style.py", "scenes/widgets/used.py"]
    first = h()
    (root / "scenes" / "widgets" / "unused.py").write_text("U = 2\n")
    assert h() == first                                   # a widget it does not use
    for path, text in [("scenes/widgets/used.py", "from ..style import BLUE\nW = 2\n"),
                       ("scenes/style.py", "BLUE = 2\n"), ("attn_math/story.py", "S = 2\n")]:
        (root / path).write_text(text)
        assert h() != first, path
        first = h()
