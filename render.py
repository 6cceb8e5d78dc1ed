"""attn-explainer: render the self-attention explainer, one Manim scene per section.

    python render.py [render] [OPTIONS]     the stitched MP4 (+ chapters, merged .srt) and clips/
    python render.py stills [OPTIONS]       a PNG of each section's final frame in stills/
    python render.py list [--json]          the sections, in order
    python render.py figures [--json]       the head and every figure it implies

What ``render`` writes into ``--out`` (default ``out/``)::

    explainer.mp4          all sections joined by stream copy (never re-encoded), a chapter each
    explainer.srt          the merged subtitles (unless --captions none)
    clips/NN-slug.mp4      each section on its own, with clips/NN-slug.srt
    stills/NN-slug.png     (``stills``) the final frame of each section
    manifest.json          what the files above were rendered from
    .cache/                content-addressed renders, logs, temporary files (safe to delete)

Sections are rendered in parallel worker processes and cached by a content hash of
everything they depend on (see :func:`section_hash`); a re-run with nothing changed only
checks hashes. Every output is written under a temporary name and renamed when complete.

Exit codes: 0 ok, 1 a section failed, 2 bad input, 130 interrupted.

Scenes are configured only through the environment (docs/ARCHITECTURE.md): the one place
that builds it is :func:`section_env`, the one place that decides when a section must be
re-rendered is :func:`section_hash`. Tests swap the registry with ``ATTN_REGISTRY``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import importlib
import importlib.util
import json
import os
import re
import shutil
import signal
import sys
import time
import traceback
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterable, Sequence

import click

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # so `scenes`, `attn_math` import when run from elsewhere
    sys.path.insert(0, str(HERE))

# ----------------------------------------------------------------------------- options

#: quality name -> (width, height, fps). Documented ones first; the rest are hidden (tests).
QUALITIES: dict[str, tuple[int, int, int]] = {
    "preview": (854, 480, 15),
    "medium": (1280, 720, 30),
    "high": (1920, 1080, 30),
    "production": (1920, 1080, 60),
    "4k": (3840, 2160, 60),
}
HIDDEN_QUALITIES: dict[str, tuple[int, int, int]] = {"tiny": (128, 72, 5)}
LANGS = ("ja", "en")
THEMES = ("dark", "light")
CAPTION_MODES = ("burned", "srt", "none")
ATTN_VARS = ("ATTN_LANG", "ATTN_THEME", "ATTN_CAPTIONS", "ATTN_HEAD")

#: Bump when the worker or the stored clip format changes: every cached render is redone.
CACHE_FORMAT = 1
STITCHED = "explainer"  # out/explainer.mp4, out/explainer.srt
KEEP_PER_SECTION = 6    # cached renders kept per section (langs x themes x kinds...)


class BadInput(click.UsageError):
    """Bad command-line input: one line on stderr, exit code 2, before any rendering."""


@dataclass(frozen=True)
class Options:
    """Everything (besides the code) that decides what a section looks like.

    A custom-sentence feature adds its inputs here (``head`` is the TOML passed as
    ``ATTN_HEAD``); :func:`section_env` and :func:`section_hash` are the only readers.
    """

    lang: str = "ja"
    theme: str = "dark"
    captions: str = "burned"
    quality: str = "high"
    head: Path | None = None
    n_tokens: int | None = None  # the sentence's length, for titles that count tokens

    @property
    def size(self) -> tuple[int, int, int]:
        return {**QUALITIES, **HIDDEN_QUALITIES}[self.quality]


# ----------------------------------------------------------------------------- registry


@dataclass(frozen=True)
class Registry:
    sections: tuple  # tuple[scenes.registry.Section, ...]
    root: Path       # project root: where assets/, scenes/, attn_math/ live
    module: str


def load_registry() -> Registry:
    """The section registry: ``scenes.registry`` or the module named by ``ATTN_REGISTRY``.

    A swapped-in registry may define ``ROOT`` (a Path), the root its captions and head
    are read from; otherwise the root is this file's directory.
    """
    name = os.environ.get("ATTN_REGISTRY") or "scenes.registry"
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())
    try:
        mod = importlib.import_module(name)
        sections = tuple(mod.SECTIONS)
    except Exception as e:  # noqa: BLE001 - reported as bad input
        raise BadInput(f"cannot load the section registry {name!r}: {e}") from None
    root = Path(getattr(mod, "ROOT", HERE)).resolve()
    return Registry(sections, root, name)


_RANGE = re.compile(r"^(\d+)\s*-\s*(\d+)$")


def parse_sections(spec: str | None, sections: Sequence) -> list:
    """``"1-4,9,twenty-slug"`` -> the sections, in registry order, without duplicates.

    Items are numbers, ``a-b`` ranges of numbers, slugs, or ``all``; anything else is
    :class:`BadInput`.
    """
    if spec is None or spec.strip().lower() == "all":
        return list(sections)
    by_num = {s.number: s for s in sections}
    by_slug = {s.slug: s for s in sections}
    lo, hi = min(by_num, default=0), max(by_num, default=0)
    chosen: set[int] = set()
    items = [i.strip() for i in spec.split(",")]
    if not any(items):
        raise BadInput(f"--sections {spec!r}: no sections given")
    for item in items:
        if not item:
            raise BadInput(f"--sections {spec!r}: empty item")
        if item in by_slug:
            chosen.add(by_slug[item].number)
            continue
        if item.isdigit():
            n = int(item)
            if n not in by_num:
                raise BadInput(f"--sections: unknown section {n} (sections are {lo}-{hi})")
            chosen.add(n)
            continue
        m = _RANGE.match(item)
        if m:
            a, b = int(m[1]), int(m[2])
            if a > b:
                raise BadInput(f"--sections: malformed range {item!r} (start after end)")
            for n in (a, b):
                if n not in by_num:
                    raise BadInput(f"--sections: unknown section {n} in {item!r} (sections are {lo}-{hi})")
            chosen.update(n for n in by_num if a <= n <= b)
            continue
        if re.fullmatch(r"[\w-]+", item) and not re.fullmatch(r"[\d\s-]+", item):
            raise BadInput(f"--sections: unknown section {item!r}")
        raise BadInput(f"--sections: malformed item {item!r} (use numbers, ranges like 1-4, or slugs)")
    return [s for s in sections if s.number in chosen]


def scene_file(section) -> Path | None:
    """The source file of a section's scene, or None if its module does not exist yet."""
    try:
        spec = importlib.util.find_spec(section.module)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not os.path.isfile(spec.origin):
        return None
    return Path(spec.origin).resolve()


