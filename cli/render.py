"""``render`` and ``stills``: the sections rendered, as clips joined into the video or as stills."""

from __future__ import annotations

import click

from pipeline.build import Build
from pipeline.kinds import CLIP, STILL, OutputKind
from pipeline.run_setup import Example, set_up_run

from .options import (
    captions_file_option,
    common_options,
    console,
    example_options,
    narration_option,
    recordings_option,
)

__all__ = ["render", "stills"]


def _run(kind: OutputKind, example: Example, *, sections_spec, lang, theme, captions, quality, out_dir,
         jobs, force, allow_missing=False, narration=False, voice=None, recordings=None,
         captions_file=None) -> int:
    run = set_up_run(sections_spec=sections_spec, example=example, out_dir=out_dir, lang=lang, theme=theme,
                     captions=captions, quality=quality, narration=narration, voice=voice,
                     captions_file=captions_file, recordings=recordings)
    from slides.transcript import write_transcript

    # the joined video's transcript: the script to read instead of watching
    build = Build(run.registry, run.sections, run.opts, run.paths, kind=kind, jobs=jobs, force=force,
                  allow_missing=allow_missing, after_stitch=write_transcript)
    return build.run(console())


@click.command(short_help="Render sections, join them into OUT/explainer.mp4, write OUT/clips/.")
@common_options
@example_options
@click.option("--allow-missing", is_flag=True,
              help="Stitch the video even if some sections failed (they are left out).")
@narration_option
@recordings_option
@captions_file_option
def render(example, allow_missing, narration, voice, recordings, captions_file, **choices):
    """Render the sections, join them into OUT/explainer.mp4 with chapters and a merged .srt,
    and write each section as OUT/clips/NN-slug.mp4 (+ .srt)."""
    return _run(CLIP, example, allow_missing=allow_missing, narration=narration, voice=voice,
                recordings=recordings, captions_file=captions_file, **choices)


@click.command()
@common_options
@example_options
@captions_file_option
def stills(example, captions_file, **choices):
    """Write the final frame of each section to OUT/stills/NN-slug.png."""
    return _run(STILL, example, captions_file=captions_file, **choices)
