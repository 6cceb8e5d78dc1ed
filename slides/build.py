"""One ``slides`` run: the clips through the render cache, then the deck in each asked format.

The clips are rendered (or found in the cache) by the pipeline's :class:`~pipeline.build.Build`,
exactly as ``render`` would, but nothing is published to ``OUT/clips`` and nothing is stitched:
a slides run at 720p must not replace a 1080p ``render``'s outputs. Each output is keyed by
everything it depends on (:meth:`Deck.key`: the clips' cache keys, titles, notes, language,
theme and this package's code); an output whose key and size match the manifest is left alone,
so a second run with nothing changed rewrites nothing. Outputs are written to temporary names
and renamed when complete.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline import subtitles
from pipeline.build import Build, video_title  # the title slide says what the video says
from pipeline.files import DiskFull, Paths, atomic_write, locked, read_json, space_for, unlink
from pipeline.kinds import END_STATE_SUFFIX
from pipeline.poster import end_state_png

from . import html_deck, reveal
from .deck import Deck, SectionSlide, script_of
from .formats import SLIDES_DIR, SlideFormat, libraries
from .summaries import summaries_of, summary

if TYPE_CHECKING:
    from attn_math import Story

__all__ = ["code_digest", "ClipBuild", "SlideBuild"]

_LEFTOVER = re.compile(r"^\..+\.\d+\.tmp$")


def code_digest() -> str:
    """The slides package's own code and the libraries that write the files (each format's
    :attr:`~slides.formats.SlideFormat.libraries`)."""
    from importlib.metadata import PackageNotFoundError, version

    h = hashlib.sha256()
    for f in sorted(Path(__file__).resolve().parent.glob("*.py")):
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    for pkg in libraries():
        try:
            h.update(f"{pkg}={version(pkg)}".encode())
        except PackageNotFoundError:
            h.update(pkg.encode())
    h.update(reveal.VERSION.encode())
    return h.hexdigest()[:16]


class ClipBuild(Build):
    """A render :class:`Build` that keeps its clips in the cache: no ``OUT/clips``, no stitch."""

    def publish_section(self, o) -> None:  # the deck takes the clips from the store
        pass

    def stitch_all(self, manifest: dict) -> dict | None:
        return None

    def _write_manifest(self, manifest: dict, stitched: dict | None) -> None:
        pass  # the slides run records itself (SlideBuild.record)

    def _summary(self, console, stitched: dict | None) -> int:
        """The counts and the failures; nothing about explainer.mp4, which a slides run never joins."""
        outs = self._ordered()
        counts = {k: sum(o.status == k for o in outs) for k in ("rendered", "cached", "failed")}
        console.print(", ".join(f"{v} {k}" for k, v in counts.items()) + f" ({self.timings['total']:.1f}s)")
        for o in outs:
            if o.status == "failed":
                console.print(f"[red]FAILED[/] {o.section.stem}: {o.error}  (log: {o.log})")
        return 1 if counts["failed"] else 0


@dataclass
class SlideBuild:
    """Render what is missing, then write the deck in each of ``formats``."""

    clips: ClipBuild
    formats: tuple[SlideFormat, ...]
    sentence: str
    #: one of :data:`slides.deck.STEPS`: stop at every caption beat, or play whole sections
    step: str = "beats"
    timings: dict = field(default_factory=dict)
    written: dict = field(default_factory=dict)   # format -> "written" | "unchanged"

    @property
    def paths(self) -> Paths:
        return self.clips.paths

    @property
    def folder(self) -> Path:
        return self.paths.out / SLIDES_DIR

    def run(self, console) -> int:
        t0 = time.perf_counter()
        self.clips.run(console)  # its failures are read from the outcomes below
        self.timings["clips"] = time.perf_counter() - t0
        failed = [o for o in self.clips._ordered() if o.status not in ("cached", "rendered")]
        if failed and not self.clips.allow_missing or len(failed) == len(self.clips._ordered()):
            console.print(f"[red]slides not written[/]: {len(failed)} section(s) failed "
                          "(the previous deck is left as it was; --allow-missing writes it without them)")
            return 1
        t1 = time.perf_counter()
        with locked(self.paths):
            self._clean_leftovers()
            deck = self.deck()
            manifest = read_json(self.paths.manifest) or {}
            prev = manifest.get("slides") or {}
            digest = code_digest()
            entries = {}
            for fmt in self.formats:
                key = deck.key(fmt.name, digest)
                dest = self.folder / fmt.file
                old = prev.get(fmt.name) or {}
                if (not self.clips.force and old.get("key") == key and dest.is_file()
                        and dest.stat().st_size == old.get("size")
                        and all(p.is_file() for p in fmt.beside(deck, self.folder))):
                    self.written[fmt.name] = "unchanged"
                    entries[fmt.name] = old
                    continue
                try:
                    with space_for(self.folder):
                        self._write(fmt, deck, dest)
                except DiskFull:
                    raise
                except Exception as e:  # noqa: BLE001 - reported, exit code 1; other formats go on
                    self.written[fmt.name] = f"NOT written ({type(e).__name__}: {e}); the previous one is kept"
                    continue
                self.written[fmt.name] = "written"
                entries[fmt.name] = {"key": key, "size": dest.stat().st_size}
            self.timings["deck"] = time.perf_counter() - t1
            self.timings["total"] = time.perf_counter() - t0
            self._record(manifest, prev | entries, deck)
        for fmt in self.formats:
            console.print(f"{self.folder / fmt.file} {self.written[fmt.name]}")
        n = len(deck.sections)
        console.print(f"slides: {n} section{'s' * (n != 1)}, {self.timings['total']:.1f}s")
        if failed:
            console.print(f"[yellow]left out[/] (failed): {', '.join(o.section.stem for o in failed)}")
        ok = not failed and all(w in ("written", "unchanged") for w in self.written.values())
        return 0 if ok else 1

    # -- the deck -----------------------------------------------------------------------

    def deck(self) -> Deck:
        """The deck of this run's sections, from the cached clips (posters made once per clip)."""
        opts = self.clips.opts
        slides, narrated = [], False
        table, story = summaries_of(self.clips.registry.root, opts.lang), _LazyStory(opts.head)
        for o in self.clips._ordered():
            if o.status not in ("cached", "rendered"):   # left out (--allow-missing)
                continue
            store = self.paths.store / o.section.stem
            clip = store / f"{o.hash}.mp4"
            poster = store / f"{o.hash}{END_STATE_SUFFIX}"   # pruned with its clip (same hash prefix)
            if not poster.is_file():
                end_state_png(clip, poster)
            srt_file = store / f"{o.hash}.srt"
            notes = script_of(srt_file.read_text(encoding="utf-8")) if srt_file.is_file() else ""
            narrated = narrated or _has_audio(clip)
            beats = self._beats(o, clip, store) if self.step == "beats" else ()
            slides.append(SectionSlide(
                number=o.section.number, stem=o.section.stem,
                title=o.section.title(opts.lang, opts.n_tokens), clip=clip, poster=poster,
                notes=notes, clip_key=o.hash or "", duration=float((o.meta or {}).get("duration") or 0.0),
                summary=summary(table, o.section.number, partial(story.context, o.section.number, opts.lang)),
                subtitles=tuple((lang, store / subtitles.vtt_name(str(o.hash), lang))
                                for lang in (o.meta or {}).get("subtitles", ())),
                beats=beats))
        return Deck(title=video_title(opts.lang), sentence=self.sentence, lang=opts.lang,
                    theme=opts.theme, sections=tuple(slides), narrated=narrated,
                    captions_burned=opts.captions == "burned", step=self.step)

    def _beats(self, o, clip: Path, store: Path) -> tuple:
        """The clip cut at its caption beats (cut once, kept in the store beside it)."""
        from .beats import beat_spans, cut_beats

        t = time.perf_counter()
        spans = beat_spans(o.section, self.clips.opts, store, str(o.hash))
        beats = tuple(cut_beats(clip, spans, self.clips.opts.lang, store, str(o.hash)))
        self.timings["beats"] = self.timings.get("beats", 0.0) + time.perf_counter() - t
        return beats

    def _write(self, fmt: SlideFormat, deck: Deck, dest: Path) -> None:
        dest.parent.mkdir(parents=True, exist_ok=True)
        t = time.perf_counter()
        fmt.write(deck, dest)
        self.timings[fmt.name] = time.perf_counter() - t

    def _clean_leftovers(self) -> None:
        for d in (self.folder, self.folder / html_deck.MEDIA_DIR):
            for f in d.iterdir() if d.is_dir() else ():
                if _LEFTOVER.match(f.name) and f.is_file():
                    unlink(f)

    def _record(self, manifest: dict, entries: dict, deck: Deck) -> None:
        opts = self.clips.opts
        manifest["slides"] = entries
        manifest["last_run"] = {
            "command": "slides", "formats": [f.name for f in self.formats],
            "sections": [s.stem for s in deck.sections],
            "status": {o.section.stem: o.status for o in self.clips._ordered()},
            "written": self.written, "quality": opts.quality, "lang": opts.lang, "theme": opts.theme,
            "seconds": {k: round(v, 4) for k, v in {**self.clips.timings, **self.timings}.items()}}
        atomic_write(self.paths.manifest, json.dumps(manifest, indent=1, ensure_ascii=False))


class _LazyStory:
    """The story of the run's head, loaded when a summary first names a role."""

    def __init__(self, head: Path | None):
        self.head = head
        self._story: Story | None = None

    def context(self, section: int, lang: str) -> dict:
        if self._story is None:
            from scenes.registry import load_story

            self._story = load_story(str(self.head) if self.head else None)
        return dict(self._story.caption_context(section, lang))


def _has_audio(clip: Path) -> bool:
    import av

    with av.open(str(clip)) as c:
        return bool(c.streams.audio)
