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

from .files import atomic_write
from .media import clean_subtitles, probe_clip

#: The scene configuration variables (docs/ARCHITECTURE.md); a worker clears any not set.
ATTN_VARS = ("ATTN_LANG", "ATTN_THEME", "ATTN_CAPTIONS", "ATTN_HEAD",
             "ATTN_NARRATION", "ATTN_VOICE_CACHE", "ATTN_VOICE", "ATTN_CAPTIONS_FILE",
             "ATTN_RECORDINGS", "ATTN_SECTION_DIRS")


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
    kind: str                  # "clip" or "still"
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
    def from_json(cls, text: str) -> "RenderJob":
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
    try:
        result = {"ok": True, "meta": render_section(job)}
    except BaseException as e:  # noqa: BLE001 - everything is reported to the parent
        traceback.print_exc()
        lines = f"{type(e).__name__}: {e}".strip().splitlines()
        result = {"ok": False, "error": lines[-1] if lines else type(e).__name__}
    sys.stdout.flush()
    sys.stderr.flush()
    atomic_write(Path(job.result), json.dumps(result))


def render_worker_cli(job_file: str) -> None:
    """Entry point of the ``subprocess`` worker strategy (one python process per section)."""
    render_worker(RenderJob.from_json(Path(job_file).read_text(encoding="utf-8")))


def subtitled_clip(movie: Path, store: Path, key: str, lang: str, rendered_srt: str, beats, meta: dict) -> Path:
    """The clip with a subtitle stream per language, and their ``.srt``/``.vtt`` in the store.

    ``beats`` is the scene's ``subtitle_beats`` (:mod:`pipeline.subtitles`), clipped to the
    clip; ``meta["subtitles"]`` records the languages written.
    """
    from . import subtitles

    if beats:
        beats = [(start, min(end, meta["duration"]), texts) for start, end, texts in beats]
    tracks = subtitles.tracks_of(lang, rendered_srt, beats)
    subtitles.write_sidecars(store, key, tracks, atomic_write)
    meta["subtitles"] = [t.lang for t in tracks]
    dest = movie.with_name(movie.stem + ".subtitled.mp4")
    subtitles.remux_with_subtitles(movie, dest, tracks)
    meta.update(probe_clip(dest))   # the stored clip's own timestamps, which stitch() copies
    return dest


def render_section(job: RenderJob) -> dict:
    """Render ``job`` with manim in this process and store the result; returns its meta."""
    for k in ATTN_VARS:
        os.environ.pop(k, None)
    os.environ.update(job.env)
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

    from manim import tempconfig

    w, h, fps = job.size
    still = job.kind == "still"
    settings = {
        "pixel_width": w, "pixel_height": h, "frame_rate": fps,
        "media_dir": str(media), "text_dir": str(media / "texts"), "tex_dir": str(media / "Tex"),
        "video_dir": str(staging / "video"), "images_dir": str(staging / "images"),
        "partial_movie_dir": str(staging / "partial"), "log_dir": str(staging / "logs"),
        "input_file": job.source, "output_file": job.scene,
        "format": "png" if still else "mp4",
        "disable_caching": True, "progress_bar": "none", "verbosity": "WARNING",
        "notify_outdated_version": False, "preview": False,
        # Encode finished animations while the next one renders: a lone re-rendered section
        # then uses the idle core (measured 5.3-5.6 s -> 4.2-4.4 s for section 6 at 480p15).
        "max_inflight_encoders": 4,
    }
    module = importlib.import_module(job.module)
    scene_cls = getattr(module, job.scene)
    with tempconfig(settings):
        scene = scene_cls()
        scene.render()

    store = Path(job.store)
    store.mkdir(parents=True, exist_ok=True)
    key = job.hash
    if still:
        pngs = sorted((staging / "images").rglob("*.png"))
        if not pngs:
            raise RuntimeError("manim wrote no PNG")
        os.replace(pngs[-1], store / f"{key}.png")
        meta = {"kind": "still"}
    else:
        movies = sorted((staging / "video").glob("*.mp4"))
        if not movies:
            raise RuntimeError("manim wrote no video (does the scene play anything?)")
        movie = movies[0]
        meta = probe_clip(movie)
        meta["kind"] = "clip"
        if meta["frames"] == 0:
            raise RuntimeError("manim wrote an empty video")
        if job.captions != "none":
            srt_file = movie.with_suffix(".srt")
            text = srt_file.read_text(encoding="utf-8") if srt_file.exists() else ""
            import srt

            cues = srt.compose(clean_subtitles(text, meta["duration"]))
            atomic_write(store / f"{key}.srt", cues)
            movie = subtitled_clip(movie, store, key, job.env.get("ATTN_LANG", "ja"), cues,
                                   getattr(scene, "subtitle_beats", None), meta)
        os.replace(movie, store / f"{key}.mp4")
    meta.update(stem=job.stem, hash=key, rendered_at=time.time())
    atomic_write(store / f"{key}.json", json.dumps(meta, indent=1))
    (media / ".dirty").unlink()
    shutil.rmtree(staging, ignore_errors=True)
    return meta
