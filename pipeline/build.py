"""One ``render`` or ``stills`` run: plan what is stale, render it, publish, stitch, record."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from words import config
from words.captions import table

from . import subtitles
from .cache import CACHE_FORMAT, Hasher, check_entry, discard_entry, prune_store, section_env, section_hash
from .files import DiskFull, Paths, atomic_write, locked, publish, read_json, space_for, unlink
from .kinds import CLIP, OutputKind
from .media import merge_subtitles, stitch
from .options import Options
from .registry import Registry, scene_file
from .scheduler import Job, on_sigterm, run_jobs
from .worker import RenderJob

__all__ = ["STITCHED", "video_title", "Outcome", "Build"]

STITCHED = "explainer"  # out/explainer.mp4, out/explainer.srt


def video_title(lang: str) -> str:
    """The stitched video's title, from the caption tables (``[titles] video``)."""
    return table(lang)["titles"]["video"]


@dataclass
class Outcome:
    """What became of one section in a run."""

    section: Any
    status: str            # "rendered" | "cached" | "failed"
    hash: str | None = None
    meta: dict | None = None
    error: str | None = None
    log: Path | None = None
    seconds: float = 0.0


@dataclass
class Build:
    """One ``render`` or ``stills`` run."""

    registry: Registry
    sections: list
    opts: Options
    paths: Paths
    kind: OutputKind = CLIP     # what each section becomes (pipeline.kinds)
    jobs: int = 1
    force: bool = False
    allow_missing: bool = False
    outcomes: dict = field(default_factory=dict)
    timings: dict = field(default_factory=dict)
    #: Store entries found damaged while planning (stem -> what was wrong): rendered again.
    damaged: dict = field(default_factory=dict)
    stitch_error: str | None = None
    hasher: Hasher | None = None  # shared by the builds of one batch (it reads every file once)
    #: Called with the build after the video is joined (``render`` writes the transcript,
    #: ``slides.transcript.write_transcript``: a layer above this one, so it is handed in).
    after_stitch: Callable[[Build], object] | None = None
    #: Told of each section as the run goes: ``observer(event, stem, details)`` with event
    #: ``cached`` (after planning), ``start`` and ``done`` (``details``: status, seconds,
    #: error): the events the command line's progress bar shows, for another front end.
    observer: Callable[[str, str, dict], object] | None = None

    def plan(self) -> list[Job]:
        hasher = self.hasher or Hasher(self.registry)
        todo = []
        for s in self.sections:
            src = scene_file(s)
            if src is None:  # a registry entry without its scene is a broken project
                self.outcomes[s.stem] = Outcome(s, "failed", error=f"scene module {s.module} not found")
                continue
            key = section_hash(s, self.opts, self.kind, hasher, src)
            meta = None
            if not self.force:
                meta, damage = check_entry(self.paths, s, key, self.kind, self.opts.captions)
                if damage is not None:   # said once: the entry goes, the section renders again
                    self.damaged[s.stem] = damage
                    discard_entry(self.paths, s, key)
            if meta is not None:
                self.outcomes[s.stem] = Outcome(s, "cached", key, meta)
                continue
            log = self.paths.logs / f"{s.stem}.{self.kind.name}.log"
            log.parent.mkdir(parents=True, exist_ok=True)
            scratch = self.paths.tmp / f"{s.stem}-{key}-{os.getpid()}"
            job = RenderJob(
                stem=s.stem, module=s.module, scene=s.scene, source=str(src),
                root=str(self.registry.root), env=section_env(s, self.opts), size=tuple(self.opts.size),
                kind=self.kind.name, captions=self.opts.captions, hash=key, log=str(log),
                store=str(self.paths.store / s.stem), media=str(self.paths.media / s.stem),
                staging=str(scratch), result=str(scratch.with_name(scratch.name + ".result.json")))
            todo.append(Job(s, key, job))
        return todo

    # -- publishing ---------------------------------------------------------------

    def publish_section(self, o: Outcome) -> None:
        store = self.paths.store / o.section.stem
        dest = self.kind.published(self.paths.out, o.section.stem)
        publish(store / f"{o.hash}{self.kind.suffix}", dest)
        if not self.kind.subtitled:
            return
        if self.opts.captions == "none":
            unlink(dest.with_suffix(".srt"))
        else:
            publish(store / f"{o.hash}.srt", dest.with_suffix(".srt"))
        langs = (o.meta or {}).get("subtitles", ())
        for lang in subtitles.LANGS:  # every language's .srt and .vtt beside the clip
            for name in (subtitles.srt_name, subtitles.vtt_name):
                if lang in langs:
                    publish(store / name(str(o.hash), lang), dest.with_name(name(o.section.stem, lang)))
                else:
                    unlink(dest.with_name(name(o.section.stem, lang)))

    def stitch_all(self, manifest: dict) -> dict | None:
        """Join the finished clips into explainer.mp4 (+ .srt), unless it is already current."""
        done = [o for o in self._ordered() if o.status in ("rendered", "cached")]
        if not done:
            return None
        store = self.paths.store
        key_src = json.dumps([CACHE_FORMAT, self.opts.lang, self.opts.captions,
                              [(o.section.stem, o.hash, o.section.title(self.opts.lang, self.opts.n_tokens)) for o in done]],
                             ensure_ascii=False)
        key = hashlib.sha256(key_src.encode()).hexdigest()[:24]
        mp4 = self.paths.out / f"{STITCHED}.mp4"
        srt_path = mp4.with_suffix(".srt")
        prev = manifest.get("stitched") or {}
        langs = self._subtitle_langs(done)
        srt_ok = (self.opts.captions == "none") or srt_path.is_file()
        srt_ok = srt_ok and all((self.paths.out / n).is_file() for n in subtitles.sidecar_names(STITCHED, langs))
        if (not self.force and prev.get("key") == key and mp4.is_file()
                and mp4.stat().st_size == prev.get("size") and srt_ok):
            return {**prev, "reused": True}
        t0 = time.perf_counter()
        clips = [(store / o.section.stem / f"{o.hash}.mp4", o.meta or {},
                  o.section.title(self.opts.lang, self.opts.n_tokens)) for o in done]
        merged = None
        if self.opts.captions != "none":  # prepared first: the two renames follow each other
            parts, start = [], 0.0
            for o in done:
                parts.append(((store / o.section.stem / f"{o.hash}.srt").read_text(encoding="utf-8"), start))
                start += (o.meta or {})["duration"]
            merged = merge_subtitles(parts, start)
        tracks = self._merged_tracks(done, langs)
        # the joined video is about the clips' size: checked first, so that a disk without
        # room for it keeps the previous video, subtitles and manifest together
        needed = sum(p.stat().st_size for p, _, _ in clips) + 64 * 1024
        if shutil.disk_usage(self.paths.out).free < needed:
            raise DiskFull(self.paths.out, needed)
        with space_for(self.paths.out, needed):
            total = stitch(clips, mp4, title=video_title(self.opts.lang), lang=self.opts.lang,
                           subtitle_tracks=tracks)
        if merged is None:
            unlink(srt_path)
        else:
            atomic_write(srt_path, merged)
        # the new sidecars replace the old ones by rename; only languages the video no longer
        # carries are removed (a run killed in between leaves no video without its subtitles)
        subtitles.write_sidecars(self.paths.out, STITCHED, tracks, atomic_write)
        for name in sorted(set(subtitles.sidecar_names(STITCHED)) - set(subtitles.sidecar_names(STITCHED, langs))):
            unlink(self.paths.out / name)
        self.timings["stitch"] = time.perf_counter() - t0
        return {"key": key, "size": mp4.stat().st_size, "duration": total,
                "sections": [o.section.stem for o in done]}

    def _subtitle_langs(self, done: list[Outcome]) -> tuple[str, ...]:
        """The subtitle languages every joined clip carries, the caption language first."""
        if self.opts.captions == "none":
            return ()
        return tuple(lang for lang in subtitles.track_order(self.opts.lang)
                     if all(lang in (o.meta or {}).get("subtitles", ()) for o in done))

    def _merged_tracks(self, done: list[Outcome], langs: tuple[str, ...]) -> list:
        """Each language's subtitles of the joined video: the clips' cues, shifted by the
        lengths of the clips before them."""
        store, by_lang = self.paths.store, {}
        for lang in langs:
            parts, start = [], 0.0
            for o in done:
                srt_file = store / o.section.stem / subtitles.srt_name(str(o.hash), lang)
                parts.append((srt_file.read_text(encoding="utf-8"), start))
                start += (o.meta or {})["duration"]
            by_lang[lang] = merge_subtitles(parts, start)
        return subtitles.tracks_from_mapping(by_lang, langs)

    def _ordered(self) -> list[Outcome]:
        return [self.outcomes[s.stem] for s in self.sections if s.stem in self.outcomes]

    # -- the run ------------------------------------------------------------------------

    def run(self, console) -> int:
        t0 = time.perf_counter()
        with locked(self.paths):
            todo = self.plan()
            self.timings["plan"] = time.perf_counter() - t0
            for stem, why in self.damaged.items():
                console.print(f"[yellow]cache:[/] {stem}'s stored render was damaged ({why}); "
                              "rendering it again")
            for o in self._ordered():
                if o.status == "cached":
                    self.publish_section(o)
                    self._tell("cached", o.section.stem, {"status": "cached", "hash": o.hash})
            t1 = time.perf_counter()
            if todo:
                self._render(todo, console)
            self.timings["render"] = time.perf_counter() - t1
            manifest = read_json(self.paths.manifest) or {}
            failed = [o for o in self._ordered() if o.status == "failed"]
            stitched = None
            if self.kind.stitched:
                if failed and not self.allow_missing:
                    stitched = None
                else:
                    try:
                        stitched = self.stitch_all(manifest)
                        if stitched is not None and self.after_stitch is not None:
                            self.after_stitch(self)
                    except DiskFull:
                        raise
                    except Exception as e:  # noqa: BLE001 - reported, exit code 1
                        self.stitch_error = f"{type(e).__name__}: {e}"
            self._write_manifest(manifest, stitched)
            keep = {o.hash for o in self.outcomes.values() if o.hash}
            prune_store(self.paths, keep)
        self.timings["total"] = time.perf_counter() - t0
        return self._summary(console, stitched)

    def _render(self, todo: list[Job], console) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            SpinnerColumn,
            TextColumn,
            TimeElapsedColumn,
        )

        counts = {"cached": sum(o.status == "cached" for o in self.outcomes.values()),
                  "rendered": 0, "failed": 0}
        total = len(todo) + counts["cached"]
        running: dict[str, Job] = {}

        def stats() -> str:
            return (f"[green]{counts['rendered']} done[/] · [cyan]{counts['cached']} cached[/] · "
                    f"[red]{counts['failed']} failed[/]")

        def describe() -> str:
            now = time.monotonic()
            names = ", ".join(f"{st} {now - j.started:.0f}s" for st, j in running.items())
            return f"rendering {names}" if names else "sections"

        progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                            MofNCompleteColumn(), TextColumn("{task.fields[stats]}"), TimeElapsedColumn(),
                            console=console, transient=False)
        # the voice phase comes first, so its line stands above the sections'
        voice = progress.add_task("voice", total=None, stats="") if self.opts.narration else None
        task = progress.add_task(describe(), total=total, completed=counts["cached"], stats=stats())

        def on_start(job: Job) -> None:
            running[job.section.stem] = job
            self._tell("start", job.section.stem, {"hash": job.hash})
            progress.update(task, description=describe())

        def on_done(job: Job | None, status: str, data) -> None:
            if job is None:
                progress.update(task, description=describe())
                return
            running.pop(job.section.stem, None)
            secs = time.monotonic() - job.started
            log = Path(job.render.log)
            if status == "rendered":
                o = Outcome(job.section, "rendered", job.hash, data, log=log, seconds=secs)
                self.outcomes[job.section.stem] = o
                self.publish_section(o)
                counts["rendered"] += 1
                progress.console.print(f"[green]✓[/] {job.section.stem}  {secs:.1f}s")
            else:
                self.outcomes[job.section.stem] = Outcome(job.section, "failed", job.hash,
                                                          error=str(data), log=log, seconds=secs)
                counts["failed"] += 1
                progress.console.print(f"[red]✗[/] {job.section.stem}  {data}")
            progress.update(task, advance=1, description=describe(), stats=stats())
            o = self.outcomes[job.section.stem]
            self._tell("done", job.section.stem, {"status": o.status, "hash": o.hash,
                                                  "seconds": round(secs, 3), "error": o.error})

        old = signal.signal(signal.SIGTERM, on_sigterm)
        try:
            with progress:
                if voice is not None:
                    self._speak_up_front(todo, progress, voice)
                run_jobs(todo, max(1, min(self.jobs, len(todo))), on_start, on_done,
                         strategy=config.current().render_worker)
        finally:
            signal.signal(signal.SIGTERM, old)

    def _speak_up_front(self, todo: list[Job], progress, task) -> None:
        """The "voice" phase (``task`` of ``progress``): every line the sections of ``todo``
        will speak, synthesised over the run's workers before they render (the scenes then
        find each one cached)."""
        from .speech import run_lines, synthesise_up_front

        env = section_env(todo[0].section, self.opts)
        lines = run_lines([job.section for job in todo], env)

        def started(plan) -> None:
            progress.update(task, total=plan.lines - plan.cached,
                            stats=f"{plan.cached} of {plan.lines} lines cached")

        done = synthesise_up_front(lines, env, self.jobs, on_start=started,
                                   on_line=lambda: progress.advance(task))
        progress.update(task, stats=f"{done.synthesised} synthesised · {done.cached} cached"
                        + (f" · [red]{done.failed} failed[/]" if done.failed else ""))
        self.timings["voice"] = done.seconds

    def _tell(self, event: str, stem: str, details: dict) -> None:
        if self.observer is not None:
            self.observer(event, stem, details)

    def _write_manifest(self, manifest: dict, stitched: dict | None) -> None:
        key = self.kind.folder
        entries = manifest.get(key, {})
        for o in self._ordered():
            if o.status in ("rendered", "cached"):
                entries[o.section.stem] = {"hash": o.hash, "lang": self.opts.lang, "theme": self.opts.theme,
                                           "captions": self.opts.captions, "quality": self.opts.quality,
                                           "duration": (o.meta or {}).get("duration")}
        manifest[key] = dict(sorted(entries.items()))
        if stitched is not None:
            manifest["stitched"] = {k: v for k, v in stitched.items() if k != "reused"} | {
                "lang": self.opts.lang, "theme": self.opts.theme, "captions": self.opts.captions,
                "quality": self.opts.quality}
        manifest["last_run"] = {"command": self.kind.command,
                                "sections": [o.section.stem for o in self._ordered()],
                                "status": {o.section.stem: o.status for o in self._ordered()},
                                "render_seconds": {o.section.stem: round(o.seconds, 3) for o in self._ordered()
                                                   if o.status in ("rendered", "failed")},
                                "seconds": {k: round(v, 4) for k, v in self.timings.items()}}
        atomic_write(self.paths.manifest, json.dumps(manifest, indent=1, ensure_ascii=False))

    def _summary(self, console, stitched: dict | None) -> int:
        outs = self._ordered()
        by = {k: [o for o in outs if o.status == k] for k in ("rendered", "cached", "failed")}
        console.print(f"{len(by['rendered'])} rendered, {len(by['cached'])} cached, "
                      f"{len(by['failed'])} failed ({self.timings['total']:.1f}s)")
        for o in by["failed"]:
            console.print(f"[red]FAILED[/] {o.section.stem}: {o.error}  (log: {o.log})")
        out = self.paths.out
        if not self.kind.stitched:
            if by["rendered"] or by["cached"]:
                console.print(f"{self.kind.folder} in {out / self.kind.folder}")
        elif stitched is not None:
            what = "unchanged" if stitched.get("reused") else "written"
            n = len(stitched["sections"])
            console.print(f"{out / (STITCHED + '.mp4')} {what}: {n} section{'s' * (n != 1)}, "
                          f"{stitched['duration']:.1f}s" + (", some sections left out" if by['failed'] else ""))
        elif self.stitch_error:
            console.print(f"[red]FAILED[/] joining {STITCHED}.mp4: {self.stitch_error}")
        elif by["failed"]:
            console.print(f"[red]{STITCHED}.mp4 not written[/]: it would lack "
                          f"{len(by['failed'])} failed section(s) (use --allow-missing to write it anyway)")
        return 1 if by["failed"] or self.stitch_error else 0

