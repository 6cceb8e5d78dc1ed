"""The options several commands share, and their checks (click).

A bad value is a :class:`click.BadParameter`: one line on stderr, exit 2, before anything
runs.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import click

from pipeline.options import CAPTION_MODES, HIDDEN_QUALITIES, LANGS, QUALITIES, THEMES
from pipeline.run_setup import Example
from words import config

__all__ = ["check_quality", "check_jobs", "example_options", "common_options", "narration_option",
           "recordings_option", "captions_file_option", "section_dir_option", "lang_option", "quality_option", "port_option",
           "console"]


def check_quality(ctx, param, value):  # noqa: ARG001
    """``--quality``: a documented quality, or a hidden one (tests)."""
    if value not in QUALITIES and value not in HIDDEN_QUALITIES:
        raise click.BadParameter(f"unknown quality {value!r} (choose {', '.join(QUALITIES)})")
    return value


def check_jobs(ctx, param, value):  # noqa: ARG001
    """``--jobs``/``--workers``: at least 1; unset, the number of cores."""
    if value is None:
        return os.cpu_count() or 1
    if value < 1:
        raise click.BadParameter("must be at least 1")
    return value


def _use_section_dirs(ctx, param, value):  # noqa: ARG001
    """Name the folders of outside sections in this run's settings (eager: before another
    option reads the registry)."""
    if value:
        config.use(config.current().replace(section_dirs=tuple(Path(v).resolve() for v in value)))
    return value


#: ``--section-dir DIR`` (repeatable): sections from outside the repository (scenes.sections).
section_dir_option = click.option(
    "--section-dir", "section_dirs", multiple=True, expose_value=False, is_eager=True,
    callback=_use_section_dirs, type=click.Path(path_type=Path, exists=True, file_okay=False),
    help="A folder of your own sections (sNN_slug/ folders), added by number; repeatable.")


def quality_option(default: str = "high", help: str | None = None):  # noqa: A002 - click's name
    """``--quality``, with the command's default and help."""
    return click.option("--quality", default=default, show_default=True, callback=check_quality,
                        metavar="[" + "|".join(QUALITIES) + "]", help=help)


def lang_option(help: str | None = None):  # noqa: A002 - click's name
    """``--lang``: the language of captions and titles."""
    return click.option("--lang", type=click.Choice(LANGS), default="ja", show_default=True, help=help)


def example_options(f):
    """``--head``/``--spec``/``--sentence``/``--follow``: which sentence and head the explainer
    shows; the command receives them as one :class:`~pipeline.run_setup.Example`, ``example``."""
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

    @functools.wraps(f)
    def command(*args, head_file, spec_file, sentence, follow, **kwargs):
        return f(*args, example=Example(head_file, spec_file, sentence, follow), **kwargs)

    for o in reversed(opts):
        command = o(command)
    return command


def common_options(f=None, *, quality: str = "high"):
    """The options of every command that renders (``render``, ``stills``, ``slides``);
    ``@common_options(quality=...)`` gives another default quality (slides: medium)."""
    if f is None:
        return lambda g: common_options(g, quality=quality)
    opts = [
        quality_option(quality, "preview 480p15, medium 720p30, high 1080p30, production 1080p60, 4k 2160p60."),
        click.option("--sections", "sections_spec", default=None, metavar="LIST",
                     help="Numbers, ranges and slugs, e.g. 1-4,9,attention-map (default: all, with the "
                          "opening and closing cards; name them in a subset: opening, closing "
                          "or cards)."),
        lang_option("Language of captions and titles."),
        click.option("--theme", type=click.Choice(THEMES), default="dark", show_default=True),
        click.option("--captions", type=click.Choice(CAPTION_MODES), default="burned", show_default=True,
                     help="burned: drawn on the frame and written to .srt; srt: .srt only; none."),
        click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default=Path("out"),
                     show_default=True, help="Output directory."),
        click.option("--jobs", "-j", type=int, default=None, callback=check_jobs,
                     help="Sections rendered in parallel worker processes [default: cores]."),
        click.option("--force", is_flag=True, help="Ignore the cache: render every section again."),
        section_dir_option,
    ]
    for o in reversed(opts):
        f = o(f)
    return f


def narration_option(f):
    """``--narration`` and ``--voice NAME``: an offline voice reads every beat (``render``,
    ``slides``, ``script``, ``batch``); a voice implies narration."""
    f = click.option("--voice", default=None, metavar="NAME",
                     help="The narration voice (implies --narration; `render.py voices` lists "
                          "them) [default: the language's default voice].")(f)
    return click.option("--narration", is_flag=True,
                        help="An offline voice reads every caption beat in --lang; the "
                             "animation waits for it (AAC 48 kHz audio in clips and video).")(f)


def recordings_option(f):
    """``--recordings DIR`` (``render``, ``slides``): the lecturer's own voice, one file per
    cue id (:mod:`narration.recordings`)."""
    return click.option("--recordings", "recordings", default=None, metavar="DIR",
                        type=click.Path(path_type=Path, file_okay=False),
                        help="Your own voice: each cue's audio from DIR/<id>.<ext> (wav, flac, ogg, "
                             "mp3, m4a, webm; ids from `render.py script --json`, recorded with "
                             "`render.py record`). Cues without a file: exit 2, or spoken by --voice.")(f)


def captions_file_option(f):
    """``--captions-file FILE``: the lecturer's words replacing caption entries
    (:mod:`words.captions_file`); checked by :func:`pipeline.run_setup.check_captions_file`."""
    return click.option("--captions-file", "captions_file", default=None, metavar="FILE",
                        type=click.Path(path_type=Path, dir_okay=False),
                        help="A TOML file of your own words: the [sNN] tables and keys of "
                             "the caption tables (titles and ui_* words too), for "
                             "--lang or in [ja]/[en] tables.")(f)


#: ``--port``: the loopback port of a local page (the recorder, the studio).
port_option = click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
                           help="Port on 127.0.0.1 (0: any free one).")


def console():
    """Where progress and summaries go: stderr, so stdout stays the command's output."""
    from rich.console import Console

    return Console(stderr=True, highlight=False, soft_wrap=True)
