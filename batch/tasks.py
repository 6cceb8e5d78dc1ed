"""One task of a batch: render one section of one variant on a Dask worker, into the store.

A task carries what the section looks like (:class:`ClipTask`: the section, the options, the
head's TOML text) and the cache key the client computed; the worker recomputes the key from
its own copy of the project (so a worker with other code refuses the task instead of storing
a wrong clip under that key), renders the section exactly as ``render`` does (the pipeline's
:class:`Build` plans the job, :func:`run_jobs` runs it in its own process: manim's config is
process-wide, so every section gets a fresh one), puts the clip, its ``.srt`` and its metadata
in the :class:`~batch.store.ClipStore`, and returns the metadata.

Failures: a scene that raises fails the same way every time, so the task returns a
:class:`Failed` (no retry) with the error and the end of the log; a render process that dies
(killed, out of memory) raises :class:`RenderDied`, which Dask retries. A worker that dies
takes its task with it: the scheduler runs it on another worker.
"""

from __future__ import annotations

import contextlib
import hashlib
import shutil
import socket
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from batch.store import ClipStore
from pipeline import subtitles
from pipeline.build import Build
from pipeline.files import atomic_write, check_out_dir
from pipeline.kinds import BEATS_SUFFIX
from pipeline.options import Options
from pipeline.registry import load_registry
from pipeline.run_setup import write_head_file
from pipeline.scheduler import run_jobs
from words import config

#: Lines of a failed section's log sent back to the client (the worker's disk may be far away).
LOG_TAIL = 30


@dataclass(frozen=True)
class ClipTask:
    """What a worker needs to render one section of one variant (small, picklable)."""

    key: str                 # the cache key the client computed (= the store key)
    registry: str            # the registry module (scenes.registry, or ATTN_REGISTRY's)
    section: int             # the section's number in that registry
    lang: str
    theme: str
    captions: str
    quality: str
    head_toml: str | None    # the custom head as TOML, None for the default head
    store: ClipStore
    force: bool = False      # render even if the store has the key
    narration: bool = False  # a voice reads every beat (the worker's voices, its own line cache)
    voice: str | None = None  # which voice (narration.voices), resolved by the client
    captions_toml: str | None = None  # the variant's own words (a captions file's text)

    @property
    def dask_key(self) -> str:
        return f"clip-{self.key}"


@dataclass(frozen=True)
class Failed:
    """A section that failed to render (returned, not raised: rendering it again fails again)."""

    key: str
    stem: str
    error: str
    log: str


class RenderDied(RuntimeError):
    """The render process died without a result (killed, out of memory): worth a retry."""


class WorkerMismatch(RuntimeError):
    """This worker's copy of the project computes another cache key than the client's."""


