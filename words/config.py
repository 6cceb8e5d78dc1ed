"""The configuration read from the environment: every ``ATTN_*`` variable, named once.

The one module of the product that reads or writes ``os.environ`` (a test holds every other
module to it): a setting is read through its object below, written by the edges that start
work (the command line, the studio, a batch task, a worker) through the functions at the end.

Scenes read their configuration from the environment, so that the plain manim CLI renders any
scene unchanged (``ATTN_LANG=en manim -ql scenes/sections/s03_which_key/scene.py WhichKey``); the pipeline
writes the same variables for its workers. Both go through this module: each variable is one
small object below (its name, its allowed values, its default), and nothing else in the
project spells an ``ATTN_*`` name.

A value outside the allowed set is an error, never silently the default: a typo such as
``ATTN_LANG=english`` would otherwise render a whole Japanese video without a word of warning.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "LANGS", "THEMES", "CAPTION_MODES", "ConfigError", "Choice", "Flag", "Location", "Locations",
    "Text", "LANG", "THEME", "CAPTIONS", "HEAD", "NARRATION", "VOICE_CACHE", "VOICE", "RECORDINGS",
    "CAPTIONS_FILE", "SECTION_DIRS",
    "SCENE_SETTINGS",
    "REGISTRY", "RENDER_WORKER", "VOICE_DIR", "REVEAL_DIR",
    "scene_env", "apply_scene_env", "scene_environment", "tool_environment", "replace_tool_environment",
    "without_variable", "scene_settings",
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


def _raw(name: str) -> str:
    return os.environ.get(name, "")


@dataclass(frozen=True)
class Choice:
    """A variable that takes one of a few values; unset or empty means ``default``."""

    name: str
    allowed: tuple[str, ...]
    default: str

    def read(self) -> str:
        """The value (``default`` when unset or empty); :class:`ConfigError` if not allowed."""
        value = _raw(self.name) or self.default
        if value not in self.allowed:
            raise ConfigError(f"{self.name}={value!r} is not one of {', '.join(self.allowed)}")
        return value



@dataclass(frozen=True)
class Flag:
    """A variable that is on unless unset, empty or ``0``."""

    name: str

    def read(self) -> bool:
        return _raw(self.name) not in ("", "0")



@dataclass(frozen=True)
class Location:
    """A variable naming a file or folder; unset or empty means None."""

    name: str

    def read(self) -> Path | None:
        value = _raw(self.name)
        return Path(value) if value else None

    def write(self, path: str | Path | None) -> None:
        """Name ``path`` (None: nothing) for this process and the workers it starts."""
        if path is None:
            os.environ.pop(self.name, None)
        else:
            os.environ[self.name] = str(path)



@dataclass(frozen=True)
class Locations:
    """A variable naming folders, ``os.pathsep``-separated; unset or empty means none."""

    name: str

    def read(self) -> tuple[Path, ...]:
        return tuple(Path(p).expanduser().resolve() for p in _raw(self.name).split(os.pathsep) if p.strip())

    def write(self, folders) -> None:
        """Name ``folders`` for this process and the workers it starts."""
        os.environ[self.name] = os.pathsep.join(str(Path(f).resolve()) for f in folders)


@dataclass(frozen=True)
class Text:
    """A variable holding free text; unset or empty means ``default``."""

    name: str
    default: str

    def read(self) -> str:
        return _raw(self.name) or self.default



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


def apply_scene_env(env: Mapping[str, str]) -> None:
    """Make ``env`` this process's scene configuration: every scene variable not in it is removed."""
    for setting in SCENE_SETTINGS:
        os.environ.pop(setting.name, None)
    os.environ.update(env)


@contextmanager
def scene_environment(env: Mapping[str, str]) -> Iterator[None]:
    """:func:`apply_scene_env` for the duration of a ``with`` block, then the scene variables
    as they were."""
    saved = {s.name: os.environ.get(s.name) for s in SCENE_SETTINGS}
    apply_scene_env(env)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@contextmanager
def scene_settings(env: Mapping[str, str], *, clear: tuple[str, ...] = ()) -> Iterator[None]:
    """The variables of ``env`` set (and those named in ``clear`` removed) for the duration of
    a ``with`` block, every other variable as it is; then all of them as they were."""
    names = [*env, *clear]
    saved = {name: os.environ.get(name) for name in names}
    for name in clear:
        os.environ.pop(name, None)
    os.environ.update(env)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def tool_environment() -> dict[str, str]:
    """Every ``ATTN_*`` variable of this process, as name -> value (what a process started in
    advance is handed, so that it renders as this one would)."""
    return {k: v for k, v in os.environ.items() if k.startswith(PREFIX)}


def replace_tool_environment(env: Mapping[str, str]) -> None:
    """Make ``env`` this process's ``ATTN_*`` variables: every other one is removed."""
    for name in [k for k in os.environ if k.startswith(PREFIX)]:
        os.environ.pop(name)
    os.environ.update(env)


def without_variable(name: str) -> None:
    """Remove another program's variable ``name`` from this process (and the processes it
    starts), e.g. an allocator setting a parent passed down that does not suit a render."""
    os.environ.pop(name, None)
