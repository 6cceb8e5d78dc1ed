"""The batch: every (variant, section) a Dask task, every variant stitched as ``render`` would.

1. Plan (before any cluster starts): read and validate the variants file, choose the sections,
   compute each (variant, section)'s cache key with the pipeline's :class:`Build` (the same key
   ``render`` caches by), and list the store once: keys already there are not submitted.
2. Render: one task per missing key (variants that share a key share the task), on the cluster
   of :func:`batch.cluster.connect`; earlier variants first, so variants finish one by one.
3. Stitch: as soon as all sections of a variant are in the store, the client copies them into
   ``OUT/<name>/.cache/store`` (render's own cache layout) and runs the pipeline's build there,
   which finds every section cached and does what ``render`` does: ``clips/``, the stream-copied
   ``explainer.mp4`` with chapters, the merged ``explainer.srt``, ``manifest.json``, each written
   under a temporary name and renamed. ``render.py render`` with the same options into the same
   folder finds everything cached.

Exit codes: 0 every variant written, 1 some variant failed (the others are written), 2 bad input.
"""

from __future__ import annotations

import contextlib
import io
import json
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

from batch.cluster import ClusterError, check_scheduler, connect, has_dashboard
from batch.store import ClipStore
from batch.tasks import ClipTask, Failed, render_clip
from batch.variants import Variant, VariantError, load_variants
from pipeline.build import Build
from pipeline.cache import Hasher
from pipeline.files import atomic_write, check_out_dir, locked
from pipeline.options import BadInput
from pipeline.run_setup import check_narration, choose_sections, run_options, voice_cache_for
from pipeline.scheduler import on_sigterm

__all__ = ["RETRIES", "RESUBMITS", "VariantRun", "StitchOnly", "run_batch"]

#: Dask retries of a task that raised (a render process that died, a store hiccup, a worker
#: with other code). A scene that raises is not retried (:class:`batch.tasks.Failed`); a task
#: whose worker dies is re-run elsewhere by the scheduler (``distributed.scheduler.allowed-failures``).
RETRIES = 2
#: How many times a clip is asked for again after Dask gave it up because the workers running
#: it kept dying (``distributed.scheduler.allowed-failures`` deaths each time).
RESUBMITS = 2
#: How long a batch that lost its scheduler waits for it to come back (with a worker).
RECONNECT_SECONDS = 120.0


@dataclass
class VariantRun:
    """One variant's state during the batch."""

    variant: Variant
    index: int
    build: StitchOnly               # the pipeline's Build for OUT/<name>
    keys: dict = field(default_factory=dict)      # section stem -> cache key
    sections: dict = field(default_factory=dict)  # section stem -> section
    failures: list = field(default_factory=list)  # (stem, error, log)
    done: bool = False
    seconds: float = 0.0          # from the start of rendering until the variant was done
    client_seconds: float = 0.0   # getting its clips from the store and stitching them


def run_batch(variants_file: Path, *, scheduler: str | None, workers: int, cache: str | None,
              out: Path, quality: str, sections_spec: str | None, force: bool, console,
              narration: bool = False, voice: str | None = None) -> int:
    """Run a batch (the ``batch`` command); returns the exit code."""
    try:
        variants = load_variants(variants_file)
    except VariantError as e:
        raise BadInput(str(e)) from None
    registry, sections = choose_sections(sections_spec)  # as render chooses them
    # the client's voices (a worker without them fails its task with the reason); a variant
    # with a voice of its own is narrated, --voice is the voice of the others of its language
    voices: dict[int, str | None] = {}
    for i, v in enumerate(variants):
        if narration or v.voice is not None:
            wanted = v.voice or (voice if voice is not None and _speaks(voice, v.lang) else None)
            voices[i] = check_narration(v.lang, wanted)
    if scheduler:
        try:
            check_scheduler(scheduler)
        except ClusterError as e:
            raise BadInput(str(e)) from None
    out_paths = check_out_dir(out)
    store = _open_store(cache or out_paths.cache / "store")
    t0 = time.perf_counter()
    with locked(out_paths):  # one batch per output folder
        hasher = Hasher(registry)
        runs = [_plan_variant(v, i, registry, sections, quality, out_paths.out, hasher, i in voices,
                              voices.get(i))
                for i, v in enumerate(variants)]
        tasks = _tasks(runs, registry, quality, store, force)
        have = set() if force else store.keys()
        todo = {k: t for k, t in tasks.items() if k not in have}
        console.print(f"{len(variants)} variants x {len(sections)} sections: {len(tasks)} clips, "
                      f"{len(tasks) - len(todo)} in the store {store.url}, {len(todo)} to render")
        old = signal.signal(signal.SIGTERM, on_sigterm)
        try:
            counts = _render_and_stitch(runs, todo, scheduler, workers, store, console)
        except ClusterError as e:
            raise BadInput(str(e)) from None
        finally:
            signal.signal(signal.SIGTERM, old)
    seconds = time.perf_counter() - t0
    _write_report(out_paths, runs, counts, seconds, store)
    return _summary(runs, counts, seconds, console)


