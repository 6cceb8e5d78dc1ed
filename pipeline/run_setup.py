"""Setting a run up: from what a command was given to the sections and :class:`Options`.

Every command that renders takes the same steps in the same order, so that bad input is
found (:class:`BadInput`: one line, exit 2) before anything renders, and the first of
several mistakes is always the one reported:

1. load the section registry and choose the sections (``--sections``);
2. resolve the example (``--head``/``--spec``/``--sentence``/``--follow``);
3. check the narration voice (``--narration``);
4. check the output folder (``--out``);
5. write the example's head where the scenes read it, and fill :class:`Options`.

:func:`set_up_run` is the whole chain; a command that differs (``script`` has no output
folder, ``batch`` one per variant) calls the steps it needs, in this order.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .files import Paths, atomic_write, check_out_dir
from .options import BadInput, Options
from .registry import Registry, load_registry, parse_sections

if TYPE_CHECKING:
    from attn_math.head import Head

__all__ = ["Example", "RunSetup", "choose_sections", "check_narration", "voice_cache_for",
           "write_head_file", "run_options", "set_up_run"]


@dataclass(frozen=True)
class Example:
    """The sentence and head a run shows: a head file, a spec file, or a sentence (and the
    token to follow); all None for the default head."""

    head_file: Path | None = None
    spec_file: Path | None = None
    sentence: str | None = None
    follow: str | None = None

    def resolve(self) -> Head | None:
        """The :class:`~attn_math.head.Head` these describe, or None for the default head
        (:class:`BadInput` for a bad sentence or file)."""
        from attn_math.head import HeadError, resolve_head

        fields = (self.head_file, self.spec_file, self.sentence, self.follow)
        if all(v is None for v in fields):
            return None
        try:
            return resolve_head(*fields)
        except HeadError as e:
            raise BadInput(str(e)) from None


def choose_sections(spec: str | None) -> tuple[Registry, list]:
    """The registry and the sections ``spec`` names (``--sections``; cards with a full run)."""
    registry = load_registry()
    return registry, parse_sections(spec, registry.sections, registry.cards)


def check_narration(lang: str) -> None:
    """Bad input (one line naming the package to install) if ``lang``'s voice is missing;
    nothing is ever downloaded."""
    from narration.voices import MissingVoice, voice

    try:
        voice(lang)
    except MissingVoice as e:
        raise BadInput(str(e)) from None


def voice_cache_for(paths: Paths) -> Path:  # noqa: ARG001 - one output folder's run
    """Where narrated lines are cached: ``ATTN_VOICE_CACHE``, else the user's cache folder
    (a spoken line outlives one output folder; lines are written atomically, so runs share it)."""
    from narration.synth import default_cache

    return default_cache()


def write_head_file(text: str, folder: Path) -> Path:
    """A head's TOML ``text`` in ``folder``, named by its content (the scenes read it)."""
    dest = folder / (hashlib.sha256(text.encode()).hexdigest()[:16] + ".toml")
    if not dest.exists():
        dest.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(dest, text)
    return dest


def run_options(head: Head | None, head_folder: Path, *, lang: str, theme: str = "dark", captions: str = "burned",
                quality: str = "high", narration: bool = False, voice_cache: Path | None = None) -> Options:
    """The options of a run showing ``head`` (None: the default head), whose head file is
    written into ``head_folder``; ``voice_cache`` is kept only for a narrated run."""
    return Options(lang=lang, theme=theme, captions=captions, quality=quality,
                   head=write_head_file(head.to_toml(), head_folder) if head is not None else None,
                   n_tokens=head.n if head is not None else None, narration=narration,
                   voice_cache=voice_cache if narration else None)


@dataclass(frozen=True)
class RunSetup:
    """A checked run: its registry and sections, the example's head (None: the default
    head), its output folder and its options."""

    registry: Registry
    sections: list
    head: Head | None
    paths: Paths
    opts: Options

    def sentence(self) -> str:
        """The sentence the run shows (the default head's when no example was given)."""
        from attn_math import default_head

        return " ".join((self.head or default_head()).tokens)


def set_up_run(*, sections_spec: str | None, example: Example, out_dir: Path, lang: str,
               theme: str = "dark", captions: str = "burned", quality: str = "high",
               narration: bool = False) -> RunSetup:
    """The whole set-up chain (module docstring), for a run into ``out_dir``."""
    registry, sections = choose_sections(sections_spec)
    head = example.resolve()
    if narration:
        check_narration(lang)
    paths = check_out_dir(out_dir)
    opts = run_options(head, paths.cache / "heads", lang=lang, theme=theme, captions=captions,
                       quality=quality, narration=narration, voice_cache=voice_cache_for(paths))
    return RunSetup(registry, sections, head, paths, opts)
