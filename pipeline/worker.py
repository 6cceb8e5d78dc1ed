"""Rendering one section in a worker process, and what a worker is told to do.

A :class:`RenderJob` says everything a worker needs; the worker renders the scene with manim
into a staging folder, then moves the result into the content-addressed store (mp4 or png,
srt, then the meta json last: an entry without its meta does not exist).
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import json
import os
import shutil
import signal
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

import patches
from words import config

from .files import atomic_write, content_digest, is_disk_full, tree_size
from .kinds import KINDS

__all__ = ["DISK_FULL_EXIT", "RenderJob", "render_worker", "render_worker_cli", "render_section"]

#: A worker's exit code when its disk filled and not even its outcome could be written.
DISK_FULL_EXIT = 28


@dataclass(frozen=True)
class RenderJob:
    """One section to render: which scene, with which settings, and where things go."""

    stem: str                  # NN-slug: the section's clip/still name
    module: str                # the scene's module (scenes.s08_the_square)
    scene: str                 # the scene class's name
    source: str                # the scene's source file
    root: str                  # the project root the scene imports from
    env: dict                  # the ATTN_* environment of the scene
    size: tuple                # (width, height, fps)
    kind: str                  # an output kind's name (pipeline.kinds.KINDS)
    captions: str              # burned | srt | none
    hash: str                  # the cache key: the store's file names
    log: str                   # manim's output goes here
    store: str                 # the section's folder in the store
    media: str                 # persistent per-section manim media dir (text caches)
    staging: str               # scratch folder, removed afterwards
    result: str                # where the worker writes its outcome (json)

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self))

    @classmethod
    def from_json(cls, text: str) -> RenderJob:
        data = json.loads(text)
        data["size"] = tuple(data["size"])
        return cls(**data)


def render_worker(job: RenderJob) -> None:
    """Render one section in its own worker process; the outcome goes to ``job.result``.

    ``{"ok": true, "meta": {...}}`` or ``{"ok": false, "error": "one line"}`` (a worker that
    dies writes nothing: the parent reports how it died). Output of manim goes to the
    section's log file.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    with contextlib.suppress(Exception):  # die with our parent (Linux): no orphan renders
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    log_fd = os.open(job.log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(log_fd, 1)
    os.dup2(log_fd, 2)
    result: dict
    try:
        result = {"ok": True, "meta": render_section(job)}
    except BaseException as e:  # noqa: BLE001 - everything is reported to the parent
        with contextlib.suppress(OSError):   # the log's disk may be the full one
            traceback.print_exc()
        lines = f"{type(e).__name__}: {e}".strip().splitlines()
        result = {"ok": False, "error": lines[-1] if lines else type(e).__name__}
        if is_disk_full(e):
            result["disk_full"] = _disk_full(job, e)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError):
            stream.flush()
    try:
        atomic_write(Path(job.result), json.dumps(result))
    except BaseException as e:  # noqa: BLE001
        if is_disk_full(e):   # the parent reads the exit code instead
            os._exit(DISK_FULL_EXIT)
        raise


def _disk_full(job: RenderJob, e: BaseException) -> dict:
    """Where the disk filled and how much the section had written by then (a lower bound of
    what it needs); its scratch files are removed first, so that its outcome fits."""
    staging = Path(job.staging)
    written = tree_size(staging)
    shutil.rmtree(staging, ignore_errors=True)
    where = None
    cause: BaseException | None = e
    while cause is not None and where is None:
        where = getattr(cause, "filename", None)
        cause = cause.__cause__ or cause.__context__
    out = Path(job.store).parents[2]   # OUT/.cache/store/<stem>
    folder = Path(where).parent if where else out
    if folder.is_relative_to(out / ".cache"):   # scratch: the user knows the output folder
        folder = out
    return {"folder": str(folder), "needed": written}


def render_worker_cli(job_file: str) -> None:
    """Entry point of the ``subprocess`` worker strategy (one python process per section)."""
    render_worker(RenderJob.from_json(Path(job_file).read_text(encoding="utf-8")))


def render_section(job: RenderJob) -> dict:
    """Render ``job`` with manim in this process and store the result; returns its meta."""
    from scenes import folders

    config.use(config.current().with_scene(job.env))
    folders.follow_settings()   # a forkserver imported the sections package with its own
    if job.root not in sys.path:
        sys.path.insert(0, job.root)
    os.chdir(job.root)

    media = Path(job.media)
    if (media / ".dirty").exists():  # a previous worker died in it: nothing there is trusted
        shutil.rmtree(media, ignore_errors=True)
    media.mkdir(parents=True, exist_ok=True)
    (media / ".dirty").touch()
    staging = Path(job.staging)
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)

    patches.install()   # manim as the project changes it, before the scene is imported
    from manim import tempconfig

    w, h, fps = job.size
    kind = KINDS[job.kind]
    settings = {
        "pixel_width": w, "pixel_height": h, "frame_rate": fps,
        "media_dir": str(media), "text_dir": str(media / "texts"), "tex_dir": str(media / "Tex"),
        "video_dir": str(staging / "video"), "images_dir": str(staging / "images"),
        "partial_movie_dir": str(staging / "partial"), "log_dir": str(staging / "logs"),
        "input_file": job.source, "output_file": job.scene,
        "format": kind.manim_format,
        "disable_caching": True, "progress_bar": "none", "verbosity": "WARNING",
        "notify_outdated_version": False, "preview": False,
        # Encode finished animations while the next one renders: a lone re-rendered section
        # then uses the idle core (measured 5.3-5.6 s -> 4.2-4.4 s for section 6 at 480p15).
        "max_inflight_encoders": 4,
        "video_encoder_options": {"preset": "veryfast"},
    }
    module = importlib.import_module(job.module)
    scene_cls = getattr(module, job.scene)
    with tempconfig(settings), kind.drawing():
        scene = scene_cls()
        scene.render()

    store = Path(job.store)
    store.mkdir(parents=True, exist_ok=True)
    key = job.hash
    meta = kind.move_to_store(staging, store, key, job.captions, config.current().lang,
                              getattr(scene, "subtitle_beats", None))
    meta.update(stem=job.stem, hash=key, rendered_at=time.time())
    # what the entry's files hold: pipeline.cache.check_entry finds a cut or changed one
    meta["digests"] = {p.name: content_digest(p) for p in kind.stored_files(store, key, job.captions, meta)}
    atomic_write(store / f"{key}.json", json.dumps(meta, indent=1))
    (media / ".dirty").unlink()
    shutil.rmtree(staging, ignore_errors=True)
    return meta