def _speaks(voice: str, lang: str) -> bool:
    """Whether ``voice`` speaks ``lang`` (an unknown name: bad input)."""
    from narration.voices import UnknownVoice, find

    try:
        return find(voice).lang == lang
    except UnknownVoice as e:
        raise BadInput(str(e)) from None


def _open_store(url) -> ClipStore:
    try:
        return ClipStore(url)
    except ImportError as e:  # e.g. s3:// without s3fs
        raise BadInput(f"--cache {url}: {e}") from None
    except (ValueError, OSError) as e:
        raise BadInput(f"--cache {url}: {' '.join(str(e).split())}") from None


def _plan_variant(v: Variant, index: int, registry, sections: list, quality: str, out: Path,
                  hasher: Hasher, narration: bool = False, voice: str | None = None) -> VariantRun:
    """The variant's build in OUT/<name> and the cache key of each of its sections."""
    paths = check_out_dir(out / v.name)
    opts = run_options(v.head, paths.cache / "heads", lang=v.lang, theme=v.theme, captions=v.captions,
                       quality=quality, narration=narration, voice_cache=voice_cache_for(paths), voice=voice,
                       captions_file=v.captions_file)
    from slides.transcript import write_transcript

    build = StitchOnly(registry, sections, opts, paths, jobs=1, force=True, hasher=hasher,
                       after_stitch=write_transcript)  # as render writes it
    run = VariantRun(v, index, build)
    for job in build.plan():  # with force: a job for every section whose scene exists
        run.keys[job.section.stem] = job.hash
        run.sections[job.section.stem] = job.section
    run.failures += [(o.section.stem, o.error, "") for o in build.outcomes.values() if o.status == "failed"]
    build.outcomes.clear()
    build.force = False
    return run


def _tasks(runs: list[VariantRun], registry, quality: str, store: ClipStore, force: bool) -> dict[str, ClipTask]:
    """One task per distinct key, in variant order."""
    tasks: dict[str, ClipTask] = {}
    for run in runs:
        opts = run.build.opts
        head_toml = opts.head.read_text(encoding="utf-8") if opts.head is not None else None
        words_toml = opts.captions_file.read_text(encoding="utf-8-sig") if opts.captions_file else None
        for stem, key in run.keys.items():
            tasks.setdefault(key, ClipTask(key=key, registry=registry.module, section=run.sections[stem].number,
                                           lang=opts.lang, theme=opts.theme, captions=opts.captions,
                                           quality=quality, head_toml=head_toml, store=store, force=force,
                                           narration=opts.narration, voice=opts.voice,
                                           captions_toml=words_toml))
    return tasks


