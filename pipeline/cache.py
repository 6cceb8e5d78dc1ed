"""When a section must be rendered again: the content hash of everything its frames depend on,
and the store of finished renders it keys."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path

from words import config
from words import units as word_units
from words.units import WORD_KINDS

from . import subtitles
from .files import Paths, content_digest, read_json, unlink
from .kinds import OutputKind
from .options import Options
from .registry import Registry

__all__ = ["CACHE_FORMAT", "KEEP_PER_SECTION", "Hasher", "section_env", "section_hash", "cached",
           "check_entry", "recorded_digests", "discard_entry", "prune_store"]

#: Bump when the worker or the stored clip format changes: every cached render is redone.
CACHE_FORMAT = 2
KEEP_PER_SECTION = 6    # cached renders kept per section (langs x themes x kinds...)
#: Tables of the caption files that no clip draws (the slides' and transcript's words):
#: editing them renders nothing again.
NOT_IN_CLIPS = frozenset({"summaries", "deck", "transcript"})


def _package_version(pkg: str) -> str:
    """The installed distribution's version, else the module's ``__version__``, else "?"."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(pkg)
    except PackageNotFoundError:
        pass
    try:
        module = __import__({"pycairo": "cairo"}.get(pkg, pkg))
        return str(getattr(module, "__version__", getattr(module, "version", "?")))
    except Exception:  # noqa: BLE001 - not installed: the render will say so
        return "?"


def _library_versions() -> str:
    """The cairo and pango libraries manim draws with (a new build can move glyphs)."""
    try:
        import cairo
        import manimpango

        return f"cairo {cairo.cairo_version_string()}, pango {manimpango.pango_version()}"
    except Exception:  # noqa: BLE001
        return "?"


