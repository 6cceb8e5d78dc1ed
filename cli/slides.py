"""``slides``: the deck, in each of :data:`slides.formats.SLIDE_FORMATS`, from the render cache's clips."""

from __future__ import annotations

import click

from pipeline.options import BadInput
from pipeline.run_setup import set_up_run
from slides.formats import SLIDE_FORMATS, check_can_write, parse_formats

from .options import (
    captions_file_option,
    common_options,
    console,
    example_options,
    narration_option,
    recordings_option,
)

__all__ = ["slides", "written", "format_help", "slides_help"]


def written() -> str:
    """What ``slides`` writes, one file per format of the table: ``OUT/slides/: explainer.pptx, ...``."""
    return f"OUT/slides/: {', '.join(f.file for f in SLIDE_FORMATS.values())}"


def format_help() -> str:
    """``--format``'s help: every format of the table, its name and its file."""
    return (f"Any of {', '.join(f'{f.name} ({f.file})' for f in SLIDE_FORMATS.values())}; "
            "default: all of them.")


def slides_help() -> str:
    """The command's help: what each format of the table writes."""
    files = ", ".join(f"{f.file} ({f.about})" if f.about else f.file for f in SLIDE_FORMATS.values())
    return ("Render the clips that are missing (same cache as render), then write OUT/slides/: "
            f"{files}. With --step beats (the default) every caption beat is a stop: the "
            "presenter's next key plays the next beat.")


@click.command(help=slides_help(), short_help=f"Write {written()}.")
@common_options(quality="medium")
@example_options
@click.option("--format", "formats_spec", default=None, metavar="LIST", help=format_help())
@click.option("--step", type=click.Choice(["beats", "sections"]), default="beats", show_default=True,
              help="beats: every caption beat is a stop (next plays the next beat; a PowerPoint "
                   "slide per beat); sections: a slide plays its whole clip.")
@click.option("--allow-missing", is_flag=True,
              help="Write the deck even if some sections failed (they are left out).")
@narration_option
@recordings_option
@captions_file_option
def slides(example, formats_spec, step, allow_missing, narration, voice, recordings, captions_file, sections_spec, lang, theme, captions, quality,
           out_dir, jobs, force):
    # the help is slides_help(): the formats it names are the table's
    from slides.build import ClipBuild, SlideBuild

    formats = parse_formats(formats_spec)
    if captions == "none":
        raise BadInput("slides take their speaker notes from the captions: use --captions burned or srt")
    check_can_write(formats)
    run = set_up_run(sections_spec=sections_spec, example=example, out_dir=out_dir, lang=lang, theme=theme,
                     captions=captions, quality=quality, narration=narration, voice=voice,
                     captions_file=captions_file, recordings=recordings)
    clips = ClipBuild(run.registry, run.sections, run.opts, run.paths, jobs=jobs, force=force,
                      allow_missing=allow_missing)
    return SlideBuild(clips, formats, sentence=run.sentence(), step=step).run(console())