def _render_and_stitch(runs: list[VariantRun], todo: dict[str, ClipTask], scheduler, workers, store, console) -> dict:
    """Render the ``todo`` keys on the cluster; finish each variant as soon as its keys are done."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    t0 = time.perf_counter()
    results: dict[str, object] = {}  # key -> stored metadata, or Failed
    waiting = {id(r): {k for k in r.keys.values() if k in todo} for r in runs}
    users: dict[str, list[VariantRun]] = {}
    for r in runs:
        for key in r.keys.values():
            users.setdefault(key, []).append(r)
    total = len(users)
    counts = {"rendered": 0, "failed": 0, "stored": total - len(todo)}

    def finish(run: VariantRun) -> None:
        run.done, run.seconds = True, time.perf_counter() - t0
        for stem, k in run.keys.items():
            outcome = results.get(k)
            if isinstance(outcome, Failed):
                run.failures.append((stem, outcome.error, outcome.log))
        if not run.failures:
            t = time.perf_counter()
            _stitch(run, store, remote=bool(scheduler))
            run.client_seconds = time.perf_counter() - t
        _report(run, console)

    for run in runs:  # variants whose clips are all in the store already
        if not waiting[id(run)]:
            finish(run)
    if not todo:
        return counts
    from distributed import as_completed

    progress = Progress(TextColumn("clips"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[stats]}"),
                        TimeElapsedColumn(), console=console)

    def stats() -> str:
        return (f"[green]{counts['rendered']} rendered[/] · [cyan]{counts['stored']} from the store[/] · "
                f"[red]{counts['failed']} failed[/]")

    with connect(scheduler, workers) as client:
        n_workers = len(client.scheduler_info(n_workers=-1).get("workers", {})) if scheduler else workers
        console.print(f"cluster: {client.scheduler.address} ({n_workers} workers)"
                      + (f", dashboard {client.dashboard_link}" if has_dashboard() else ""))
        # earlier rows first (Dask runs higher priorities first), so variants finish one by one
        futures = {client.submit(render_clip, task, key=task.dask_key, pure=False, retries=RETRIES,
                                 priority=-min(r.index for r in users[key])): key
                   for key, task in todo.items()}
        resubmitted: dict[str, int] = {}

        def settle(key: str, outcome) -> None:
            results[key] = outcome
            counts["failed" if isinstance(outcome, Failed) else "rendered"] += 1
            progress.update(bar, advance=1, stats=stats())
            for run in users[key]:
                waiting[id(run)].discard(key)
                if not waiting[id(run)] and not run.done:
                    finish(run)

        with progress:
            bar = progress.add_task("clips", total=total, completed=counts["stored"], stats=stats())
            pending = as_completed(list(futures), loop=client.loop)
            for future in pending:
                key = futures[future]
                try:
                    outcome = None if _ask_again(future) else _outcome(future, key)
                except Exception:  # noqa: BLE001 - the scheduler went away while the result was fetched
                    outcome = None
                if outcome is None and resubmitted.get(key, 0) < RESUBMITS:
                    # The clip itself raised nothing: Dask gave it up after its allowed failures
                    # (workers killed one after another while running it: an OOM killer, a
                    # preempted machine), or cancelled it with every future when the client lost
                    # the scheduler (restarted, or the network dropped). It is asked for again,
                    # on the workers there are now (once a lost scheduler is back at its address).
                    lost = None if _workers_died(future) else _wait_for_scheduler(client, RECONNECT_SECONDS)
                    with contextlib.suppress(Exception):
                        future.release()
                    if lost is not None:
                        settle(key, Failed(key, "", lost, ""))
                        continue
                    resubmitted[key] = n = resubmitted.get(key, 0) + 1
                    again = client.submit(render_clip, todo[key], key=f"{todo[key].dask_key}-again{n}", pure=False,
                                          retries=RETRIES, priority=-min(r.index for r in users[key]))
                    futures[again] = key
                    pending.add(again)
                    continue
                settle(key, outcome if outcome is not None else
                       Failed(key, "", "lost its scheduler or workers too many times", ""))
    return counts


def _wait_for_scheduler(client, seconds: float) -> str | None:
    """Wait until ``client`` is connected to its scheduler again and the scheduler has a
    worker; None then, else one line saying what was lost."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):
            if client.status == "running" and client.scheduler_info(n_workers=-1).get("workers"):
                return None
        time.sleep(0.5)
    return f"lost the scheduler {client.scheduler.address} and could not reach it again within {seconds:.0f} s"


def _ask_again(future) -> bool:
    """Whether the task ended for want of a place to run, not by its own error: cancelled or
    lost (the client lost the scheduler), or given up because every worker that ran it died
    (:func:`_workers_died`)."""
    if future.status not in ("finished", "error"):
        return True
    return _workers_died(future)


def _workers_died(future) -> bool:
    """Whether Dask gave the task up because every worker that ran it died (``KilledWorker``)."""
    if future.status != "error":
        return False
    from distributed import KilledWorker

    try:
        return isinstance(future.exception(), KilledWorker)
    except Exception:  # noqa: BLE001 - the scheduler is gone: not a worker's death
        return False