def _fonts_digest() -> str:
    """A digest of the installed fonts (file, family, version): installing or upgrading a
    font (a CJK or emoji fallback too) changes how text draws, so it re-renders."""
    import subprocess

    try:
        listing = subprocess.run(["fc-list", "--format", "%{file}|%{family}|%{fontversion}\\n"],
                                 capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return "?"
    return hashlib.sha256("\n".join(sorted(listing.splitlines())).encode()).hexdigest()[:16]


def section_env(section, opts: Options) -> dict[str, str]:  # noqa: ARG001 - one per section
    """The environment a section's scene is rendered with (:mod:`words.config`).

    Only the scene variables; any not set here is removed in the worker. Paths are absolute
    (the worker runs in the project root).
    """
    head = opts.head or config.current().head
    return config.scene_env(
        lang=opts.lang, theme=opts.theme, captions=opts.captions,
        head=Path(head).resolve() if head is not None else None, narration=opts.narration,
        voice_cache=Path(opts.voice_cache).resolve() if opts.voice_cache is not None else None,
        voice=opts.voice, recordings=opts.recordings, captions_file=opts.captions_file,
        section_dirs=config.current().section_dirs)  # sections from outside the repository


def project_modules(root: Path) -> frozenset[str] | None:
    """The top-level import names of this project's code under ``root``, when ``root`` is
    where a wheel installed it (site-packages, shared with other distributions); None for a
    checkout or a swapped-in registry's folder, where every module under ``root`` is ours.

    Read from the installed distribution's file list (``RECORD``), so a package added to
    the project needs no list kept here.
    """
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        files = distribution("attn-explainer").files or []
    except PackageNotFoundError:
        return None
    tops = {f.parts[0].removesuffix(".py") for f in files if f.suffix == ".py" and f.parts}
    tops = {t for t in tops if (root / t).is_dir() or (root / f"{t}.py").is_file()}
    return frozenset(tops) if "pipeline" in tops else None


_file_digest = content_digest   # the one file digest of the project (batch.store's too)


def _tree_files(root: Path, skip: frozenset[Path] = frozenset()) -> Iterable[Path]:
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


#: The fields of a statement that hold statements (an import is a statement, so only these
#: are searched: the expressions, most of a module's nodes, are skipped).
_STATEMENT_LISTS = ("body", "orelse", "finalbody", "handlers", "cases")


def _import_statements(tree):
    """Every ``import`` and ``from ... import`` statement of the module ``tree``, at any
    depth (in functions, classes, branches, ``try`` and ``match`` blocks)."""
    import ast

    todo = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
            continue
        for field in _STATEMENT_LISTS:
            inner = getattr(node, field, None)
            if isinstance(inner, list):
                todo.extend(inner)


@functools.lru_cache(maxsize=4096)
def _imported_names(data: bytes, package: tuple[str, ...], filename: str) -> tuple[str, ...]:
    """The dotted names the module source ``data`` (of ``package``) imports, and the
    packages its ``from`` imports name: parsed once per content, in this process, for every
    run it plans (a studio's job process plans one run per sentence)."""
    import ast

    try:
        tree = ast.parse(data, filename=filename)
    except (SyntaxError, ValueError):
        return ()  # the render will report it; the file's own bytes are hashed
    names: list[str] = []
    for node in _import_statements(tree):
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
    return tuple(names)


class Hasher:
    """Computes :func:`section_hash` inputs once per run (shared code, caption tables)."""

    def __init__(self, registry: Registry):
        self.registry = registry
        # resolved, as the files walked are (_tree_files): data reached through a symbolic
        # link (a copy of the project that links its assets/) still names its files
        self.root = registry.root.resolve()
        self.assets = registry.assets.resolve()
        self._own = project_modules(self.root)
        self._shared: str | None = None
        self._import_cache: dict[Path, set[Path]] = {}
        self._module_files: dict[str, Path | None] = {}
        self._digests: dict[Path, str] = {}
        self._captions: dict[str, tuple[dict | None, bytes]] = {}
        self._versions: str | None = None
        self._units: str | None = None

    def always_digest(self) -> str:
        """What every section may read without importing it: all of attn_math/ (the story and
        its figures; also reached through imports), data files under scenes/ but the sections'
        words (hashed per section, as the captions below), and assets/
        except the captions (hashed per section), the spoken variants (per narrated section:
        narration.pacing.narration_key) and the head (hashed on its own)."""
        if self._shared is None:
            root = self.root
            h = hashlib.sha256()
            for top in ("attn_math", "scenes"):
                for p in _tree_files(root / top):
                    rel = p.relative_to(root)
                    if top == "scenes" and (p.suffix == ".py" or rel.parts[1:2] == ("sections",)
                                            and rel.parts[3:4] and rel.parts[3] in WORD_KINDS):
                        continue  # code is hashed by import; a section's words, per section
                    h.update(f"{rel}\0{self.digest(p)}\n".encode())
            # Named "assets/..." wherever the data package is installed; its code only finds
            # the files, and the captions, spoken forms and head are hashed on their own.
            for p in _tree_files(self.assets):
                rel = Path("assets", p.relative_to(self.assets))
                if p.suffix == ".py" or rel.parts[:2] in (("assets", "captions"), ("assets", "spoken")) \
                        or rel == Path("assets", "head.toml"):
                    continue
                h.update(f"{rel}\0{self.digest(p)}\n".encode())
            self._shared = h.hexdigest()
        return self._shared

    def units_digest(self) -> str:
        """Every section's and card's folder but the scenes and the words: figures and beat
        plans (the story computes all sections' figures, and a caption may quote another
        section's) and the parts beside them. A section's words are hashed for the sections
        that show them (:meth:`caption_bytes`; its spoken variants, the narration key), so an
        edited caption renders one section again, not all."""
        if self._units is None:
            h = hashlib.sha256()
            for unit in self.registry.sections + self.registry.cards:
                folder = getattr(unit, "folder", None)
                if folder is None:  # a swapped-in registry's section: its scene file is all
                    continue
                for p in _tree_files(folder):
                    rel = p.relative_to(folder)
                    if p.name != "scene.py" and rel.parts[0] not in WORD_KINDS:
                        h.update(f"{unit.number}:{rel}\0{self.digest(p)}\n".encode())
            self._units = h.hexdigest()
        return self._units

    def digest(self, path: Path) -> str:
        if path not in self._digests:
            self._digests[path] = _file_digest(path)
        return self._digests[path]

    def _module_file(self, name: str) -> Path | None:
        if name not in self._module_files:
            self._module_files[name] = self._find_module_file(name)
        return self._module_files[name]

    def _find_module_file(self, name: str) -> Path | None:
        if self._own is not None and name.split(".")[0] not in self._own:
            return None  # installed: site-packages holds other distributions' code too
        p = self.root.joinpath(*name.split("."))
        for cand in (p.with_suffix(".py"), p / "__init__.py"):
            if cand.is_file():
                return cand.resolve()
        return None

    def _imports(self, file: Path) -> set[Path]:
        """Project files ``file`` imports (directly; any import statement anywhere in it)."""
        if file in self._import_cache:
            return self._import_cache[file]
        found: set[Path] = set()
        try:
            data = file.read_bytes()
        except OSError:
            data = None  # the render will report it
        rel = file.relative_to(self.root).with_suffix("").parts if file.is_relative_to(self.root) else ()
        package = tuple(rel[:-1])  # the package a relative import starts from
        names = _imported_names(data, package, str(file)) if data is not None else ()
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
        """What draws the pixels besides the project's code: the versions of manim, PyAV,
        manimpango, pycairo, the cairo and pango libraries, and the installed fonts."""
        if self._versions is None:
            self._versions = ",".join([*(f"{pkg}={_package_version(pkg)}"
                                         for pkg in ("manim", "av", "manimpango", "pycairo")),
                                       f"libs={_library_versions()}", f"fonts={_fonts_digest()}"])
        return self._versions

    def caption_bytes(self, section, lang: str, own_words: Path | None = None) -> bytes:
        """The caption text a section can see: its own table ``[sNN]`` plus everything in the
        file that belongs to no section; the whole file if it cannot be split that way. With a
        captions file (``own_words``), the tables as it changes them: a section whose words it
        leaves alone keeps its hash."""
        if own_words is not None:
            return self._own_caption_bytes(section, lang, own_words)
        if lang not in self._captions:
            # the shared words, then each unit's own (its folder's captions/<lang>.toml)
            paths = [self.assets / "captions" / f"{lang}.toml"]
            folders = [u.folder for u in self.registry.sections + self.registry.cards
                       if getattr(u, "folder", None) is not None]
            paths += [f / "captions" / f"{lang}.toml" for f in folders]
            raw = b"".join(p.read_bytes() + b"\0" for p in paths if p.is_file())
            try:
                import tomllib

                with open(paths[0], "rb") as f:
                    data = tomllib.load(f)
                for folder in folders:
                    for name, value in word_units.own_words(folder, "captions", lang).items():
                        data[name] = {**data.get(name, {}), **value}
            except Exception:  # noqa: BLE001 - the scene will report it; hash it whole
                data = None
            self._captions[lang] = (data, raw)
        data, raw = self._captions[lang]
        key = f"s{section.number:02d}"
        others = _words_of(section)
        if data is None or key not in data or others is None:
            return raw      # a card that does not say whose words it shows may show any
        section_keys = {f"s{s.number:02d}" for s in self.registry.sections + self.registry.cards}
        shared = {k: v for k, v in data.items() if k not in section_keys and k not in NOT_IN_CLIPS}
        tables = [data[key]] + [data.get(f"s{n:02d}") for n in others]
        return json.dumps([*tables, shared] if others else [data[key], shared], sort_keys=True,
                          ensure_ascii=False, default=str).encode()

    def _own_caption_bytes(self, section, lang: str, own_words: Path) -> bytes:
        """:meth:`caption_bytes` under a captions file: the packaged bytes while the words the
        section sees (its table, the shared tables, its own title) are unchanged."""
        from words.captions_file import merged_from

        packaged = self.caption_bytes(section, lang)  # also parses the packaged table once
        data, raw = self._captions[lang]
        if data is None:
            return raw
        changed = merged_from(data, lang, own_words)
        others = _words_of(section)
        if others is None:  # a card that does not say whose words it shows may show any
            return packaged if changed == data else json.dumps(
                changed, sort_keys=True, ensure_ascii=False, default=str).encode()
        section_keys = {f"s{s.number:02d}" for s in self.registry.sections + self.registry.cards}
        key = f"s{section.number:02d}"

        def seen(table: dict) -> list:
            shared = {k: v for k, v in table.items() if k not in section_keys and k != "titles"}
            titles = {k: v for k, v in table.get("titles", {}).items() if k.split("_")[0] in (key, "video")}
            return [table.get(key), *(table.get(f"s{n:02d}") for n in others), shared, titles]

        if seen(changed) == seen(data):
            return packaged
        return json.dumps(seen(changed), sort_keys=True, ensure_ascii=False, default=str).encode()


def _words_of(section) -> tuple[int, ...] | None:
    """The other sections whose words ``section`` shows: none for a section; a card's own
    list (``WORDS_OF``), None when it gives none."""
    if not getattr(section, "card", False):
        return ()
    words_of = getattr(section, "words_of", None)
    return words_of() if words_of is not None else None


def section_hash(section, opts: Options, kind: OutputKind, hasher: Hasher, source: Path) -> str:
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
    put("kind", kind.name)
    put("versions", hasher.versions())
    put("section", json.dumps(dataclasses.asdict(section), sort_keys=True, ensure_ascii=False))
    for f in hasher.code_closure(source):
        rel = f.relative_to(hasher.root) if f.is_relative_to(hasher.root) else f
        put(f"code:{rel}", hasher.digest(f))
    put("always", hasher.always_digest())
    put("units", hasher.units_digest())
    env = section_env(section, opts)
    head = Path(env[config.HEAD.name]) if config.HEAD.name in env else hasher.assets / "head.toml"
    put("head", head.read_bytes() if head.is_file() else b"<no head file>")
    put("captions", hasher.caption_bytes(section, opts.lang, opts.captions_file))
    if kind.subtitled and opts.captions != "none":  # a clip carries every language's subtitles
        for lang in subtitles.track_order(opts.lang)[1:]:
            put(f"subtitles:{lang}", hasher.caption_bytes(section, lang, opts.captions_file))
    # where the head, the voice cache, the captions file and the recordings are is not what
    # they hold (the captions and the narration key hash their contents)
    unhashed = (config.HEAD.name, config.VOICE_CACHE.name, config.CAPTIONS_FILE.name, config.RECORDINGS.name)
    put("env", json.dumps({k: v for k, v in env.items() if k not in unhashed}, sort_keys=True))
    put("size", "{}x{}@{}".format(*opts.size))
    if opts.narration:  # the voice, its versions and the audio settings
        from narration.pacing import narration_key

        put("narration", narration_key(opts.lang, section.number, opts.voice, opts.recordings))
    return h.hexdigest()[:24]


def cached(paths: Paths, section, key: str, kind: OutputKind, captions: str) -> dict | None:
    """The meta of a finished, intact store entry of ``section`` under ``key``, else None."""
    return check_entry(paths, section, key, kind, captions)[0]


def check_entry(paths: Paths, section, key: str, kind: OutputKind, captions: str) -> tuple[dict | None, str | None]:
    """``(meta, None)`` for a finished, intact store entry; ``(None, None)`` when there is
    none; ``(None, why)`` when there is one that cannot be used: its meta is not whole JSON,
    a file it lists is missing, or a file's bytes differ from the digest it recorded (a clip
    cut in half, a disk that lost a write). The meta is written last, so an entry a killed
    worker left half-written has none and is simply absent."""
    store = paths.store / section.stem
    meta_file = store / f"{key}.json"
    if not meta_file.exists():
        return None, None
    meta = read_json(meta_file)
    if not isinstance(meta, dict) or not meta:
        return None, f"{meta_file.name} is not a whole record"
    files = kind.stored_files(store, key, captions, meta)
    sums = recorded_digests(meta, key)
    for p in files:
        if not p.is_file():
            return None, f"{p.name} is missing"
        if p.name in sums and sums[p.name] != content_digest(p):
            return None, f"{p.name} does not hold what was stored (cut or changed)"
    return meta, None


def recorded_digests(meta: dict, key: str) -> dict[str, str]:
    """The sha256 of each file a store entry's meta records, by file name: the worker's
    ``digests`` ({name: sha256}), or a batch store's ``files`` ({suffix: {"sha256": ...}})."""
    sums = {}
    batch = meta.get("files")
    if isinstance(batch, dict):
        for suffix, info in batch.items():
            if isinstance(info, dict) and isinstance(info.get("sha256"), str):
                sums[f"{key}.{suffix}"] = info["sha256"]
    own = meta.get("digests")
    if isinstance(own, dict):
        sums.update({str(k): v for k, v in own.items() if isinstance(v, str)})
    return sums


def discard_entry(paths: Paths, section, key: str) -> None:
    """Remove every file of a store entry (its meta first: the entry is then absent)."""
    store = paths.store / section.stem
    unlink(store / f"{key}.json")
    for f in store.glob(f"{key}.*") if store.is_dir() else ():
        unlink(f)


def prune_store(paths: Paths, keep_hashes: set[str]) -> None:
    if not paths.store.is_dir():
        return
    for d in paths.store.iterdir():
        metas = sorted(d.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
        keep = {p.stem for p in metas[:KEEP_PER_SECTION]} | keep_hashes
        for f in d.iterdir():
            if f.name.split(".")[0] not in keep:
                unlink(f)

