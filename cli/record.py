"""``record``: the lecturer records their own voice for every cue, in the browser.

The recordings themselves (ids, trimming, loudness) are :mod:`narration.recordings`, the page
and its loopback-only server :mod:`narration.recorder`; this command lists the cues as
``render.py script`` does and serves the page until interrupted.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import click

from pipeline.options import BadInput, Options
from pipeline.run_setup import SHOWN_IDS, Example, check_captions_file, choose_sections, run_options

from .options import captions_file_option, example_options, lang_option, port_option, section_dir_option
from .page import serve_page

__all__ = ["record", "run_recorder"]


def run_recorder(folder: Path, sections: list, opts: Options, port: int, open_browser: bool) -> int:
    """List the cues, serve the recorder page on 127.0.0.1 until interrupted, and say what
    is still missing when it stops."""
    from narration import recordings
    from narration.recorder import RecorderServer
    from pipeline.script import build_script

    if folder.exists() and not folder.is_dir():
        raise BadInput(f"{folder}: not a folder")
    cues, _ = build_script(sections, opts)
    listed = [{"id": c.id, "text": c.text, "section": c.section, "beat": c.beat} for c in cues]
    serve_page(lambda: RecorderServer(folder, listed, opts.lang, port), port,
               f"recording {len(cues)} cues into {folder}; Ctrl-C to stop", open_browser)
    left = recordings.missing(folder, [c.id for c in cues])
    print(f"{len(cues) - len(left)} of {len(cues)} cues recorded in {folder}"
          + (f"; missing: {', '.join(left[:SHOWN_IDS])}" + (" …" if len(left) > SHOWN_IDS else "") if left else ""),
          file=sys.stderr)
    return 0


@click.command(short_help="Record your own voice for every cue, in the browser, into DIR.")
@click.argument("folder", type=click.Path(path_type=Path, file_okay=False), metavar="DIR")
@lang_option("Language of the captions to read.")
@click.option("--sections", "sections_spec", default=None, metavar="LIST",
              help="Numbers, ranges and slugs, as for render (default: all).")
@example_options
@captions_file_option
@section_dir_option
@port_option
@click.option("--no-browser", is_flag=True, help="Only print the page's address.")
def record(folder, lang, sections_spec, example: Example, captions_file, port, no_browser):
    """Open a local page (a server on 127.0.0.1 only) that shows one cue at a time with its
    id and text: record it from the microphone, play it back, re-take, next. Each take is
    saved as DIR/<id>.<ext>; `render.py render --recordings DIR` uses them."""
    _, sections = choose_sections(sections_spec)
    head = example.resolve()
    captions_file = check_captions_file(captions_file, (lang,))
    with tempfile.TemporaryDirectory(prefix="attn-record-head-") as tmp:
        opts = run_options(head, Path(tmp), lang=lang, quality="preview", captions_file=captions_file)
        return run_recorder(folder, sections, opts, port, not no_browser)
