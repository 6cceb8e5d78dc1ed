"""The run's configuration: one immutable :class:`Settings` value, and the ``ATTN_*``
variables that carry it between processes.

A run's settings are built once, at the edge that starts the work (the command line, the
studio, a batch task, a worker handed its job, or, for the plain manim CLI, the environment
read once), installed with :func:`use` and read everywhere with :func:`current`, as manim's
``config`` is; :func:`using` swaps them for a block, as ``tempconfig`` does. Nothing reads
the environment after that: a variable set later changes nothing in this process.

The environment is the settings' wire form: a process started by this one (a worker, the
studio's render process) is handed ``settings.environment()`` or a job holding
:func:`scene_env`'s variables, and builds its own value from it, so that the plain manim
CLI renders any scene unchanged (``ATTN_LANG=en manim -ql
scenes/sections/s03_which_key/scene.py WhichKey``). Each variable is one small object below
(its name, its allowed values, its default), and nothing else in the project spells an
``ATTN_*`` name; this is the one module of the product that reads or writes ``os.environ``
(a test holds every other module to it).

A value outside the allowed set is an error, never silently the default: a typo such as
``ATTN_LANG=english`` would otherwise render a whole Japanese video without a word of warning.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "LANGS", "THEMES", "CAPTION_MODES", "ConfigError", "Choice", "Flag", "Location", "Locations",
    "Text", "LANG", "THEME", "CAPTIONS", "HEAD", "NARRATION", "VOICE_CACHE", "VOICE", "RECORDINGS",
    "CAPTIONS_FILE", "SECTION_DIRS", "SCENE_SETTINGS", "REGISTRY", "RENDER_WORKER", "VOICE_DIR",
    "REVEAL_DIR", "SUITE_TIMELINE", "VARIABLES", "Settings", "current", "use", "using", "scene_env",
    "without_variable",
]

#: The prefix of every variable of this module's settings.
PREFIX = "ATTN_"

#: Caption and title languages.
LANGS = ("ja", "en")
#: Colour themes (``scenes.style`` holds one palette per name).
THEMES = ("dark", "light")
#: ``burned``: drawn on the frame and written to .srt; ``srt``: written only; ``none``.
CAPTION_MODES = ("burned", "srt", "none")


class ConfigError(ValueError):
    """An ``ATTN_*`` variable holds a value the scenes do not know."""


@dataclass(frozen=True)
class Choice:
    """A variable that takes one of a few values; unset or empty means ``default``."""

    name: str
    allowed: tuple[str, ...]
    default: str

    def parse(self, raw: str) -> str:
        """The value ``raw`` stands for; :class:`ConfigError` if it is not allowed."""
        value = raw or self.default
        if value not in self.allowed:
            raise ConfigError(f"{self.name}={value!r} is not one of {', '.join(self.allowed)}")
        return value

    def format(self, value: str) -> str:
        return value


@dataclass(frozen=True)
class Flag:
    """A variable that is on unless unset, empty or ``0``."""

    name: str
    default: bool = False

    def parse(self, raw: str) -> bool:
        return raw not in ("", "0")

    def format(self, value: bool) -> str:
        return "1" if value else ""


@dataclass(frozen=True)
class Location:
    """A variable naming a file or folder; unset or empty means None."""

    name: str
    default: None = None

    def parse(self, raw: str) -> Path | None:
        return Path(raw) if raw else None

    def format(self, value: Path | None) -> str:
        return "" if value is None else str(value)


@dataclass(frozen=True)
class Locations:
    """A variable naming folders, ``os.pathsep``-separated; unset or empty means none."""

    name: str
    default: tuple[Path, ...] = ()

    def parse(self, raw: str) -> tuple[Path, ...]:
        return tuple(Path(p).expanduser().resolve() for p in raw.split(os.pathsep) if p.strip())

    def format(self, value: tuple[Path, ...]) -> str:
        return os.pathsep.join(str(p) for p in value)


@dataclass(frozen=True)
class Text:
    """A variable holding free text; unset or empty means ``default``."""

    name: str
    default: str

    def parse(self, raw: str) -> str:
        return raw or self.default

    def format(self, value: str) -> str:
        return value


# ---------------------------------------------------------------- the scene contract
LANG = Choice("ATTN_LANG", LANGS, "ja")
THEME = Choice("ATTN_THEME", THEMES, "dark")
CAPTIONS = Choice("ATTN_CAPTIONS", CAPTION_MODES, "burned")
#: A head or spec TOML; unset: ``assets/head.toml``.
HEAD = Location("ATTN_HEAD")
#: An offline voice reads every caption beat and the scene waits for it.
NARRATION = Flag("ATTN_NARRATION")
#: Where spoken lines are cached; unset: ``~/.cache/attn-explainer/voice``.
VOICE_CACHE = Location("ATTN_VOICE_CACHE")
#: The voice of a narrated render (``--voice``: a name of ``narration.voices``' table);
#: unset: the language's default. Checked against the table by the command line.
VOICE = Text("ATTN_VOICE", "")
#: The lecturer's recordings, one file per cue id (``--recordings``); unset: none.
RECORDINGS = Location("ATTN_RECORDINGS")
#: The lecturer's words replacing caption entries (``--captions-file``); unset: none.
CAPTIONS_FILE = Location("ATTN_CAPTIONS_FILE")
#: Folders of sections from outside the repository (``render.py --section-dir``).
SECTION_DIRS = Locations("ATTN_SECTION_DIRS")

#: What decides how a scene looks and sounds: a worker sets these and clears the rest.
SCENE_SETTINGS = (LANG, THEME, CAPTIONS, HEAD, NARRATION, VOICE_CACHE, VOICE, RECORDINGS, CAPTIONS_FILE,
                  SECTION_DIRS)

# ---------------------------------------------------------------- the tooling's switches
#: The section registry module a run loads (tests swap in their own).
REGISTRY = Text("ATTN_REGISTRY", "scenes.registry")
#: How a section gets its process: ``fork`` (from a forkserver) or ``subprocess``.
RENDER_WORKER = Text("ATTN_RENDER_WORKER", "fork")
#: Where the set-up put the Mei voice.
VOICE_DIR = Location("ATTN_VOICE_DIR")
#: Where the set-up unpacked reveal.js.
REVEAL_DIR = Location("ATTN_REVEAL_DIR")
#: Where ``bench/suite_timeline.py`` writes each test's start and length (the suite's bench).
SUITE_TIMELINE = Location("ATTN_SUITE_TIMELINE")


def scene_env(*, lang: str, theme: str | None = None, captions: str | None = None,
              head: str | Path | None = None, narration: bool = False,
              voice_cache: str | Path | None = None, voice: str | None = None,
              recordings: str | Path | None = None, captions_file: str | Path | None = None,
              section_dirs=()) -> dict[str, str]:
    """The scene environment of these settings, as variable name -> value.

    Settings left at None (and narration off, no section folders) are not in it, so the
    scene reads their defaults; the voice cache, the voice and the recordings are only
    written for a narrated render (a silent one has no use for them, and its cache key must
    not change with them). Files and folders are written resolved, as a worker's working
    folder may differ.
    """
    values = {LANG.name: lang, THEME.name: theme, CAPTIONS.name: captions, HEAD.name: head,
              NARRATION.name: "1" if narration else None,
              VOICE_CACHE.name: voice_cache if narration else None,
              VOICE.name: (voice or None) if narration else None,
              RECORDINGS.name: Path(recordings).resolve() if narration and recordings is not None else None,
              CAPTIONS_FILE.name: Path(captions_file).resolve() if captions_file is not None else None,
              SECTION_DIRS.name: os.pathsep.join(str(d) for d in section_dirs) or None}
    return {name: str(v) for name, v in values.items() if v is not None}


#: Every variable, by the :class:`Settings` field it fills.
VARIABLES: dict[str, Choice | Flag | Location | Locations | Text] = {
    "lang": LANG, "theme": THEME, "captions": CAPTIONS, "head": HEAD, "narration": NARRATION,
    "voice_cache": VOICE_CACHE, "voice": VOICE, "recordings": RECORDINGS, "captions_file": CAPTIONS_FILE,
    "section_dirs": SECTION_DIRS, "registry": REGISTRY, "render_worker": RENDER_WORKER,
    "voice_dir": VOICE_DIR, "reveal_dir": REVEAL_DIR, "suite_timeline": SUITE_TIMELINE,
}
_SCENE_FIELDS = tuple(f for f, v in VARIABLES.items() if v in SCENE_SETTINGS)


@dataclass(frozen=True)
class Settings:
    """One run's configuration: how its scenes look and sound, and the tooling's switches.

    Immutable: a part of the program that needs other settings builds a new value
    (:meth:`replace`, :meth:`with_scene`) and hands it on, or installs it for a block
    (:func:`using`). Each field is filled by the variable of :data:`VARIABLES` of its name.
    """

    lang: str = LANG.default
    theme: str = THEME.default
    captions: str = CAPTIONS.default
    #: A head or spec TOML; None: ``assets/head.toml``.
    head: Path | None = None
    narration: bool = False
    voice_cache: Path | None = None
    voice: str = VOICE.default
    recordings: Path | None = None
    captions_file: Path | None = None
    section_dirs: tuple[Path, ...] = ()
    registry: str = REGISTRY.default
    render_worker: str = RENDER_WORKER.default
    voice_dir: Path | None = None
    reveal_dir: Path | None = None
    suite_timeline: Path | None = None

    def __post_init__(self) -> None:
        for field, variable in VARIABLES.items():
            if isinstance(variable, Choice):   # a value set in code is held to the same choices
                variable.parse(getattr(self, field))

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """The settings ``environ`` (default: this process's environment) holds.

        Raises
        ------
        ConfigError
            If a variable holds a value it does not allow.
        """
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {f: v.parse(environ.get(v.name, "")) for f, v in VARIABLES.items()}
        return cls(**values)

    def replace(self, **changes: Any) -> Settings:
        """These settings with ``changes`` (field name -> value)."""
        return dataclasses.replace(self, **changes)

    def with_scene(self, env: Mapping[str, str]) -> Settings:
        """The scene settings of ``env`` (:func:`scene_env`'s form; a scene variable it does not
        hold takes its default), the tooling's switches of these."""
        return self.replace(**{f: VARIABLES[f].parse(env.get(VARIABLES[f].name, "")) for f in _SCENE_FIELDS})

    def environment(self) -> dict[str, str]:
        """Every variable that differs from its default, as name -> value: what a process
        started by this one is handed, so that it runs with these settings."""
        out = {}
        for field, variable in VARIABLES.items():
            text = variable.format(getattr(self, field))   # type: ignore[arg-type]
            if text and getattr(self, field) != variable.default:
                out[variable.name] = text
        return out


_current: Settings | None = None


def current() -> Settings:
    """This process's settings: those installed with :func:`use`, else the environment's,
    read once (the edge of a process started by the plain manim CLI or a test)."""
    global _current
    if _current is None:
        _current = Settings.from_environment()
    return _current


def use(settings: Settings | None) -> None:
    """Install ``settings`` as this process's (None: the environment's, read again at the
    next :func:`current`; what a test does between two tests)."""
    global _current
    _current = settings


@contextmanager
def using(settings: Settings) -> Iterator[Settings]:
    """``settings`` installed for the duration of a ``with`` block, then the ones before."""
    global _current
    saved = _current
    _current = settings
    try:
        yield settings
    finally:
        _current = saved


def without_variable(name: str) -> None:
    """Remove another program's variable ``name`` from this process (and the processes it
    starts), e.g. an allocator setting a parent passed down that does not suit a render."""
    os.environ.pop(name, None)
