"""``--recordings DIR``: the option, and the check that every cue has its recording.

The recordings themselves (ids, trimming, loudness) are :mod:`narration.recordings`. Before
anything renders, the cues of the run are listed as ``render.py script`` lists them (the
scenes run with frames skipped, no audio), and a cue without a file in ``DIR`` is bad input
(one line naming the ids) unless a voice was named with ``--voice``, which then speaks those.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .options import BadInput, Options

__all__ = ["recordings_option", "check_recordings", "SHOWN_IDS"]

#: How many missing ids the error line names (then "and N more").
SHOWN_IDS = 8


def recordings_option(f):
    """``--recordings DIR`` for ``render`` and ``slides``."""
    return click.option("--recordings", "recordings", default=None, metavar="DIR",
                        type=click.Path(path_type=Path, file_okay=False),
                        help="Your own voice: each cue's audio from DIR/<id>.<ext> (wav, flac, ogg, "
                             "mp3, m4a, webm; ids from `render.py script --json`, recorded with "
                             "`render.py record`). Cues without a file: exit 2, or spoken by --voice.")(f)


def check_recordings(folder: Path | None, sections: list, lang: str, head, captions_file: Path | None,
                     voice: str | None) -> Path | None:
    """``folder`` resolved, after checking that every cue of ``sections`` (in ``lang``, for
    the custom ``head`` or the default one, with ``captions_file``'s words) has a recording
    there: bad input naming the missing ids, unless ``voice`` speaks them. Nothing is
    written (call it before the output folder is made)."""
    if folder is None:
        return None
    import tempfile

    from narration import recordings

    from .script import build_script

    folder = Path(folder)
    if not folder.is_dir():
        raise BadInput(f"--recordings {folder}: no such folder")
    with tempfile.TemporaryDirectory(prefix="attn-recordings-head-") as tmp:
        head_path = None
        if head is not None:
            head_path = Path(tmp) / "head.toml"
            head_path.write_text(head.to_toml(), encoding="utf-8")
        silent = Options(lang=lang, quality="preview", head=head_path, n_tokens=head.n if head else None,
                         captions_file=captions_file)
        cues, _ = build_script(sections, silent, str(head_path) if head_path else None)
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


def run_recorder(folder: Path, sections: list, opts: Options, port: int, open_browser: bool) -> int:
    """``render.py record``: list the cues, serve the recorder page on 127.0.0.1 until
    interrupted, and say what is still missing when it stops."""
    import webbrowser

    from narration import recordings
    from narration.recorder import RecorderServer

    from .script import build_script

    if folder.exists() and not folder.is_dir():
        raise BadInput(f"{folder}: not a folder")
    cues, _ = build_script(sections, opts, str(opts.head) if opts.head else None)
    try:
        server = RecorderServer(folder, [{"id": c.id, "text": c.text, "section": c.section, "beat": c.beat}
                                         for c in cues], opts.lang, port)
    except OSError as e:
        raise BadInput(f"--port {port}: {e.strerror or e}") from None
    # the address first, alone on its line: scripts (and the tests) read it
    print(server.url, flush=True)
    print(f"recording {len(cues)} cues into {folder}; Ctrl-C to stop", file=sys.stderr, flush=True)
    if open_browser:
        webbrowser.open(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    left = recordings.missing(folder, [c.id for c in cues])
    print(f"{len(cues) - len(left)} of {len(cues)} cues recorded in {folder}"
          + (f"; missing: {', '.join(left[:SHOWN_IDS])}" + (" …" if len(left) > SHOWN_IDS else "") if left else ""),
          file=sys.stderr)
    return 0