# ----------------------------------------------------------------------------- env + hash


def section_env(section, opts: Options) -> dict[str, str]:
    """The environment a section's scene is rendered with (docs/ARCHITECTURE.md).

    Only the ``ATTN_*`` variables of the contract; any not set here is removed in the worker.
    """
    env = {"ATTN_LANG": opts.lang, "ATTN_THEME": opts.theme, "ATTN_CAPTIONS": opts.captions}
    head = opts.head or (Path(os.environ["ATTN_HEAD"]) if os.environ.get("ATTN_HEAD") else None)
    if head is not None:
        env["ATTN_HEAD"] = str(Path(head).resolve())
    return env


def _file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _tree_files(root: Path, skip: set[Path] = frozenset()) -> Iterable[Path]:
    if root.is_file():
        yield root
        return
    if not root.is_dir():
        return
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and not d.startswith("."))
        for name in sorted(filenames):
            if name.endswith((".pyc", ".pyo")) or name.startswith("."):
                continue
            p = Path(dirpath, name).resolve()
            if p not in skip:
                yield p


class Hasher:
    """Computes :func:`section_hash` inputs once per run (shared code, caption tables)."""

    def __init__(self, registry: Registry):
        self.registry = registry
        self.root = registry.root
        self._shared: str | None = None
        self._import_cache: dict[Path, set[Path]] = {}
        self._digests: dict[Path, str] = {}
        self._captions: dict[str, tuple[dict | None, bytes]] = {}
        self._versions: str | None = None

    def always_digest(self) -> str:
        """What every section may read without importing it: all of attn_math/ (the story and
        its figures; also reached through imports), data files under scenes/, and assets/
        except the captions (hashed per section) and the head (hashed on its own)."""
        if self._shared is None:
            root = self.root
            h = hashlib.sha256()
            for top in ("attn_math", "scenes", "assets"):
                for p in _tree_files(root / top):
                    rel = p.relative_to(root)
                    if (top == "scenes" and p.suffix == ".py") or rel.parts[:2] == ("assets", "captions") \
                            or rel == Path("assets", "head.toml"):
                        continue
                    h.update(f"{rel}\0{self.digest(p)}\n".encode())
            self._shared = h.hexdigest()
        return self._shared

    def digest(self, path: Path) -> str:
        if path not in self._digests:
            self._digests[path] = _file_digest(path)
        return self._digests[path]

    def _module_file(self, name: str) -> Path | None:
        p = self.root.joinpath(*name.split("."))
        for cand in (p.with_suffix(".py"), p / "__init__.py"):
            if cand.is_file():
                return cand.resolve()
        return None

    def _imports(self, file: Path) -> set[Path]:
        """Project files ``file`` imports (directly; any import statement anywhere in it)."""
        if file in self._import_cache:
            return self._import_cache[file]
        import ast

        found: set[Path] = set()
        try:
            tree = ast.parse(file.read_bytes(), filename=str(file))
        except (SyntaxError, ValueError, OSError):
            tree = None  # the render will report it; the file's own bytes are hashed
        rel = file.relative_to(self.root).with_suffix("").parts if file.is_relative_to(self.root) else ()
        package = list(rel[:-1])  # the package a relative import starts from
        names: list[str] = []
        for node in ast.walk(tree) if tree is not None else ():
            if isinstance(node, ast.Import):
                names += [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base_parts = package[: max(0, len(package) - (node.level - 1))]
                    base = ".".join([*base_parts, *([node.module] if node.module else [])])
                else:
                    base = node.module or ""
                if base:
                    names.append(base)
                names += [f"{base}.{a.name}" if base else a.name for a in node.names]
        for name in names:
            parts = name.split(".")
            for i in range(1, len(parts) + 1):  # the module and the packages above it
                f = self._module_file(".".join(parts[:i]))
                if f is not None:
                    found.add(f)
        found.discard(file)
        self._import_cache[file] = found
        return found

    def code_closure(self, source: Path) -> list[Path]:
        """The section's scene file and every project module it imports, transitively (the
        widgets, style, base, captions, attn_math modules it uses), without the registry."""
        registry_file = self._module_file(self.registry.module)
        seen, todo = set(), [source.resolve()]
        while todo:
            f = todo.pop()
            if f in seen or f == registry_file:
                continue
            seen.add(f)
            todo.extend(self._imports(f) - seen)
        return sorted(seen)

    def versions(self) -> str:
        if self._versions is None:
            from importlib.metadata import PackageNotFoundError, version

            parts = []
            for pkg in ("manim", "av", "manimpango"):
                try:
                    parts.append(f"{pkg}={version(pkg)}")
                except PackageNotFoundError:
                    parts.append(f"{pkg}=?")
            self._versions = ",".join(parts)
        return self._versions

    def caption_bytes(self, section, lang: str) -> bytes:
        """The caption text a section can see: its own table ``[sNN]`` plus everything in the
        file that belongs to no section; the whole file if it cannot be split that way."""
        if lang not in self._captions:
            path = self.root / "assets" / "captions" / f"{lang}.toml"
            raw = path.read_bytes() if path.is_file() else b""
            try:
                import tomllib

                data = tomllib.loads(raw.decode("utf-8"))
            except Exception:  # noqa: BLE001 - the scene will report it; hash it whole
                data = None
            self._captions[lang] = (data, raw)
        data, raw = self._captions[lang]
        key = f"s{section.number:02d}"
        if data is None or key not in data:
            return raw
        section_keys = {f"s{s.number:02d}" for s in self.registry.sections}
        shared = {k: v for k, v in data.items() if k not in section_keys}
        return json.dumps([data[key], shared], sort_keys=True, ensure_ascii=False, default=str).encode()


def section_hash(section, opts: Options, kind: str, hasher: Hasher, source: Path) -> str:
    """The content hash of one section's render; equal hash means the cached clip is valid.

    Inputs: the section's own scene file and the project modules it imports, transitively
    (:meth:`Hasher.code_closure`: the widgets, style and base it uses, attn_math), all of
    attn_math/ and non-caption assets anyway (:meth:`Hasher.always_digest`), the head file, the section's
    caption table in the chosen language, the section's registry entry (its title is drawn),
    lang, theme, captions mode, resolution and fps, ``kind`` (clip or still) and the
    versions of manim, PyAV and manimpango.
    """
    h = hashlib.sha256()

    def put(label: str, value: str | bytes) -> None:
        b = value if isinstance(value, bytes) else value.encode()
        h.update(label.encode() + b"\0" + len(b).to_bytes(8, "big") + b)

    put("format", str(CACHE_FORMAT))
    put("kind", kind)
    put("versions", hasher.versions())
    put("section", json.dumps(dataclasses.asdict(section), sort_keys=True, ensure_ascii=False))
    for f in hasher.code_closure(source):
        rel = f.relative_to(hasher.root) if f.is_relative_to(hasher.root) else f
        put(f"code:{rel}", hasher.digest(f))
    put("always", hasher.always_digest())
    env = section_env(section, opts)
    head = Path(env["ATTN_HEAD"]) if "ATTN_HEAD" in env else hasher.root / "assets" / "head.toml"
    put("head", head.read_bytes() if head.is_file() else b"<no head file>")
    put("captions", hasher.caption_bytes(section, opts.lang))
    put("env", json.dumps({k: v for k, v in env.items() if k != "ATTN_HEAD"}, sort_keys=True))
    put("size", "%dx%d@%d" % opts.size)
    return h.hexdigest()[:24]


# ----------------------------------------------------------------------------- atomic files


def _tmp_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def atomic_write(path: Path, data: bytes | str) -> None:
    """Write ``data`` to ``path`` through a temporary name and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _tmp_name(path)
    try:
        with open(tmp, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def publish(src: Path, dest: Path) -> bool:
    """Make ``dest`` a complete copy of ``src`` (hard link if possible), atomically.

    Returns False when ``dest`` already is that file.
    """
    with contextlib.suppress(OSError):
        if os.path.samefile(src, dest):
            return False
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = _tmp_name(dest)
    try:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        try:
            os.link(src, tmp)
        except OSError:
            shutil.copyfile(src, tmp)
        os.replace(tmp, dest)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    return True


def _unlink(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


# ----------------------------------------------------------------------------- media


def probe_clip(path: Path) -> dict:
    """Duration and stream parameters of a clip, from its packets (no decoding)."""
    import av

    with av.open(str(path)) as c:
        s = c.streams.video[0]
        tb = s.time_base
        start, end, frames = None, 0, 0
        for p in c.demux(s):
            if p.pts is None:
                continue
            frames += 1
            start = p.pts if start is None else min(start, p.pts)
            end = max(end, p.pts + (p.duration or 0))
        cc = s.codec_context
        return {
            "time_base": [tb.numerator, tb.denominator],
            "start_ts": start or 0,
            "end_ts": end,
            "frames": frames,
            "duration": float((end - (start or 0)) * tb),
            "fps": str(s.average_rate),
            "width": cc.width,
            "height": cc.height,
            "codec": cc.name,
            "pix_fmt": cc.pix_fmt,
            "extradata": hashlib.sha256(bytes(cc.extradata or b"")).hexdigest()[:16],
        }


def clean_subtitles(text: str, duration: float) -> list:
    """Parse a scene's .srt, drop cues outside ``[0, duration)``, clip ends, order them."""
    import datetime as dt

    import srt

    limit = dt.timedelta(seconds=duration)
    cues = []
    for cue in srt.parse(text):
        start = max(cue.start, dt.timedelta(0))
        end = min(cue.end, limit)
        if start >= limit or end <= start:
            continue
        cues.append(srt.Subtitle(index=0, start=start, end=end, content=cue.content))
    return list(srt.sort_and_reindex(cues))


def merge_subtitles(parts: Sequence[tuple[str, float]], total: float) -> str:
    """One .srt from ``(clip srt text, clip start in s)`` pairs, in order, inside ``total``."""
    import datetime as dt

    import srt

    cues = []
    for text, offset in parts:
        shift = dt.timedelta(seconds=offset)
        for cue in srt.parse(text):
            cues.append(srt.Subtitle(0, cue.start + shift, cue.end + shift, cue.content))
    limit = dt.timedelta(seconds=total)
    cues = [srt.Subtitle(0, c.start, min(c.end, limit), c.content) for c in cues if c.start < limit]
    return srt.compose(list(srt.sort_and_reindex(cues)))


def stitch(clips: Sequence[tuple[Path, dict, str]], dest: Path, title: str, lang: str) -> float:
    """Join clips by stream copy into ``dest`` with one chapter per clip; returns its duration.

    ``clips`` are ``(path, probe_clip() dict, chapter title)``. Packets are copied, never
    decoded; each clip's timestamps are shifted by the durations of the clips before it.
    Written to a temporary name and renamed.
    """
    import av

    if not clips:
        raise ValueError("nothing to stitch")
    first = clips[0][1]
    for path, info, _ in clips[1:]:
        for k in ("time_base", "width", "height", "codec", "pix_fmt", "extradata"):
            if info[k] != first[k]:
                raise RuntimeError(
                    f"{path.name} differs from {clips[0][0].name} in {k} ({info[k]} vs {first[k]}): "
                    "clips cannot be joined without re-encoding; re-render with --force")
    tb = Fraction(*first["time_base"])
    starts, t = [], 0
    for _, info, _ in clips:
        starts.append(t)
        t += info["end_ts"] - info["start_ts"]
    total_ts = t
    chapters = [
        {"id": i + 1, "start": starts[i], "end": starts[i] + info["end_ts"] - info["start_ts"],
         "time_base": tb, "metadata": {"title": name}}
        for i, (_, info, name) in enumerate(clips)
    ]
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = _tmp_name(dest)
    try:
        out = av.open(str(tmp), mode="w", format="mp4", options={"movflags": "+faststart"})
        try:
            out.metadata["title"] = title
            out.metadata["language"] = {"ja": "jpn", "en": "eng"}.get(lang, lang)
            ostream = None
            for i, (path, info, _) in enumerate(clips):
                with av.open(str(path)) as inp:
                    istream = inp.streams.video[0]
                    if ostream is None:
                        ostream = out.add_stream_from_template(template=istream)
                        out.set_chapters(chapters)
                    shift = starts[i] - info["start_ts"]
                    for packet in inp.demux(istream):
                        if packet.dts is None:  # the flushing packet demux() ends with
                            continue
                        packet.pts += shift
                        packet.dts += shift
                        packet.stream = ostream
                        out.mux(packet)
        finally:
            out.close()
        os.replace(tmp, dest)
    finally:
        _unlink(tmp)
    return float(total_ts * tb)


# ----------------------------------------------------------------------------- worker


def _render_worker(job: dict) -> None:
    """Render one section in its own worker process; the outcome goes to ``job["result"]``.

    ``{"ok": true, "meta": {...}}`` or ``{"ok": false, "error": "one line"}`` (a worker that
    dies writes nothing: the parent reports how it died). Output of manim goes to the
    section's log file; the render is moved into the cache store (mp4/png, srt, then the
    meta json last: an entry without meta does not exist).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    with contextlib.suppress(Exception):  # die with our parent (Linux): no orphan renders
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    log_fd = os.open(job["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(log_fd, 1)
    os.dup2(log_fd, 2)
    try:
        result = {"ok": True, "meta": _render_section(job)}
    except BaseException as e:  # noqa: BLE001 - everything is reported to the parent
        traceback.print_exc()
        lines = f"{type(e).__name__}: {e}".strip().splitlines()
        result = {"ok": False, "error": lines[-1] if lines else type(e).__name__}
    sys.stdout.flush()
    sys.stderr.flush()
    atomic_write(Path(job["result"]), json.dumps(result))


def _render_worker_cli(payload_file: str) -> None:
    """Entry point of the ``subprocess`` worker strategy (one python process per section)."""
    _render_worker(json.loads(Path(payload_file).read_text(encoding="utf-8")))


def _render_section(job: dict) -> dict:
    for k in ATTN_VARS:
        os.environ.pop(k, None)
    os.environ.update(job["env"])
    root = job["root"]
    if root not in sys.path:
        sys.path.insert(0, root)
    os.chdir(root)

    media = Path(job["media"])  # persistent per-section manim dir (text/tex caches)
    if (media / ".dirty").exists():  # a previous worker died in it: nothing there is trusted
        shutil.rmtree(media, ignore_errors=True)
    media.mkdir(parents=True, exist_ok=True)
    (media / ".dirty").touch()
    staging = Path(job["staging"])
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)

    from manim import tempconfig

    w, h, fps = job["size"]
    still = job["kind"] == "still"
    settings = {
        "pixel_width": w, "pixel_height": h, "frame_rate": fps,
        "media_dir": str(media), "text_dir": str(media / "texts"), "tex_dir": str(media / "Tex"),
        "video_dir": str(staging / "video"), "images_dir": str(staging / "images"),
        "partial_movie_dir": str(staging / "partial"), "log_dir": str(staging / "logs"),
        "input_file": job["source"], "output_file": job["scene"],
        "format": "png" if still else "mp4",
        "disable_caching": True, "progress_bar": "none", "verbosity": "WARNING",
        "notify_outdated_version": False, "preview": False,
        # Encode finished animations while the next one renders: a lone re-rendered section
        # then uses the idle core (measured 5.3-5.6 s -> 4.2-4.4 s for section 6 at 480p15).
        "max_inflight_encoders": 4,
    }
    module = importlib.import_module(job["module"])
    scene_cls = getattr(module, job["scene"])
    with tempconfig(settings):
        scene_cls().render()

    store = Path(job["store"])
    store.mkdir(parents=True, exist_ok=True)
    key = job["hash"]
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
        if job["captions"] != "none":
            srt_file = movie.with_suffix(".srt")
            text = srt_file.read_text(encoding="utf-8") if srt_file.exists() else ""
            import srt

            atomic_write(store / f"{key}.srt", srt.compose(clean_subtitles(text, meta["duration"])))
        os.replace(movie, store / f"{key}.mp4")
    meta.update(stem=job["stem"], hash=key, rendered_at=time.time())
    atomic_write(store / f"{key}.json", json.dumps(meta, indent=1))
    (media / ".dirty").unlink()
    shutil.rmtree(staging, ignore_errors=True)
    return meta


# ----------------------------------------------------------------------------- scheduler


@dataclass
class Job:
    section: Any
    hash: str
    payload: dict
    started: float = 0.0
    handle: Any = None


@dataclass
class Outcome:
    section: Any
    status: str            # "rendered" | "cached" | "failed" | "missing"
    hash: str | None = None
    meta: dict | None = None
    error: str | None = None
    log: Path | None = None
    seconds: float = 0.0


#: How sections get their process (ATTN_RENDER_WORKER). ``fork`` (default): a forkserver
#: that has imported manim forks a fresh process per section: isolated like a ``manim``
#: subprocess (no state leaks between scenes, a crash takes one section), without paying
#: manim's import again per section. ``subprocess``: a new python per section, kept for the
#: comparison in bench/bench_render.py. Measured here (8 sections, 480p15, --jobs 1):
#: fork 53.8 s, subprocess 62.3 s; plain `manim -ql` one by one 75.1 s (59.0 s with
#: --disable_caching: manim's per-animation hashing is pure overhead behind our cache).
WORKER_STRATEGIES = ("fork", "subprocess")
_mp_context = None


def _context():
    global _mp_context
    if _mp_context is None:
        import multiprocessing as mp

        _mp_context = mp.get_context("forkserver")
        _mp_context.set_forkserver_preload(["manim"])
    return _mp_context


class _ForkHandle:
    def __init__(self, payload: dict):
        ctx = _context()
        self.p = ctx.Process(target=_render_worker, args=(payload,), name=f"render-{payload['stem']}",
                             daemon=True)
        self.p.start()

    def exitcode(self) -> int | None:
        return self.p.exitcode

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.p.terminate()

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.p.kill()
            self.p.join(1)


class _SubprocessHandle:
    def __init__(self, payload: dict):
        import subprocess

        pfile = Path(payload["result"]).with_suffix(".payload.json")
        atomic_write(pfile, json.dumps(payload))
        code = (f"import sys; sys.path.insert(0, {str(HERE)!r}); import render; "
                "render._render_worker_cli(sys.argv[1])")
        self.p = subprocess.Popen([sys.executable, "-c", code, str(pfile)],
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)

    def exitcode(self) -> int | None:
        return self.p.poll()

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.p.terminate()

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.p.kill()
            self.p.wait(1)


class _Terminated(Exception):
    pass


def _on_sigterm(signum, frame):  # noqa: ARG001
    raise _Terminated()


def run_jobs(jobs: list[Job], workers: int, on_start, on_done, strategy: str = "fork") -> None:
    """Run ``jobs`` over at most ``workers`` processes; ``on_done(job, status, data)`` after
    each (``status`` "rendered" with the meta, or "failed" with a one-line reason), and
    ``on_done(None, "tick", None)`` now and then. On any exception (Ctrl-C) running workers
    are terminated, then killed."""
    make = _SubprocessHandle if strategy == "subprocess" else _ForkHandle
    pending = list(jobs)
    running: list[Job] = []
    last_tick = time.monotonic()
    try:
        while pending or running:
            while pending and len(running) < workers:
                job = pending.pop(0)
                job.started = time.monotonic()
                job.handle = make(job.payload)
                running.append(job)
                on_start(job)
            time.sleep(0.05)
            for job in [j for j in running if j.handle.exitcode() is not None]:
                running.remove(job)
                code = job.handle.exitcode()
                result = _read_json(Path(job.payload["result"]))
                if result is None:
                    why = f"signal {-code}" if code < 0 else f"exit code {code}"
                    on_done(job, "failed", f"worker died ({why}) before finishing; see the log")
                elif result.get("ok"):
                    on_done(job, "rendered", result["meta"])
                else:
                    on_done(job, "failed", result.get("error") or "failed")
            if time.monotonic() - last_tick > 0.5:
                last_tick = time.monotonic()
                on_done(None, "tick", None)
    finally:
        for job in running:
            job.handle.stop()
        deadline = time.monotonic() + 3
        while running and time.monotonic() < deadline:
            running = [j for j in running if j.handle.exitcode() is None]
            time.sleep(0.05)
        for job in running:
            job.handle.kill()


# ----------------------------------------------------------------------------- the build


@dataclass
class Paths:
    out: Path

    @property
    def cache(self) -> Path: return self.out / ".cache"
    @property
    def store(self) -> Path: return self.cache / "store"
    @property
    def media(self) -> Path: return self.cache / "media"
    @property
    def tmp(self) -> Path: return self.cache / "tmp"
    @property
    def logs(self) -> Path: return self.cache / "logs"
    @property
    def manifest(self) -> Path: return self.out / "manifest.json"


def check_out_dir(out: Path) -> Paths:
    """Create ``out`` and check it is writable, else :class:`BadInput`."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / ".cache").mkdir(exist_ok=True)
        probe = out / ".cache" / f".probe.{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as e:
        raise BadInput(f"--out {str(out)!r} cannot be written: {e.strerror or e}") from None
    return Paths(out.resolve())


@contextlib.contextmanager
def locked(paths: Paths):
    """Hold ``out/.cache/lock``: one run per output directory at a time."""
    import fcntl

    fd = os.open(paths.cache / "lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise BadInput(f"--out {str(paths.out)!r} is in use by another render.py run") from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        _clean_leftovers(paths)  # of a run that was killed (SIGKILL, power loss)
        yield
    finally:
        shutil.rmtree(paths.tmp, ignore_errors=True)
        os.close(fd)


def _clean_leftovers(paths: Paths) -> None:
    """Remove temporary files of an earlier run (only called while holding the lock)."""
    shutil.rmtree(paths.tmp, ignore_errors=True)
    tmp_name = re.compile(r"^\..+\.\d+\.tmp$")
    for d in (paths.out, paths.out / "clips", paths.out / "stills", paths.cache, *paths.store.glob("*")):
        if d.is_dir():
            for f in d.iterdir():
                if tmp_name.match(f.name) and f.is_file():
                    _unlink(f)


def _read_json(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _cached(paths: Paths, section, key: str, kind: str, captions: str) -> dict | None:
    store = paths.store / section.stem
    meta = _read_json(store / f"{key}.json")
    if not meta:
        return None
    need = [store / (f"{key}.png" if kind == "still" else f"{key}.mp4")]
    if kind == "clip" and captions != "none":
        need.append(store / f"{key}.srt")
    return meta if all(p.is_file() for p in need) else None


def _prune_store(paths: Paths, keep_hashes: set[str]) -> None:
    if not paths.store.is_dir():
        return
    for d in paths.store.iterdir():
        metas = sorted(d.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
        keep = {p.stem for p in metas[:KEEP_PER_SECTION]} | keep_hashes
        for f in d.iterdir():
            if f.name.split(".")[0] not in keep:
                _unlink(f)


@dataclass
class Build:
    """One ``render`` or ``stills`` run."""

    registry: Registry
    sections: list
    opts: Options
    paths: Paths
    kind: str = "clip"          # "clip" (render) or "still" (stills)
    jobs: int = 1
    force: bool = False
    allow_missing: bool = False
    outcomes: dict = field(default_factory=dict)
    timings: dict = field(default_factory=dict)
    stitch_error: str | None = None

    def plan(self) -> list[Job]:
        hasher = Hasher(self.registry)
        todo = []
        for s in self.sections:
            src = scene_file(s)
            if src is None:
                self.outcomes[s.stem] = Outcome(s, "missing", error=f"{s.module} does not exist yet")
                continue
            key = section_hash(s, self.opts, self.kind, hasher, src)
            meta = None if self.force else _cached(self.paths, s, key, self.kind, self.opts.captions)
            if meta is not None:
                self.outcomes[s.stem] = Outcome(s, "cached", key, meta)
                continue
            log = self.paths.logs / f"{s.stem}.{self.kind}.log"
            log.parent.mkdir(parents=True, exist_ok=True)
            payload = {
                "stem": s.stem, "module": s.module, "scene": s.scene, "source": str(src),
                "root": str(self.registry.root), "env": section_env(s, self.opts),
                "size": list(self.opts.size), "kind": self.kind, "captions": self.opts.captions,
                "hash": key, "log": str(log), "store": str(self.paths.store / s.stem),
                "media": str(self.paths.media / s.stem),
                "staging": str(self.paths.tmp / f"{s.stem}-{key}-{os.getpid()}"),
                "result": str(self.paths.tmp / f"{s.stem}-{key}-{os.getpid()}.result.json"),
            }
            todo.append(Job(s, key, payload))
        return todo

    # -- publishing ---------------------------------------------------------------

    def publish_section(self, o: Outcome) -> None:
        store = self.paths.store / o.section.stem
        if self.kind == "still":
            publish(store / f"{o.hash}.png", self.paths.out / "stills" / f"{o.section.stem}.png")
            return
        clip = self.paths.out / "clips" / f"{o.section.stem}.mp4"
        publish(store / f"{o.hash}.mp4", clip)
        if self.opts.captions == "none":
            _unlink(clip.with_suffix(".srt"))
        else:
            publish(store / f"{o.hash}.srt", clip.with_suffix(".srt"))

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
        srt_ok = (self.opts.captions == "none") or srt_path.is_file()
        if (not self.force and prev.get("key") == key and mp4.is_file()
                and mp4.stat().st_size == prev.get("size") and srt_ok):
            return {**prev, "reused": True}
        t0 = time.perf_counter()
        clips = [(store / o.section.stem / f"{o.hash}.mp4", o.meta, o.section.title(self.opts.lang, self.opts.n_tokens))
                 for o in done]
        merged = None
        if self.opts.captions != "none":  # prepared first: the two renames follow each other
            parts, start = [], 0.0
            for o in done:
                parts.append(((store / o.section.stem / f"{o.hash}.srt").read_text(encoding="utf-8"), start))
                start += o.meta["duration"]
            merged = merge_subtitles(parts, start)
        total = stitch(clips, mp4, title="Self-attention" if self.opts.lang == "en" else "セルフアテンション",
                       lang=self.opts.lang)
        if merged is None:
            _unlink(srt_path)
        else:
            atomic_write(srt_path, merged)
        self.timings["stitch"] = time.perf_counter() - t0
        return {"key": key, "size": mp4.stat().st_size, "duration": total,
                "sections": [o.section.stem for o in done]}

    def _ordered(self) -> list[Outcome]:
        return [self.outcomes[s.stem] for s in self.sections if s.stem in self.outcomes]

    # -- the run ------------------------------------------------------------------------

    def run(self, console) -> int:
        t0 = time.perf_counter()
        with locked(self.paths):
            todo = self.plan()
            self.timings["plan"] = time.perf_counter() - t0
            for o in self._ordered():
                if o.status == "cached":
                    self.publish_section(o)
                elif o.status == "missing":
                    console.print(f"[yellow]skip[/] {o.section.stem}: not yet implemented ({o.error})")
            t1 = time.perf_counter()
            if todo:
                self._render(todo, console)
            self.timings["render"] = time.perf_counter() - t1
            manifest = _read_json(self.paths.manifest) or {}
            failed = [o for o in self._ordered() if o.status == "failed"]
            stitched = None
            if self.kind == "clip":
                if failed and not self.allow_missing:
                    stitched = None
                else:
                    try:
                        stitched = self.stitch_all(manifest)
                    except Exception as e:  # noqa: BLE001 - reported, exit code 1
                        self.stitch_error = f"{type(e).__name__}: {e}"
            self._write_manifest(manifest, stitched)
            keep = {o.hash for o in self.outcomes.values() if o.hash}
            _prune_store(self.paths, keep)
        self.timings["total"] = time.perf_counter() - t0
        return self._summary(console, stitched)

    def _render(self, todo: list[Job], console) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

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
        task = progress.add_task(describe(), total=total, completed=counts["cached"], stats=stats())

        def on_start(job: Job) -> None:
            running[job.section.stem] = job
            progress.update(task, description=describe())

        def on_done(job: Job | None, status: str, data) -> None:
            if job is None:
                progress.update(task, description=describe())
                return
            running.pop(job.section.stem, None)
            secs = time.monotonic() - job.started
            log = Path(job.payload["log"])
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

        old = signal.signal(signal.SIGTERM, _on_sigterm)
        try:
            with progress:
                run_jobs(todo, max(1, min(self.jobs, len(todo))), on_start, on_done,
                         strategy=os.environ.get("ATTN_RENDER_WORKER", "fork"))
        finally:
            signal.signal(signal.SIGTERM, old)

    def _write_manifest(self, manifest: dict, stitched: dict | None) -> None:
        key = "stills" if self.kind == "still" else "clips"
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
        manifest["last_run"] = {"command": "stills" if self.kind == "still" else "render",
                                "sections": [o.section.stem for o in self._ordered()],
                                "status": {o.section.stem: o.status for o in self._ordered()},
                                "render_seconds": {o.section.stem: round(o.seconds, 3) for o in self._ordered()
                                                   if o.status in ("rendered", "failed")},
                                "seconds": {k: round(v, 4) for k, v in self.timings.items()}}
        atomic_write(self.paths.manifest, json.dumps(manifest, indent=1, ensure_ascii=False))

    def _summary(self, console, stitched: dict | None) -> int:
        outs = self._ordered()
        by = {k: [o for o in outs if o.status == k] for k in ("rendered", "cached", "failed", "missing")}
        console.print(f"{len(by['rendered'])} rendered, {len(by['cached'])} cached, "
                      f"{len(by['failed'])} failed, {len(by['missing'])} not yet implemented "
                      f"({self.timings['total']:.1f}s)")
        if by["missing"]:
            console.print("[yellow]not yet implemented[/] (left out): "
                          + ", ".join(o.section.stem for o in by["missing"]))
        for o in by["failed"]:
            console.print(f"[red]FAILED[/] {o.section.stem}: {o.error}  (log: {o.log})")
        out = self.paths.out
        if self.kind == "still":
            if by["rendered"] or by["cached"]:
                console.print(f"stills in {out / 'stills'}")
        elif stitched is not None:
            what = "unchanged" if stitched.get("reused") else "written"
            n = len(stitched["sections"])
            console.print(f"{out / (STITCHED + '.mp4')} {what}: {n} section{'s' * (n != 1)}, "
                          f"{stitched['duration']:.1f}s" + (", some sections left out" if (by['missing'] or by['failed']) else ""))
        elif self.stitch_error:
            console.print(f"[red]FAILED[/] joining {STITCHED}.mp4: {self.stitch_error}")
        elif by["failed"]:
            console.print(f"[red]{STITCHED}.mp4 not written[/]: it would lack "
                          f"{len(by['failed'])} failed section(s) (use --allow-missing to write it anyway)")
        return 1 if by["failed"] or self.stitch_error else 0


# ----------------------------------------------------------------------------- CLI


class _DefaultGroup(click.Group):
    """``render`` is the default subcommand: ``render.py --quality preview`` renders."""

    def parse_args(self, ctx, args):
        if not args or (args[0].startswith("-") and args[0] not in ("--help", "-h")):
            args = ["render", *args]
        return super().parse_args(ctx, args)


def _quality(ctx, param, value):  # noqa: ARG001
    if value not in QUALITIES and value not in HIDDEN_QUALITIES:
        raise click.BadParameter(f"unknown quality {value!r} (choose {', '.join(QUALITIES)})")
    return value


def _jobs(ctx, param, value):  # noqa: ARG001
    if value is None:
        return os.cpu_count() or 1
    if value < 1:
        raise click.BadParameter("must be at least 1")
    return value


def _head_options(f):
    """--head/--spec/--sentence/--follow: which sentence and head the explainer shows."""
    opts = [
        click.option("--head", "head_file", type=click.Path(path_type=Path, dir_okay=False), default=None,
                     help="A head TOML file (tokens, inputs, W_Q, W_K, W_V)."),
        click.option("--spec", "spec_file", type=click.Path(path_type=Path, dir_okay=False), default=None,
                     help="A spec TOML file: a sentence and any of vectors, matrices, roles "
                          "(see assets/example_spec.toml)."),
        click.option("--sentence", default=None, metavar="TEXT",
                     help="Your own sentence, 2 to 12 space-separated tokens."),
        click.option("--follow", default=None, metavar="TOKEN",
                     help="The token to follow: its text or 0-based position "
                          "[default: the last pronoun, else the last token]."),
    ]
    for o in reversed(opts):
        f = o(f)
    return f


def resolve_head(head_file, spec_file, sentence, follow):
    """The head these options describe, or None for the default head (bad input: exit 2)."""
    from attn_math.head import HeadError
    from attn_math.head import resolve_head as _resolve

    if not any(v is not None for v in (head_file, spec_file, sentence, follow)):
        return None
    try:
        return _resolve(head_file, spec_file, sentence, follow)
    except HeadError as e:
        raise BadInput(str(e)) from None


def head_file_for(head, paths: Paths) -> Path:
    """A canonical TOML of ``head`` under the cache, named by its content (scenes read it)."""
    text = head.to_toml()
    dest = paths.cache / "heads" / (hashlib.sha256(text.encode()).hexdigest()[:16] + ".toml")
    if not dest.exists():
        dest.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(dest, text)
    return dest


def _common_options(f):
    opts = [
        click.option("--quality", default="high", show_default=True, callback=_quality,
                     metavar="[" + "|".join(QUALITIES) + "]",
                     help="preview 480p15, medium 720p30, high 1080p30, production 1080p60, 4k 2160p60."),
        click.option("--sections", "sections_spec", default=None, metavar="LIST",
                     help="Numbers, ranges and slugs, e.g. 1-4,9,attention-map (default: all)."),
        click.option("--lang", type=click.Choice(LANGS), default="ja", show_default=True,
                     help="Language of captions and titles."),
        click.option("--theme", type=click.Choice(THEMES), default="dark", show_default=True),
        click.option("--captions", type=click.Choice(CAPTION_MODES), default="burned", show_default=True,
                     help="burned: drawn on the frame and written to .srt; srt: .srt only; none."),
        click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default=Path("out"),
                     show_default=True, help="Output directory."),
        click.option("--jobs", "-j", type=int, default=None, callback=_jobs,
                     help="Sections rendered in parallel worker processes [default: cores]."),
        click.option("--force", is_flag=True, help="Ignore the cache: render every section again."),
    ]
    for o in reversed(opts):
        f = o(f)
    return f


@click.group(cls=_DefaultGroup, context_settings={"help_option_names": ["-h", "--help"]})
def cli():
    """Render the animated self-attention explainer (one Manim scene per section).

    \b
      render.py [render] [OPTIONS]   OUT/explainer.mp4 (chapters) + .srt, OUT/clips/
      render.py stills [OPTIONS]     OUT/stills/NN-slug.png, each section's last frame
      render.py list [--json]        the sections, in order
      render.py figures [--json]     the head and every figure it implies

    --sentence/--follow/--spec/--head (render, stills, figures) use your own example.
    With no subcommand, runs `render`. Sections are cached by a hash of what they
    depend on; a run with nothing changed only checks hashes. Exit codes: 0 ok,
    1 a section failed, 2 bad input, 130 interrupted.
    """


def _console():
    from rich.console import Console

    return Console(stderr=True, highlight=False, soft_wrap=True)


def _start(kind: str, quality, sections_spec, lang, theme, captions, out_dir, jobs, force,
           allow_missing=False, head_args=(None, None, None, None)) -> int:
    registry = load_registry()
    sections = parse_sections(sections_spec, registry.sections)
    custom = resolve_head(*head_args)
    paths = check_out_dir(out_dir)
    head = head_file_for(custom, paths) if custom is not None else None
    n_tokens = custom.n if custom is not None else None
    opts = Options(lang=lang, theme=theme, captions=captions, quality=quality, head=head,
                   n_tokens=n_tokens)
    build = Build(registry, sections, opts, paths, kind=kind, jobs=jobs, force=force,
                  allow_missing=allow_missing)
    return build.run(_console())


@cli.command(short_help="Render sections, join them into OUT/explainer.mp4, write OUT/clips/.")
@_common_options
@_head_options
@click.option("--allow-missing", is_flag=True,
              help="Stitch the video even if some sections failed (they are left out).")
def render(quality, sections_spec, lang, theme, captions, out_dir, jobs, force, head_file, spec_file,
           sentence, follow, allow_missing):
    """Render the sections, join them into OUT/explainer.mp4 with chapters and a merged .srt,
    and write each section as OUT/clips/NN-slug.mp4 (+ .srt)."""
    return _start("clip", quality, sections_spec, lang, theme, captions, out_dir, jobs, force, allow_missing,
                  (head_file, spec_file, sentence, follow))


@cli.command()
@_common_options
@_head_options
def stills(quality, sections_spec, lang, theme, captions, out_dir, jobs, force, head_file, spec_file,
           sentence, follow):
    """Write the final frame of each section to OUT/stills/NN-slug.png."""
    return _start("still", quality, sections_spec, lang, theme, captions, out_dir, jobs, force,
                  head_args=(head_file, spec_file, sentence, follow))


@cli.command("list")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--lang", type=click.Choice(LANGS), default="ja", show_default=True)
def list_sections(as_json, lang):
    """List the sections in order (and whether each scene exists yet)."""
    registry = load_registry()
    rows = []
    for s in registry.sections:
        src = scene_file(s)
        rows.append({**dataclasses.asdict(s), "stem": s.stem, "file": s.file,
                     "implemented": src is not None})
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    for r in rows:
        mark = " " if r["implemented"] else "-"
        title = r["title_ja"] if lang == "ja" else r["title_en"]
        click.echo(f"{r['number']:>2} {mark} {r['slug']:<24} {title}")
    missing = sum(not r["implemented"] for r in rows)
    if missing:
        click.echo(f"({missing} marked '-' are not yet implemented)")
    return 0


# ----------------------------------------------------------------------------- figures


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="One JSON object (see the README).")
@_head_options
def figures(as_json, head_file, spec_file, sentence, follow):
    """Print the head and every figure it implies, section by section."""
    from attn_math import Story, default_head

    head = resolve_head(head_file, spec_file, sentence, follow) or default_head()
    story = Story(head)
    data = story.to_json()
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    from attn_math.fmt import fmt, fmt_vec

    def mat(name, M):
        click.echo(f"{name}:")
        for row in M:
            click.echo("  " + "  ".join(f"{fmt(v, 3):>7}" for v in row))

    click.echo("sentence: " + " ".join(story.labels))
    click.echo(f"follow:   {story.labels[story.follow]} (position {story.follow}), d = {story.d}")
    click.echo("inputs:   " + "  ".join(f"{lab} {fmt_vec(x)}" for lab, x in zip(story.labels, story.X)))
    mat("W_Q", head.W_Q)
    mat("W_K", head.W_K)
    mat("W_V", head.W_V)
    click.echo("roles:    " + ", ".join(
        f"{k} {v['token']}" for k, v in data["story"]["roles"].items() if "token" in v))
    for sec, figs in data["story"]["sections"].items():
        title = next((s.title("en", story.n) for s in load_registry().sections
                      if s.number == int(sec)), "")
        click.echo(f"{sec} {title}: " + "  ".join(f"{k} {v['text']}" for k, v in figs.items()))
    return 0


# ----------------------------------------------------------------------------- end figures


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point (``attn-explainer``)."""
    try:
        rv = cli.main(args=list(argv) if argv is not None else None, prog_name="render.py",
                      standalone_mode=False)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.ClickException as e:
        msg = " ".join(e.format_message().split())
        print(f"render.py: error: {msg}", file=sys.stderr)
        sys.exit(2)
    except (KeyboardInterrupt, click.exceptions.Abort, _Terminated):
        print("render.py: interrupted; finished sections are cached, run again to resume",
              file=sys.stderr)
        sys.exit(130)
    sys.exit(rv if isinstance(rv, int) else 0)


if __name__ == "__main__":
    main()