def render_clip(task: ClipTask) -> dict | Failed:
    """Run on a worker: make sure the store holds ``task.key``; return its metadata.

    Returns the stored metadata (the clip's probe: duration, frames, ...), or :class:`Failed`.
    """
    if not task.force:
        meta = task.store.meta(task.key)
        if meta is not None:
            return meta  # another worker, or an earlier attempt, finished it
    home = _work_dir()
    paths = check_out_dir(home)
    registry = load_registry(task.registry)  # this worker's copy of the client's registry
    section = next((s for s in registry.sections + registry.cards if s.number == task.section), None)
    if section is None:
        raise WorkerMismatch(f"this worker's registry {task.registry} has no section {task.section}")
    head, n_tokens = None, None
    if task.head_toml is not None:  # the client's TOML, byte for byte: the key hashes its bytes
        head = write_head_file(task.head_toml, paths.cache / "heads")
        n_tokens = _token_count(task.head_toml)
    words = None
    if task.captions_toml is not None:  # the client's words; the key hashes what they change
        words = paths.cache / "words" / f"{hashlib.sha256(task.captions_toml.encode()).hexdigest()[:16]}.toml"
        if not words.exists():
            atomic_write(words, task.captions_toml)
    opts = Options(lang=task.lang, theme=task.theme, captions=task.captions, quality=task.quality,
                   head=head, n_tokens=n_tokens, narration=task.narration,
                   voice_cache=paths.cache / "voice" if task.narration else None, voice=task.voice,
                   captions_file=words)
    build = Build(registry, [section], opts, paths, jobs=1, force=True)
    jobs = build.plan()
    if not jobs:
        raise WorkerMismatch(f"{section.stem}: this worker has no scene file for {section.module}")
    job = jobs[0]
    if job.hash != task.key:
        raise WorkerMismatch(f"{section.stem}: this worker's project gives cache key {job.hash}, the client's "
                             f"{task.key}: run the same version of the project on the client and every worker")
    outcome: dict = {}

    def on_done(j, status, data):
        if j is not None:
            outcome.update(status=status, data=data)

    result_file = Path(job.render.result)
    log_file = Path(job.render.log)
    t0 = time.perf_counter()
    try:
        run_jobs([job], 1, lambda j: None, on_done, strategy=_strategy())
        if outcome.get("status") != "rendered":
            log = _tail(log_file)
            if not result_file.exists():  # the process died: not the scene's fault
                raise RenderDied(f"{section.stem}: {outcome.get('data')}\n{log}")
            return Failed(task.key, section.stem, str(outcome.get("data")), log)
        entry = paths.store / section.stem
        files = {"mp4": entry / f"{task.key}.mp4"}
        beats = entry / f"{task.key}{BEATS_SUFFIX}"
        if beats.exists():   # where its caption beats end: a stepped deck cuts the clip there
            files[BEATS_SUFFIX.lstrip(".")] = beats
        if task.captions != "none":
            files["srt"] = entry / f"{task.key}.srt"
            langs = outcome["data"].get("subtitles", ())  # every language's .srt and .vtt
            files.update({suffix: entry / name for suffix, name in subtitles.store_files(task.key, langs).items()})
        # what it cost, for planning a cluster (README; bench/bench_batch.py)
        meta = {**outcome["data"], "render_seconds": round(time.perf_counter() - t0, 3), "rendered_by": _worker_name()}
        return task.store.put(task.key, files, meta)
    finally:
        with contextlib.suppress(FileNotFoundError):
            result_file.unlink()
        shutil.rmtree(paths.store / section.stem, ignore_errors=True)  # it is in the clip store now


def _worker_name() -> str:
    try:
        from distributed import get_worker

        return str(get_worker().address)
    except (ImportError, ValueError):
        return socket.gethostname()


def _work_dir() -> Path:
    """This worker's folder for renders in progress and manim's text caches (kept between tasks)."""
    try:
        from distributed import get_worker

        base = Path(get_worker().local_directory)
    except (ImportError, ValueError):
        base = Path(tempfile.gettempdir())
    return base / "attn-batch"


def _strategy() -> str:
    """How this worker makes render processes: forked from a forkserver that has imported manim,
    with :mod:`batch.lifeline` preloaded so that the forkserver and its renders die with the
    worker. Not the scenes' kit, which ``render``'s forkserver imports: that one lives for one
    run, this one as long as the worker, and a kit imported once would not see the checkout
    change between two batches, though the cache keys (which hash the code on disk) would.
    A daemonic worker (Dask's default under a nanny, unless ``distributed.worker.daemon`` is
    False) may not have such children: there, a fresh python process per section (slower by
    manim's import), which dies with the worker by itself."""
    import multiprocessing

    # Dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_=65536 (distributed.nanny.
    # pre-spawn-environ), which suits a worker's long-lived data but not manim's frame-by-frame
    # allocations: inherited by the render processes, it made two sections rendering at once
    # 11-15 % slower each (sections 2 + 16 at preview: 7.65 s against 8.5-8.8 s). The render
    # processes start without it, as under `render`.
    config.without_variable("MALLOC_TRIM_THRESHOLD_")
    if multiprocessing.current_process().daemon:
        return "subprocess"
    from pipeline import scheduler

    scheduler.worker_context().set_forkserver_preload(["manim", "batch.lifeline"])  # before it starts
    return config.current().render_worker


def _tail(path: Path, lines: int = LOG_TAIL) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


def _token_count(head_toml: str) -> int:
    import tomllib

    from attn_math.head import head_from_dict

    return head_from_dict(tomllib.loads(head_toml)).n
