"""Setting a run up: from what a command was given to the sections and :class:`Options`.

Every command that renders takes the same steps in the same order, so that bad input is
found (:class:`BadInput`: one line, exit 2) before anything renders, and the first of
several mistakes is always the one reported:

1. load the section registry and choose the sections (``--sections``);
2. resolve the example (``--head``/``--spec``/``--sentence``/``--follow``);
3. check the captions file (``--captions-file``);
4. check the narration voice (``--narration``/``--voice``);
5. check that every cue has its recording (``--recordings``), before any folder is made;
6. check the output folder (``--out``);
7. write the example's head where the scenes read it, and fill :class:`Options`.

:func:`set_up_run` is the whole chain; a command that differs (``script`` has no output
folder, ``batch`` one per variant) calls the steps it needs, in this order.
"""

from __future__ import annotations

import hashlib
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from words import config

from .files import Paths, atomic_write, check_out_dir
from .options import BadInput, Options
from .registry import Registry, load_registry, parse_sections

if TYPE_CHECKING:
    from attn_math.head import Head

__all__ = ["Example", "RunSetup", "SHOWN_IDS", "choose_sections", "leave_out_missing", "check_captions_file", "check_narration",
           "is_narrated", "check_recordings", "voice_cache_for", "write_head_file", "run_options", "set_up_run"]

#: How many missing recording ids the error line names (then "and N more").
SHOWN_IDS = 8


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
    chosen = parse_sections(spec, registry.sections, registry.cards)
    return registry, leave_out_missing(chosen, named=spec is not None and spec.strip().lower() != "all")


def leave_out_missing(sections: list, named: bool) -> list:
    """``sections`` without those whose needs are not installed (a section's ``missing``):
    asked for by name, such a section is bad input (one line saying what to install); in a
    full run it is left out, with that line on stderr, and the rest renders."""
    out = []
    for s in sections:
        why = s.missing() if hasattr(s, "missing") else None
        if why is None:
            out.append(s)
        elif named:
            raise BadInput(why)
        else:
            print(f"render.py: {why}; rendering the other sections", file=sys.stderr)
    return out


def check_captions_file(path: Path | None, langs: tuple[str, ...]) -> Path | None:
    """``path`` resolved, after checking every entry against the packaged tables of
    ``langs`` (bad input otherwise); this process's settings then name it."""
    if path is None:
        return None
    from scenes.registry import caption_context_names
    from words import captions, captions_file

    try:
        captions_file.check(path, langs, {lang: captions.packaged(lang) for lang in config.LANGS},
                            caption_context_names())
    except captions_file.CaptionsFileError as e:
        raise BadInput(" ".join(str(e).split())) from None
    resolved = Path(path).resolve()
    config.use(config.current().replace(captions_file=resolved))
    return resolved


def check_narration(lang: str, voice: str | None = None) -> str:
    """The name of the voice that narrates ``lang`` (``voice``, else the default); bad
    input (one line naming the package to install or the voices there are) if it is
    unknown or missing; nothing is ever downloaded. A default that is not the preferred
    voice is said in one line on stderr."""
    from narration.voices import MissingVoice, UnknownVoice, chosen, fallback_note

    try:
        picked = chosen(lang, voice)
    except (MissingVoice, UnknownVoice) as e:
        raise BadInput(str(e)) from None
    note = fallback_note(lang) if voice is None else None
    if note:
        print(note, file=sys.stderr)
    return picked.name


def is_narrated(narration: bool, voice: str | None, recordings: Path | None = None) -> bool:
    """Whether a run is narrated: ``--narration``, or a voice or recordings named (each
    implies it)."""
    return narration or voice is not None or recordings is not None


def check_recordings(folder: Path | None, sections: list, lang: str, head: Head | None,
                     captions_file: Path | None, voice: str | None) -> Path | None:
    """``folder`` resolved, after checking that every cue of ``sections`` (in ``lang``, for
    the custom ``head`` or the default one, with ``captions_file``'s words) has a recording
    there: bad input naming the missing ids, unless ``voice`` speaks them. Nothing is
    written (call it before the output folder is made).

    The cues are listed as ``render.py script`` lists them (the scenes run with frames
    skipped, no audio)."""
    if folder is None:
        return None
    from narration import recordings

    from .script import build_script

    folder = Path(folder)
    if not folder.is_dir():
        raise BadInput(f"--recordings {folder}: no such folder")
    with tempfile.TemporaryDirectory(prefix="attn-recordings-head-") as tmp:
        silent = run_options(head, Path(tmp), lang=lang, quality="preview", captions_file=captions_file)
        cues, _ = build_script(sections, silent)
    missing = recordings.missing(folder, [c.id for c in cues])
    if missing and voice is None:
        more = f" and {len(missing) - SHOWN_IDS} more" if len(missing) > SHOWN_IDS else ""
        raise BadInput(f"--recordings {folder}: no recording for {len(missing)} of {len(cues)} cues: "
                       f"{', '.join(missing[:SHOWN_IDS])}{more} (record them with `render.py record`, "
                       f"or add --voice NAME to speak them)")
    if missing:
        print(f"recordings: {len(missing)} of {len(cues)} cues have no recording in {folder}; "
              f"{voice} speaks them", file=sys.stderr)
    return folder.resolve()


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
                quality: str = "high", narration: bool = False, voice_cache: Path | None = None,
                voice: str | None = None, captions_file: Path | None = None,
                recordings: Path | None = None) -> Options:
    """The options of a run showing ``head`` (None: the default head), whose head file is
    written into ``head_folder``; ``voice_cache`` is kept only for a narrated run."""
    return Options(lang=lang, theme=theme, captions=captions, quality=quality,
                   head=write_head_file(head.to_toml(), head_folder) if head is not None else None,
                   n_tokens=head.n if head is not None else None, narration=narration,
                   voice_cache=voice_cache if narration else None, voice=voice,
                   captions_file=captions_file, recordings=recordings)


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
               narration: bool = False, voice: str | None = None, captions_file: Path | None = None,
               recordings: Path | None = None) -> RunSetup:
    """The whole set-up chain (module docstring), for a run into ``out_dir``. A voice or
    recordings imply narration; with recordings and no voice, no voice is checked (the
    recordings speak every cue)."""
    registry, sections = choose_sections(sections_spec)
    head = example.resolve()
    captions_file = check_captions_file(captions_file, (lang,))
    narration = is_narrated(narration, voice, recordings)
    if narration and (voice is not None or recordings is None):
        voice = check_narration(lang, voice)
    recordings = check_recordings(recordings, sections, lang, head, captions_file, voice)
    paths = check_out_dir(out_dir)
    opts = run_options(head, paths.cache / "heads", lang=lang, theme=theme, captions=captions,
                       quality=quality, narration=narration, voice_cache=voice_cache_for(paths),
                       voice=voice, captions_file=captions_file, recordings=recordings)
    return RunSetup(registry, sections, head, paths, opts)
