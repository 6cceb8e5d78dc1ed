"""``studio``: the local page where a lecturer makes an explainer without the command line.

The server and its API are :mod:`studio.server`; this command checks the options, starts it
on 127.0.0.1, opens the page and serves until Ctrl-C, then cancels any render it started.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pipeline.files import check_out_dir

from .options import check_jobs, lang_option, port_option
from .page import serve_page

__all__ = ["studio"]


@click.command(short_help="A local page: type a sentence, see every section, fix the words, record, render.")
@lang_option("The page's first language (captions and labels).")
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default=Path("out"),
              show_default=True, help="Where the studio writes (outputs, captions.toml, recordings/).")
@port_option
@click.option("--jobs", "-j", type=int, default=None, callback=check_jobs,
              help="Sections rendered in parallel by each render (default: the number of cores).")
@click.option("--no-browser", is_flag=True, help="Only print the page's address.")
def studio(lang, out_dir, port, jobs, no_browser):
    """Start the studio on 127.0.0.1 (nothing leaves the machine) and open it in the browser;
    Ctrl-C stops it and any render it started."""
    from studio.server import StudioServer

    paths = check_out_dir(out_dir)
    serve_page(lambda: StudioServer(paths.out, lang=lang, port=port, jobs=jobs), port,
               f"studio writing into {paths.out}; Ctrl-C to stop", not no_browser)
    print("studio stopped", file=sys.stderr)
    return 0
