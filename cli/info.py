"""``list``, ``figures``, ``voices``, ``script`` and ``doctor``: what a run would show or need, printed;
nothing is rendered."""

from __future__ import annotations

import dataclasses
import json
import tempfile
from pathlib import Path

import click

from pipeline.registry import load_registry, scene_file
from pipeline.run_setup import check_captions_file, check_narration, choose_sections, is_narrated, run_options

from .options import (
    captions_file_option,
    example_options,
    lang_option,
    narration_option,
    quality_option,
    section_dir_option,
)

__all__ = ["list_sections", "figures", "list_voices", "script", "doctor"]


@click.command("list")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@lang_option()
@section_dir_option
def list_sections(as_json, lang):
    """List the sections in order (a '-' marks a registry entry whose scene module is missing)."""
    registry = load_registry()
    rows = []
    for s in registry.sections:
        src = scene_file(s)
        # what the section needs and this machine lacks (None: it can render here)
        rows.append({**dataclasses.asdict(s), "stem": s.stem, "file": s.file, "implemented": src is not None,
                     "missing": s.missing() if hasattr(s, "missing") else None})
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    for r in rows:
        mark = " " if r["implemented"] else "-"
        title = r["title_ja"] if lang == "ja" else r["title_en"]
        needs = f"  (cannot render here: {r['missing']})" if r["missing"] else ""
        click.echo(f"{r['number']:>2} {mark} {r['slug']:<24} {title}{needs}")
    missing = sum(not r["implemented"] for r in rows)
    if missing:
        click.echo(f"({missing} marked '-' have no scene module)")
    return 0


@click.command()
@click.option("--json", "as_json", is_flag=True, help="One JSON object (see the README).")
@example_options
@section_dir_option
def figures(as_json, example):
    """Print the head and every figure it implies, section by section."""
    from attn_math import default_head
    from scenes.registry import story_of

    head = example.resolve() or default_head()
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


@click.command("voices")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def list_voices(as_json):
    """List the narration voices per language: engine, licence, whether each is installed
    (else what installs it) and which is the default (`--voice NAME` chooses another)."""
    from narration.voices import listing

    rows = listing()
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    for lang in dict.fromkeys(r["lang"] for r in rows):
        click.echo(f"{lang}:")
        for r in (r for r in rows if r["lang"] == lang):
            mark = "*" if r["default"] else " "
            state = "installed" if r["installed"] else "not installed: " + r["missing"]
            click.echo(f" {mark} {r['name']:<22} {r['engine']}")
            click.echo(f"   {'':<22} licence: {r['licence']}")
            click.echo(f"   {'':<22} {state}")
    click.echo("(* the default: the first installed voice of each language's preference)")
    return 0


@click.command()
@lang_option("Language of the captions.")
@click.option("--sections", "sections_spec", default=None, metavar="LIST",
              help="Numbers, ranges and slugs, e.g. 1-4,9,attention-map (default: all).")
@quality_option(help="The render whose frame clock the times follow (its frame rate).")
@click.option("--json", "as_json", is_flag=True,
              help="A JSON list of {section, beat, text, start, end} (seconds).")
@example_options
@narration_option
@captions_file_option
@section_dir_option
def script(lang, sections_spec, quality, as_json, example, narration, voice, captions_file):
    """Print every caption cue `render` would show, with its start and end (seconds) in
    the stitched video; nothing is rendered (with --narration, lines not yet in the voice
    cache are synthesised to know how long each is spoken)."""
    from pipeline.script import build_script, format_script

    _, sections = choose_sections(sections_spec)
    head = example.resolve()
    captions_file = check_captions_file(captions_file, (lang,))
    narration = is_narrated(narration, voice)
    if narration:
        voice = check_narration(lang, voice)
    with tempfile.TemporaryDirectory(prefix="attn-script-head-") as tmp:
        # no output folder: the voice cache is ATTN_VOICE_CACHE's or the user's
        opts = run_options(head, Path(tmp), lang=lang, quality=quality, narration=narration, voice=voice,
                           captions_file=captions_file)
        cues, total = build_script(sections, opts)
    if as_json:
        click.echo(json.dumps([c.to_json() for c in cues], ensure_ascii=False, indent=1))
    else:
        titles = {s.number: s.title(lang, opts.n_tokens) for s in sections}
        click.echo(format_script(cues, titles, total), nl=False)


@click.command(short_help="Check what each command needs from this machine; exit 1 if render cannot run.")
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
