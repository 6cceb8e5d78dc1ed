"""The slide formats table (``slides.formats.SLIDE_FORMATS``), ``--format`` parsing, and the
claim of docs/ARCHITECTURE.md's "To add X" table that a format is one row: a row added here
(and nowhere else) is a ``--format`` choice with its help, its check before rendering, a
manifest key that is "unchanged" on a second run, a file in the studio's outputs and a
library in the code digest. Nothing is rendered: the deck is an empty one and the clips a
stand-in that reports one cached section.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from pipeline.files import Paths
from pipeline.options import BadInput
from slides import formats
from slides.deck import Deck
from slides.formats import SLIDE_FORMATS, SlideFormat, parse_formats

#: The formats the README promises, by name: their files (a subset test: a new row adds, it
#: does not rename).
SHIPPED = {"pptx": "explainer.pptx", "html": "index.html", "pdf": "handout.pdf"}


def test_the_shipped_formats_and_their_files():
    assert {name: f.file for name, f in SLIDE_FORMATS.items()}.items() >= SHIPPED.items()
    assert list(SLIDE_FORMATS)[:3] == ["pptx", "html", "pdf"]


def test_asked_formats_come_in_table_order():
    assert [f.name for f in parse_formats("pdf, PPTX")] == ["pptx", "pdf"]
    assert parse_formats(None) == parse_formats("all") == tuple(SLIDE_FORMATS.values())


@pytest.mark.parametrize("spec, bad", [("doc", "doc"), ("", "''"), ("pptx,key", "key")])
def test_unknown_formats(spec, bad):
    with pytest.raises(BadInput) as e:
        parse_formats(spec)
    assert str(e.value) == f"unknown --format {bad} (choose from {', '.join(SLIDE_FORMATS)})"


def test_a_format_that_needs_installing_has_a_doctor_check():
    """A row with a ``check`` (something this machine may lack) has a line in ``doctor``
    naming ``slides --format NAME``: the one place outside the row for such a format."""
    from cli.doctor import CHECKS

    nothing = {f.name: f.default for f in dataclasses.fields(SlideFormat)}["check"]
    needing = {f.name for f in SLIDE_FORMATS.values() if f.check is not nothing}
    assert needing >= {"html", "pdf"}   # reveal.js, the handout's font
    named = {need for c in CHECKS for need in c.needed_by}
    assert {n for n in needing if f"slides --format {n}" not in named} == set()


# ---- one row, everywhere -----------------------------------------------------------------

class _Refused(BadInput):
    pass


def _write_outline(deck: Deck, dest: Path) -> None:
    dest.write_text(f"# {deck.title}\n", encoding="utf-8")


def _refuse() -> None:
    raise _Refused("the outline format needs nothing; this check says it ran")


OUTLINE = SlideFormat("outline", "outline.md", _write_outline, about="a Markdown outline",
                      libraries=("no-such-outline-library",))


@pytest.fixture
def outline(monkeypatch):
    """The table with one more row (only the table: nothing else is told)."""
    monkeypatch.setitem(SLIDE_FORMATS, OUTLINE.name, OUTLINE)
    return OUTLINE


def test_the_command_line_help_is_the_tables():
    """The command's ``--format`` help, its help and the group's line are made from the table
    (checked against the table as it is; the next test adds a row to the functions)."""
    from cli import slides as cli_slides
    from cli.group import cli

    (option,) = [p for p in cli_slides.slides.params if p.name == "formats_spec"]
    assert option.help == cli_slides.format_help()
    assert cli_slides.slides.help == cli_slides.slides_help()
    assert cli_slides.written() in (cli.help or "")
    for f in SLIDE_FORMATS.values():
        assert f"{f.name} ({f.file})" in option.help and f.file in cli_slides.slides.help


def test_a_new_row_is_a_choice_with_help_and_its_check_runs_before_rendering(outline, tmp_path, capsys):
    from cli import slides as cli_slides
    from cli.group import main

    assert parse_formats("outline,pdf") == (SLIDE_FORMATS["pdf"], outline)
    with pytest.raises(BadInput) as e:
        parse_formats("odt")
    assert str(e.value).endswith(", outline)")
    assert "outline (outline.md)" in cli_slides.format_help()
    assert "outline.md (a Markdown outline)" in cli_slides.slides_help()
    assert cli_slides.written().endswith(", outline.md")

    # the row's check refuses: exit 2 with its line, before the output folder is made
    refusing = dataclasses.replace(outline, check=_refuse)
    SLIDE_FORMATS["outline"] = refusing
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as e:
        main(["slides", "--format", "outline", "--out", str(out)])
    assert e.value.code == 2
    assert "this check says it ran" in capsys.readouterr().err
    assert not out.exists()


def test_a_new_row_is_written_recorded_and_left_unchanged(outline, tmp_path, monkeypatch):
    """:class:`slides.build.SlideBuild` writes the new row's file, keys it in
    ``manifest.json`` under its name, and leaves it alone on a second run."""
    from slides import build

    out = tmp_path / "out"
    (out / ".cache").mkdir(parents=True)
    section = SimpleNamespace(stem="01-x")
    clips = SimpleNamespace(
        run=lambda console: 0, _ordered=lambda: [SimpleNamespace(status="cached", section=section)],
        allow_missing=False, force=False, paths=Paths(out), timings={},
        opts=SimpleNamespace(quality="preview", lang="en", theme="dark"))
    monkeypatch.setattr(build.SlideBuild, "deck", lambda self: Deck("Title", "a b", "en"))
    console = SimpleNamespace(print=lambda *a, **k: None)

    first = build.SlideBuild(clips, parse_formats("outline"), sentence="a b")   # type: ignore[arg-type]
    assert first.run(console) == 0 and first.written == {"outline": "written"}
    assert (out / "slides" / "outline.md").read_text(encoding="utf-8") == "# Title\n"
    entry = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["slides"]["outline"]
    assert entry["size"] == len("# Title\n")

    again = build.SlideBuild(clips, parse_formats("outline"), sentence="a b")   # type: ignore[arg-type]
    assert again.run(console) == 0 and again.written == {"outline": "unchanged"}
    assert json.loads((out / "manifest.json").read_text(encoding="utf-8"))["slides"]["outline"] == entry


def test_a_new_rows_library_keys_the_outputs(monkeypatch):
    from slides.build import code_digest

    before = code_digest()
    monkeypatch.setitem(SLIDE_FORMATS, OUTLINE.name, OUTLINE)
    assert formats.libraries()[-1] == "no-such-outline-library"
    assert code_digest() != before


def test_a_new_row_is_in_the_studios_outputs(outline, tmp_path, monkeypatch):
    """The page lists the files of ``api/state``'s ``slides`` after a slides job."""
    from tests.module.studio.support import call, running_studio

    with running_studio(tmp_path / "studio") as server:
        code, state = call(server, "api/state")
    assert code == 200
    assert state["slides"] == [f"slides/{f.file}" for f in SLIDE_FORMATS.values()]
    assert state["slides"][-1] == "slides/outline.md"
