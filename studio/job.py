"""One studio render in its own process: ``python -m studio.job [--warm] -``.

The process reads what to do from stdin (``{"spec": ..., "env": ...}``: the spec, and the
server's ``ATTN_*`` variables as they are now, which replace the ones it started with).
With ``--warm`` it first gets ready while it waits (:func:`warm`: the pipeline imported and
the forkserver importing manim), so that a render handed to it starts its first section at
once: the studio keeps one such process in reserve for its previews.

The spec names what to make (a :class:`Product` of :data:`PRODUCTS`: ``stills``,
``clips``, ``sheets`` (contact sheets with the layout probe's verdict), ``explainer``, ``slides``) and the run's options; the run goes through the
command line's set-up chain (:func:`pipeline.run_setup.set_up_run`) and its
:class:`~pipeline.build.Build`, whose per-section events are written to stdout as JSON lines
(``{"event": "start" | "cached" | "done", "section": stem, ...}``, then ``{"event": "end",
"code": n}``); rich's progress goes to stderr. A render in its own process can be
cancelled as the command line's is (SIGTERM: finished sections stay cached, outputs are
written under temporary names, so the previous ones stay intact).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pipeline.files import DiskFull, is_disk_full
from pipeline.options import BadInput
from pipeline.run_setup import Example, RunSetup, choose_sections, set_up_run
from pipeline.scheduler import Terminated
from words import config

__all__ = ["Product", "PRODUCTS", "BATCH", "WAITING_NICE", "run_spec", "warm", "read_order", "main"]


def _tell(event: str, stem: str, details: dict) -> None:
    print(json.dumps({"event": event, "section": stem, **details}, ensure_ascii=False), flush=True)


def _build(run: RunSetup, kind, jobs: int, after_stitch=None):
    from pipeline.build import Build

    return Build(run.registry, run.sections, run.opts, run.paths, kind=kind, jobs=jobs,
                 after_stitch=after_stitch, observer=_tell)


def _stills(run: RunSetup, jobs: int, console) -> int:
    from pipeline.kinds import STILL

    return _build(run, STILL, jobs).run(console)


def _clips(run: RunSetup, jobs: int, console) -> int:
    from pipeline.kinds import CLIP

    return _build(run, CLIP, jobs).run(console)


def _explainer(run: RunSetup, jobs: int, console) -> int:
    from pipeline.kinds import CLIP
    from slides.transcript import write_transcript

    return _build(run, CLIP, jobs, after_stitch=write_transcript).run(console)


def _slides(run: RunSetup, jobs: int, console) -> int:
    from slides.build import ClipBuild, SlideBuild
    from slides.formats import check_can_write, parse_formats

    formats = parse_formats(None)   # every format, as `slides` writes by default
    check_can_write(formats)
    clips = ClipBuild(run.registry, run.sections, run.opts, run.paths, jobs=jobs, observer=_tell)
    return SlideBuild(clips, formats, sentence=run.sentence()).run(console)


#: A contact sheet's frame size: each beat is shown at half of it, three to a row.
SHEET_SIZE = (854, 480)


def _sheets(run: RunSetup, jobs: int, console) -> int:  # noqa: ARG001 - one section at a time
    """Each section's contact sheet and the layout probe's verdict (the probe renders the
    section in this process, animations skipped)."""
    import hashlib
    import time

    from scenes.contact_sheet import section_sheet

    folder = run.paths.out / "sheets"
    folder.mkdir(parents=True, exist_ok=True)
    code = 0
    for s in run.sections:
        _tell("start", s.stem, {})
        t0 = time.perf_counter()
        dest = folder / f"{s.stem}.png"
        try:
            problems = section_sheet(s, run.opts.lang, run.opts.theme, str(run.opts.head) if run.opts.head else None,
                                     dest, size=SHEET_SIZE)
        except Exception as e:  # noqa: BLE001 - reported on the page, the next section goes on
            _tell("done", s.stem, {"status": "failed", "error": f"{type(e).__name__}: {e}"})
            code = 1
            continue
        _tell("done", s.stem, {"status": "rendered", "problems": problems,
                               "hash": hashlib.sha256(dest.read_bytes()).hexdigest()[:16],
                               "seconds": round(time.perf_counter() - t0, 3)})
    return code


def _batch(spec: dict, console) -> int:
    """One explainer per variant of the batch file, on a local Dask cluster (``render.py
    batch FILE --out OUT/batch``)."""
    from batch.run import run_batch

    return run_batch(Path(spec["batch_file"]), scheduler=None, workers=int(spec.get("jobs", 1)), cache=None,
                     out=Path(spec["out"]) / "batch", quality=spec.get("quality") or "high",
                     sections_spec=spec.get("sections"), force=False, console=console)


@dataclass(frozen=True)
class Product:
    """What a studio job makes: its ``name``, the ``quality`` it renders at unless told,
    the ``folder`` under the studio's output where it goes (``""``: the output itself) and
    the function that runs it."""

    name: str
    quality: str
    folder: str
    make: Callable[[RunSetup, int, object], int]


#: The batch file's product: its variants are runs of their own (``render.py batch``).
BATCH = "batch"

#: What the studio renders. Stills and a section's clip are previews (their own folder, so
#: a preview never replaces the lecturer's outputs); the explainer and the slides are the
#: command line's ``render`` and ``slides`` into the studio's output folder.
PRODUCTS = {p.name: p for p in (
    Product("stills", "preview", "preview", _stills),
    Product("clips", "preview", "preview", _clips),
    Product("sheets", "preview", "preview", _sheets),
    Product("explainer", "high", "", _explainer),
    Product("slides", "medium", "", _slides),
)}


def run_spec(spec: dict, console) -> int:
    """Run the job ``spec`` describes (see the module docstring); its exit code."""
    if spec["product"] == BATCH:  # its variants bring their own sentences: no set-up chain of one run
        return _batch(spec, console)
    product = PRODUCTS[spec["product"]]
    out = Path(spec["out"]) / product.folder if product.folder else Path(spec["out"])
    run = set_up_run(sections_spec=spec.get("sections"),
                     example=Example(sentence=spec.get("sentence"), follow=spec.get("follow")),
                     out_dir=out, lang=spec.get("lang", "ja"), theme=spec.get("theme", "dark"),
                     quality=spec.get("quality") or product.quality,
                     captions_file=Path(spec["captions_file"]) if spec.get("captions_file") else None,
                     voice=spec.get("voice"),
                     recordings=Path(spec["recordings"]) if spec.get("recordings") else None)
    order = spec.get("order")
    if order:  # the page asks for the sections in view first; the build renders in list order
        rank = {int(n): k for k, n in enumerate(order)}
        run = dataclasses.replace(run, sections=sorted(run.sections, key=lambda s: rank.get(s.number, len(rank))))
    return product.make(run, int(spec.get("jobs", 1)), console)


#: The priority a process started in advance gets ready at: its imports take the cores a
#: running preview leaves idle (a niced process gets about a tenth of a busy core), and it
#: takes the normal priority back when given its render, where the system allows.
WAITING_NICE = 10


def warm() -> None:
    """Get ready for a render not yet known: start the workers' forkserver, which imports
    manim and the scenes' kit (about 2 s of the first section's time otherwise), and, while
    it does, import what a run imports and read the imports of every section's code (the
    cache keys' largest cost, about 1 s for 25 sections; kept by content, so a file changed
    since is read again)."""
    import multiprocessing.forkserver

    import pipeline.build  # noqa: F401 - imported now, not when the order comes
    from pipeline.cache import Hasher
    from pipeline.registry import scene_file
    from pipeline.scheduler import worker_context

    worker_context()
    multiprocessing.forkserver.ensure_running()
    registry, sections = choose_sections(None)
    hasher = Hasher(registry)
    for s in sections:
        source = scene_file(s)
        if source is not None:
            hasher.code_closure(source)


def read_order(stream) -> dict | None:
    """The spec sent on ``stream``, after making the sender's settings (its ``ATTN_*`` variables) this
    process's (a process started in advance has those of its start); None if the stream
    closed without one (a spare whose studio stopped)."""
    text = stream.read()
    if not text.strip():
        return None
    order = json.loads(text)
    env = order.get("env")
    if env is not None:
        config.use(config.Settings.from_environment(env))
    return order["spec"]


def main(argv: list[str] | None = None) -> int:
    from rich.console import Console

    args = sys.argv[1:] if argv is None else argv
    if "--warm" in args:
        os.nice(WAITING_NICE)
        warm()
    spec = read_order(sys.stdin)
    if spec is None:
        return 0
    if "--warm" in args:
        with contextlib.suppress(OSError):   # not allowed (not root): the preview runs niced
            os.setpriority(os.PRIO_PGRP, 0, 0)   # this process and its forkserver
    console = Console(stderr=True, highlight=False, soft_wrap=True)
    try:
        code = run_spec(spec, console)
    except BadInput as e:
        print(json.dumps({"event": "error", "message": str(e)}, ensure_ascii=False), flush=True)
        code = 2
    except Exception as e:   # a full disk: the page shows the command line's line
        if not is_disk_full(e):
            raise
        where = getattr(e, "filename", None)
        full = e if isinstance(e, DiskFull) else DiskFull(Path(where).parent if where else Path(spec["out"]))
        print(json.dumps({"event": "error", "message": full.line()}, ensure_ascii=False), flush=True)
        code = 1
    except (KeyboardInterrupt, Terminated):
        code = 130  # cancelled: finished sections are cached, outputs as they were
    except BrokenPipeError:  # the studio went away: stopped as if cancelled, no one to tell
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # what is left goes nowhere
        return 130
    print(json.dumps({"event": "end", "code": code}), flush=True)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
