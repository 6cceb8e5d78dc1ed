"""``batch``: one explainer per variant of a CSV or TOML file, rendered on Dask."""

from __future__ import annotations

from pathlib import Path

import click

from .options import check_jobs, console, narration_option, quality_option

__all__ = ["batch"]


@click.command(short_help="Render every variant of a CSV/TOML file on Dask into OUT/<name>/.")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="An existing Dask scheduler, e.g. tcp://host:8786 [default: a local cluster].")
@click.option("--workers", type=int, default=None, callback=check_jobs,
              help="Worker processes of the local cluster [default: cores].")
@click.option("--cache", default=None, metavar="URL",
              help="Clip store: a folder or fsspec URL, e.g. s3://bucket/prefix [default: OUT/.cache/store].")
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default=Path("out/batch"),
              show_default=True, help="Output directory: one folder per variant.")
@quality_option(help="As for render.")
@click.option("--sections", "sections_spec", default=None, metavar="LIST", help="As for render (default: all).")
@click.option("--force", is_flag=True, help="Render every clip again, even if the store has it.")
@narration_option
def batch(file, scheduler, workers, cache, out_dir, quality, sections_spec, force, narration, voice):
    """Render one explainer per variant of FILE (CSV: name, sentence, follow, lang, theme[, captions,
    spec]; or TOML: [defaults] and [[variant]] tables) into OUT/<name>/, as render would.
    Exit codes: 0 all written, 1 some variant failed (the rest are written), 2 bad input."""
    from batch.run import run_batch  # Dask is imported only by the command that uses it

    return run_batch(file, scheduler=scheduler, workers=workers, cache=cache, out=out_dir, quality=quality,
                     sections_spec=sections_spec, force=force, narration=narration or voice is not None,
                     voice=voice, console=console())