def _outcome(future, key: str):
    """The task's stored metadata or :class:`Failed`; an exception (after Dask's retries, or a
    task whose workers kept dying) becomes a :class:`Failed` with its first line."""
    try:
        if future.status == "cancelled":
            return Failed(key, "", "cancelled: the batch lost its scheduler", "")
        if future.status == "error":
            exc = future.exception()
            lines = f"{type(exc).__name__}: {exc}".strip().splitlines()
            return Failed(key, "", lines[0], "\n".join(lines[1:]))
        return future.result()
    finally:
        future.release()


class StitchOnly(Build):
    """The pipeline's build of one variant, run once its clips are in the variant's cache: it
    publishes them, stitches and writes the manifest, as ``render`` does; it never renders."""

    def _render(self, todo, console):  # noqa: ARG002
        stems = ", ".join(j.section.stem for j in todo)
        raise RuntimeError(f"{stems}: cache key changed during the batch (project files edited?)")


def _stitch(run: VariantRun, store: ClipStore, remote: bool = False) -> None:
    """Copy the variant's clips from the store into its cache, then build it (no rendering)."""
    build = run.build
    for stem, key in run.keys.items():
        entry = build.paths.store / stem
        try:
            meta = store.get(key, entry)
        except Exception as e:  # noqa: BLE001 - reported with the variant
            hint = (" (with --scheduler, --cache must name the same store for the client and every "
                    "worker: a shared folder or s3://...)") if remote and store.is_local else ""
            run.failures.append((stem, f"{type(e).__name__}: {e}{hint}", ""))
            continue
        meta = {k: v for k, v in meta.items() if k != "files"}
        atomic_write(entry / f"{key}.json", json.dumps(meta, indent=1))
    if run.failures:
        return
    from rich.console import Console

    log = io.StringIO()
    quiet = Console(file=log)
    try:
        rc = build.run(quiet)
    except Exception as e:  # noqa: BLE001 - reported with the variant
        run.failures.append(("stitch", f"{type(e).__name__}: {' '.join(str(e).split())}", ""))
        return
    if rc != 0:
        err = build.stitch_error or " ".join(log.getvalue().split())[-300:]
        run.failures.append(("stitch", err, ""))


def _report(run: VariantRun, console) -> None:
    v = run.variant
    if run.failures:
        stem, error, log = run.failures[0]
        logs = run.build.paths.logs
        if log:
            logs.mkdir(parents=True, exist_ok=True)
            (logs / f"{stem}.clip.log").write_text(log + "\n", encoding="utf-8")
        console.print(f"[red]✗[/] {v.name}: {stem}: {error}" + (f"  (log: {logs / f'{stem}.clip.log'})" if log else ""))
        return
    mp4 = run.build.paths.out / "explainer.mp4"
    stitched = (json.loads(run.build.paths.manifest.read_text(encoding="utf-8")).get("stitched") or {})
    n = len(run.keys)
    console.print(f"[green]✓[/] {v.name}: {mp4} ({n} section{'s' * (n != 1)}, "
                  f"{stitched.get('duration', 0):.1f}s of video)")


def _write_report(out_paths, runs: list[VariantRun], counts: dict, seconds: float, store: ClipStore) -> None:
    """OUT/batch.json: what became of each variant (for scripts, and bench/bench_batch.py)."""
    report = {
        "store": store.url, "seconds": round(seconds, 3), "clips": counts,
        "variants": {r.variant.name: {
            "where": r.variant.where, "folder": str(r.build.paths.out),
            "status": "failed" if r.failures else "written",
            "error": None if not r.failures else f"{r.failures[0][0]}: {r.failures[0][1]}",
            "clips": r.keys, "done_after": round(r.seconds, 3), "client_seconds": round(r.client_seconds, 3),
        } for r in runs},
    }
    atomic_write(out_paths.out / "batch.json", json.dumps(report, indent=1, ensure_ascii=False))


def _summary(runs: list[VariantRun], counts: dict, seconds: float, console) -> int:
    failed = [r for r in runs if r.failures]
    console.print(f"{len(runs) - len(failed)} of {len(runs)} variants written; clips: {counts['rendered']} "
                  f"rendered, {counts['stored']} from the store, {counts['failed']} failed ({seconds:.1f}s)")
    for r in failed:
        stem, error, _ = r.failures[0]
        console.print(f"[red]FAILED[/] {r.variant.name} ({r.variant.where}): {stem}: {error}")
    return 1 if failed else 0
