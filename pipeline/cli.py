"""The command line: ``render``, ``stills``, ``list``, ``figures`` (click).

Each command parses and checks its input first (bad input: one line on stderr, exit 2,
nothing rendered), then hands the work to the pipeline's modules.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Sequence

import click

from .build import Build
from .files import Paths, atomic_write, check_out_dir
from .options import CAPTION_MODES, HIDDEN_QUALITIES, LANGS, QUALITIES, THEMES, BadInput, Options
from .registry import load_registry, parse_sections, scene_file
from .scheduler import Terminated



class _DefaultGroup(click.Group):
    """``render`` is the default subcommand: ``render.py --quality preview`` renders."""

    def parse_args(self, ctx, args):
        if not args or (args[0].startswith("-") and args[0] not in ("--help", "-h", "--version")):
            args = ["render", *args]
        return super().parse_args(ctx, args)


def _quality(ctx, param, value):  # noqa: ARG001
    if value not in QUALITIES and value not in HIDDEN_QUALITIES:
        raise click.BadParameter(f"unknown quality {value!r} (choose {', '.join(QUALITIES)})")
    return value


def _jobs(ctx, param, value):  # noqa: ARG001
    if value is None:
        return os.cpu_count() or 1
    if value < 1:
        raise click.BadParameter("must be at least 1")
    return value


def _use_section_dirs(ctx, param, value):  # noqa: ARG001
    """Name the folders of outside sections for this process and its workers (before the
    registry is read)."""
    if value:
        os.environ["ATTN_SECTION_DIRS"] = os.pathsep.join(str(p.resolve()) for p in value)
    return value


#: --section-dir DIR (repeatable): sections from outside the repository (scenes.sections).
_section_dir_option = click.option(
    "--section-dir", "section_dirs", multiple=True, expose_value=False, is_eager=True,
    callback=_use_section_dirs, type=click.Path(path_type=Path, exists=True, file_okay=False),
    help="A folder of your own sections (sNN_slug/ folders), added by number; repeatable.")


def _head_options(f):
    """--head/--spec/--sentence/--follow: which sentence and head the explainer shows."""
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
    for o in reversed(opts):
        f = o(f)
    return f


def resolve_head(head_file, spec_file, sentence, follow):
    """The head these options describe, or None for the default head (bad input: exit 2)."""
    from attn_math.head import HeadError
    from attn_math.head import resolve_head as _resolve

    if not any(v is not None for v in (head_file, spec_file, sentence, follow)):
        return None
    try:
        return _resolve(head_file, spec_file, sentence, follow)
    except HeadError as e:
        raise BadInput(str(e)) from None


def head_file_for(head, paths: Paths) -> Path:
    """A canonical TOML of ``head`` under the cache, named by its content (scenes read it)."""
    text = head.to_toml()
    dest = paths.cache / "heads" / (hashlib.sha256(text.encode()).hexdigest()[:16] + ".toml")
    if not dest.exists():
        dest.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(dest, text)
    return dest


def _common_options(f=None, *, quality: str = "high"):
    if f is None:  # @_common_options(quality=...): another default quality (slides: medium)
        return lambda g: _common_options(g, quality=quality)
    opts = [
        click.option("--quality", default=quality, show_default=True, callback=_quality,
                     metavar="[" + "|".join(QUALITIES) + "]",
                     help="preview 480p15, medium 720p30, high 1080p30, production 1080p60, 4k 2160p60."),
        click.option("--sections", "sections_spec", default=None, metavar="LIST",
                     help="Numbers, ranges and slugs, e.g. 1-4,9,attention-map (default: all, with the "
                          "opening and closing cards; name them in a subset: opening, closing "
                          "or cards)."),
        click.option("--lang", type=click.Choice(LANGS), default="ja", show_default=True,
                     help="Language of captions and titles."),
        click.option("--theme", type=click.Choice(THEMES), default="dark", show_default=True),
        click.option("--captions", type=click.Choice(CAPTION_MODES), default="burned", show_default=True,
                     help="burned: drawn on the frame and written to .srt; srt: .srt only; none."),
        click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default=Path("out"),
                     show_default=True, help="Output directory."),
        click.option("--jobs", "-j", type=int, default=None, callback=_jobs,
                     help="Sections rendered in parallel worker processes [default: cores]."),
        click.option("--force", is_flag=True, help="Ignore the cache: render every section again."),
        _section_dir_option,
    ]
    for o in reversed(opts):
        f = o(f)
    return f


@click.group(cls=_DefaultGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="attn-explainer", prog_name="attn-explainer")
def cli():
    """Render the animated self-attention explainer (one Manim scene per section).

    \b
      render.py [render] [OPTIONS]   OUT/explainer.mp4 (chapters) + .srt, OUT/clips/
      render.py stills [OPTIONS]     OUT/stills/NN-slug.png, each section's last frame
      render.py slides [OPTIONS]     OUT/slides/: explainer.pptx, index.html, handout.pdf
      render.py list [--json]        the sections, in order
      render.py figures [--json]     the head and every figure it implies
      render.py doctor               what each command needs, and what is missing

    --sentence/--follow/--spec/--head (render, stills, figures) use your own example.
    With no subcommand, runs `render`. Sections are cached by a hash of what they
    depend on; a run with nothing changed only checks hashes. Exit codes: 0 ok,
    1 a section failed, 2 bad input, 130 interrupted.
    """


def _console():
    from rich.console import Console

    return Console(stderr=True, highlight=False, soft_wrap=True)


def narration_option(f):
    """``--narration``: an offline voice reads every beat (issue 14); for ``render`` and
    ``slides``. Pair it with :func:`check_narration` before anything renders."""
    return click.option("--narration", is_flag=True,
                        help="An offline voice reads every caption beat in --lang; the "
                             "animation waits for it (AAC 48 kHz audio in clips and video).")(f)


def check_narration(lang: str) -> None:
    """Bad input (exit 2, one line naming the package to install) if ``lang``'s voice is
    missing; nothing is ever downloaded."""
    from narration.voices import MissingVoice, voice

    try:
        voice(lang)
    except MissingVoice as e:
        raise BadInput(str(e)) from None


def voice_cache_for(paths: Paths) -> Path:  # noqa: ARG001 - kept for callers
    """Where narrated lines are cached: ``ATTN_VOICE_CACHE``, else the user's cache folder
    (a spoken line outlives one output folder; lines are written atomically, so runs share it)."""
    from narration.synth import default_cache

    return default_cache()


def _start(kind: str, quality, sections_spec, lang, theme, captions, out_dir, jobs, force,
           allow_missing=False, head_args=(None, None, None, None), narration=False) -> int:
    registry = load_registry()
    sections = parse_sections(sections_spec, registry.sections, registry.cards)
    custom = resolve_head(*head_args)
    if narration:
        check_narration(lang)
    paths = check_out_dir(out_dir)
    head = head_file_for(custom, paths) if custom is not None else None
    n_tokens = custom.n if custom is not None else None
    opts = Options(lang=lang, theme=theme, captions=captions, quality=quality, head=head,
                   n_tokens=n_tokens, narration=narration,
                   voice_cache=voice_cache_for(paths) if narration else None)
    build = Build(registry, sections, opts, paths, kind=kind, jobs=jobs, force=force,
                  allow_missing=allow_missing)
    return build.run(_console())


@cli.command(short_help="Render sections, join them into OUT/explainer.mp4, write OUT/clips/.")
@_common_options
@_head_options
@click.option("--allow-missing", is_flag=True,
              help="Stitch the video even if some sections failed (they are left out).")
@narration_option
def render(quality, sections_spec, lang, theme, captions, out_dir, jobs, force, head_file, spec_file,
           sentence, follow, allow_missing, narration):
    """Render the sections, join them into OUT/explainer.mp4 with chapters and a merged .srt,
    and write each section as OUT/clips/NN-slug.mp4 (+ .srt)."""
    return _start("clip", quality, sections_spec, lang, theme, captions, out_dir, jobs, force, allow_missing,
                  (head_file, spec_file, sentence, follow), narration=narration)


@cli.command()
@_common_options
@_head_options
def stills(quality, sections_spec, lang, theme, captions, out_dir, jobs, force, head_file, spec_file,
           sentence, follow):
    """Write the final frame of each section to OUT/stills/NN-slug.png."""
    return _start("still", quality, sections_spec, lang, theme, captions, out_dir, jobs, force,
                  head_args=(head_file, spec_file, sentence, follow))


@cli.command(short_help="Write OUT/slides/: a PowerPoint deck, a reveal.js deck, a PDF handout.")
@_common_options(quality="medium")
@_head_options
@click.option("--format", "formats_spec", default="pptx,html,pdf", show_default=True, metavar="LIST",
              help="Any of pptx (explainer.pptx), html (index.html + reveal.js), pdf (handout.pdf).")
@click.option("--allow-missing", is_flag=True,
              help="Write the deck even if some sections failed (they are left out).")
@narration_option
def slides(quality, sections_spec, lang, theme, captions, out_dir, jobs, force, head_file, spec_file,
           sentence, follow, formats_spec, allow_missing, narration):
    """Render the clips that are missing (same cache as render), then write OUT/slides/:
    explainer.pptx (clips embedded, autoplay, notes), index.html (reveal.js, offline) and
    handout.pdf (one page per section)."""
    from slides.build import ClipBuild, SlideBuild, check_can_write, parse_formats

    formats = parse_formats(formats_spec)
    if captions == "none":
        raise BadInput("slides take their speaker notes from the captions: use --captions burned or srt")
    check_can_write(formats)
    registry = load_registry()
    sections = parse_sections(sections_spec, registry.sections, registry.cards)
    custom = resolve_head(head_file, spec_file, sentence, follow)
    if narration:
        check_narration(lang)
    paths = check_out_dir(out_dir)
    head = head_file_for(custom, paths) if custom is not None else None
    opts = Options(lang=lang, theme=theme, captions=captions, quality=quality, head=head,
                   n_tokens=custom.n if custom is not None else None, narration=narration,
                   voice_cache=voice_cache_for(paths) if narration else None)
    if custom is None:
        from attn_math import default_head

        custom = default_head()
    clips = ClipBuild(registry, sections, opts, paths, kind="clip", jobs=jobs, force=force,
                      allow_missing=allow_missing)
    return SlideBuild(clips, formats, sentence=" ".join(custom.tokens)).run(_console())


@cli.command("list")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--lang", type=click.Choice(LANGS), default="ja", show_default=True)
@_section_dir_option
def list_sections(as_json, lang):
    """List the sections in order (a '-' marks a registry entry whose scene module is missing)."""
    registry = load_registry()
    rows = []
    for s in registry.sections:
        src = scene_file(s)
        rows.append({**dataclasses.asdict(s), "stem": s.stem, "file": s.file,
                     "implemented": src is not None})
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    for r in rows:
        mark = " " if r["implemented"] else "-"
        title = r["title_ja"] if lang == "ja" else r["title_en"]
        click.echo(f"{r['number']:>2} {mark} {r['slug']:<24} {title}")
    missing = sum(not r["implemented"] for r in rows)
    if missing:
        click.echo(f"({missing} marked '-' have no scene module)")
    return 0






@cli.command()
@click.option("--json", "as_json", is_flag=True, help="One JSON object (see the README).")
@_head_options
@_section_dir_option
def figures(as_json, head_file, spec_file, sentence, follow):
    """Print the head and every figure it implies, section by section."""
    from attn_math import default_head
    from scenes.registry import story_of

    head = resolve_head(head_file, spec_file, sentence, follow) or default_head()
    story = story_of(head)
    data = story.to_json()
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    from attn_math.fmt import fmt, fmt_vec

    def mat(name, M):
        click.echo(f"{name}:")
        for row in M:
            click.echo("  " + "  ".join(f"{fmt(v, 3):>7}" for v in row))

    click.echo("sentence: " + " ".join(story.labels))
    click.echo(f"follow:   {story.labels[story.follow]} (position {story.follow}), d = {story.d}")
    click.echo("inputs:   " + "  ".join(f"{lab} {fmt_vec(x)}" for lab, x in zip(story.labels, story.X)))
    mat("W_Q", head.W_Q)
    mat("W_K", head.W_K)
    mat("W_V", head.W_V)
    click.echo("roles:    " + ", ".join(
        f"{k} {v['token']}" for k, v in data["story"]["roles"].items() if "token" in v))
    for sec, figs in data["story"]["sections"].items():
        title = next((s.title("en", story.n) for s in load_registry().sections
                      if s.number == int(sec)), "")
        click.echo(f"{sec} {title}: " + "  ".join(f"{k} {v['text']}" for k, v in figs.items()))
    return 0


# ---- batch (issue 15): the command; the work is in the batch package
@cli.command(short_help="Render every variant of a CSV/TOML file on Dask into OUT/<name>/.")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="An existing Dask scheduler, e.g. tcp://host:8786 [default: a local cluster].")
@click.option("--workers", type=int, default=None, callback=_jobs,
              help="Worker processes of the local cluster [default: cores].")
@click.option("--cache", default=None, metavar="URL",
              help="Clip store: a folder or fsspec URL, e.g. s3://bucket/prefix [default: OUT/.cache/store].")
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default=Path("out/batch"),
              show_default=True, help="Output directory: one folder per variant.")
@click.option("--quality", default="high", show_default=True, callback=_quality,
              metavar="[" + "|".join(QUALITIES) + "]", help="As for render.")
@click.option("--sections", "sections_spec", default=None, metavar="LIST", help="As for render (default: all).")
@click.option("--force", is_flag=True, help="Render every clip again, even if the store has it.")
@narration_option
def batch(file, scheduler, workers, cache, out_dir, quality, sections_spec, force, narration):
    """Render one explainer per variant of FILE (CSV: name, sentence, follow, lang, theme[, captions,
    spec]; or TOML: [defaults] and [[variant]] tables) into OUT/<name>/, as render would.
    Exit codes: 0 all written, 1 some variant failed (the rest are written), 2 bad input."""
    from batch.run import run_batch

    return run_batch(file, scheduler=scheduler, workers=workers, cache=cache, out=out_dir, quality=quality,
                     sections_spec=sections_spec, force=force, narration=narration, console=_console())
# ---- end batch


@cli.command()
@click.option("--lang", type=click.Choice(LANGS), default="ja", show_default=True,
              help="Language of the captions.")
@click.option("--sections", "sections_spec", default=None, metavar="LIST",
              help="Numbers, ranges and slugs, e.g. 1-4,9,attention-map (default: all).")
@click.option("--quality", default="high", show_default=True, callback=_quality,
              metavar="[" + "|".join(QUALITIES) + "]",
              help="The render whose frame clock the times follow (its frame rate).")
@click.option("--json", "as_json", is_flag=True,
              help="A JSON list of {section, beat, text, start, end} (seconds).")
@_head_options
@narration_option
@_section_dir_option
def script(lang, sections_spec, quality, as_json, head_file, spec_file, sentence, follow, narration):
    """Print every caption cue `render` would show, with its start and end (seconds) in
    the stitched video; nothing is rendered (with --narration, lines not yet in the voice
    cache are synthesised to know how long each is spoken)."""
    import tempfile

    from .script import build_script, format_script

    registry = load_registry()
    sections = parse_sections(sections_spec, registry.sections, registry.cards)
    head = resolve_head(head_file, spec_file, sentence, follow)
    if narration:
        check_narration(lang)
    with tempfile.TemporaryDirectory(prefix="attn-script-head-") as tmp:
        head_path = None
        if head is not None:
            head_path = Path(tmp) / "head.toml"
            head_path.write_text(head.to_toml(), encoding="utf-8")
        opts = Options(lang=lang, quality=quality, head=head_path, n_tokens=head.n if head else None,
                       narration=narration)  # narration: voice cache ATTN_VOICE_CACHE or the user's
        cues, total = build_script(sections, opts, str(head_path) if head_path else None)
    if as_json:
        click.echo(json.dumps([c.to_json() for c in cues], ensure_ascii=False, indent=1))
    else:
        titles = {s.number: s.title(lang, opts.n_tokens) for s in sections}
        click.echo(format_script(cues, titles, total), nl=False)


@cli.command(short_help="Check what each command needs from this machine; exit 1 if render cannot run.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Also check that this Dask scheduler (batch --scheduler) answers.")
def doctor(scheduler):
    """Check cairo and pango (manim's import), the pinned fonts, the narration voices,
    reveal.js, LibreOffice and Chromium (the slide tests) and, with --scheduler, a Dask
    scheduler: one line each, with the install command per platform for what is missing.
    Exit codes: 0 rendering is ready, 1 it is not."""
    from .doctor import Context, report, run_checks

    lines, code = report(run_checks(Context(scheduler=scheduler)))
    for line in lines:
        click.echo(line)
    return code


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point (``attn-explainer``)."""
    try:
        rv = cli.main(args=list(argv) if argv is not None else None, prog_name="render.py",
                      standalone_mode=False)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.ClickException as e:
        msg = " ".join(e.format_message().split())
        print(f"render.py: error: {msg}", file=sys.stderr)
        sys.exit(2)
    except (FileNotFoundError, ImportError) as e:  # a missing file or a broken install: no traceback
        msg = " ".join(str(e).split())
        if isinstance(e, ImportError):
            msg += " (reinstall attn-explainer, or run attn-explainer doctor)"
        print(f"render.py: error: {msg}", file=sys.stderr)
        sys.exit(2)
    except (KeyboardInterrupt, click.exceptions.Abort, Terminated):
        print("render.py: interrupted; finished sections are cached, run again to resume",
              file=sys.stderr)
        sys.exit(130)
    sys.exit(rv if isinstance(rv, int) else 0)


if __name__ == "__main__":
    main()
