"""The ``render.py`` command group, its default command and its exit codes."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import click

from pipeline.files import DiskFull, is_disk_full
from pipeline.options import BadInput
from pipeline.scheduler import Terminated
from words.captions_file import CaptionsFileError

from .batch import batch
from .heads import heads
from .info import doctor, figures, list_sections, list_voices, script
from .record import record
from .render import render, stills
from .slides import slides, written
from .studio import studio

__all__ = ["COMMANDS", "cli", "main"]

#: The subcommands; ``render`` is also the default.
COMMANDS: tuple[click.Command, ...] = (render, stills, slides, list_sections, figures, heads, list_voices,
                                       batch, script, record, studio, doctor)


class _DefaultGroup(click.Group):
    """``render`` is the default subcommand: ``render.py --quality preview`` renders; a
    library's :class:`BadInput` is a usage error (one line, exit 2)."""

    def parse_args(self, ctx, args):
        if not args or (args[0].startswith("-") and args[0] not in ("--help", "-h", "--version")):
            args = ["render", *args]
        return super().parse_args(ctx, args)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except BadInput as e:
            raise click.UsageError(str(e)) from None


#: ``render.py --help``: the commands and what each writes (``slides``: a file per format of
#: :data:`slides.formats.SLIDE_FORMATS`).
HELP = f"""Render the animated self-attention explainer (one Manim scene per section).

\b
  render.py [render] [OPTIONS]   OUT/explainer.mp4 (chapters) + .srt, OUT/clips/
  render.py stills [OPTIONS]     OUT/stills/NN-slug.png, each section's last frame
  render.py slides [OPTIONS]     {written()}
  render.py list [--json]        the sections, in order
  render.py figures [--json]     the head and every figure it implies
  render.py heads [--json]       a real trained head (all-MiniLM-L6-v2) on your sentence
  render.py voices [--json]      the narration voices: licence, installed, default
  render.py record DIR           record your own voice for every cue, in the browser
  render.py studio               a local page: sentence, sections, words, voice, render
  render.py doctor               what each command needs, and what is missing

--sentence/--follow/--spec/--head (render, stills, figures) use your own example.
With no subcommand, runs `render`. Sections are cached by a hash of what they
depend on; a run with nothing changed only checks hashes. Exit codes: 0 ok,
1 a section failed, 2 bad input, 130 interrupted.
"""


@click.group(cls=_DefaultGroup, commands=COMMANDS, help=HELP,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="attn-explainer", prog_name="attn-explainer")
def cli():
    """The command group (its help is :data:`HELP`)."""


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point (``attn-explainer``)."""
    try:
        rv = cli.main(args=list(argv) if argv is not None else None, prog_name="render.py",
                      standalone_mode=False)
    except DiskFull as e:   # the folder and the space needed; what was there before is kept
        print(f"render.py: error: {e.line()}", file=sys.stderr)
        sys.exit(1)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.ClickException as e:
        msg = " ".join(e.format_message().split())
        print(f"render.py: error: {msg}", file=sys.stderr)
        sys.exit(2)
    except (FileNotFoundError, ImportError, CaptionsFileError) as e:  # a missing file (ATTN_CAPTIONS_FILE's
        # too, read where the run first needs its words) or a broken install: no traceback
        msg = " ".join(str(e).split())
        if isinstance(e, ImportError):
            msg += " (reinstall attn-explainer, or run attn-explainer doctor)"
        print(f"render.py: error: {msg}", file=sys.stderr)
        sys.exit(2)
    except ValueError as e:   # a NUL in a path or a text (the OS refuses it before any check can)
        if "null byte" not in str(e) and "null character" not in str(e):
            raise
        print("render.py: error: an option's value holds a NUL character (\\x00), which no file name "
              "or text may hold", file=sys.stderr)
        sys.exit(2)
    except (KeyboardInterrupt, click.exceptions.Abort, Terminated):
        print("render.py: interrupted; finished sections are cached, run again to resume",
              file=sys.stderr)
        sys.exit(130)
    except Exception as e:
        if not is_disk_full(e):   # a write no step named a folder for: the file's own folder
            raise
        where = getattr(e, "filename", None)
        full = DiskFull(Path(where).parent if where else Path.cwd())
        print(f"render.py: error: {full.line()}", file=sys.stderr)
        sys.exit(1)
    sys.exit(rv if isinstance(rv, int) else 0)
