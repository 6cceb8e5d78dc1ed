"""The variants file of ``render.py batch``: one explainer per row, validated before anything renders.

Two formats, chosen by the file's suffix:

CSV (``.csv``, ``.tsv``, ``.txt``), what a spreadsheet exports: a header row, then one row per
variant. Columns (any order, case-insensitive): ``name`` (required), ``sentence``, ``follow``,
``lang``, ``theme``, and optionally ``captions``, ``spec`` (a spec or head TOML file, relative
to the variants file), ``voice`` (a narration voice: the variant is narrated) and
``captions_file`` (your own words, as ``--captions-file``, relative to the variants file). An empty cell takes the default (the default sentence, ``ja``, ``dark``,
``burned``). UTF-8 with or without a byte-order mark; commas, semicolons or tabs; quoted cells
may hold separators and line breaks; blank rows are skipped::

    name,sentence,follow,lang,theme
    alice,the dog chased the ball and it rolled,it,en,dark
    kenji,猫 が 魚 を 食べた,猫,ja,light

TOML (``.toml``): an optional ``[defaults]`` table and one ``[[variant]]`` table per variant,
with the same keys::

    [defaults]
    lang = "en"
    [[variant]]
    name = "alice"
    sentence = "the dog chased the ball and it rolled"

Every variant is checked with the rules of ``render`` (the choices of ``--lang``, ``--theme`` and
``--captions``; the sentence, follow and spec through :func:`attn_math.head.resolve_head`), and
its name must be unique (ignoring case) and usable as a folder name. The first problem raises
:class:`VariantError` with one line naming the row (``students.csv row 4 (bob): ...``).
"""

from __future__ import annotations

import csv
import io
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from attn_math.head import Head, HeadError, resolve_head
from pipeline.options import CAPTION_MODES, LANGS, THEMES

FIELDS = ("name", "sentence", "follow", "lang", "theme", "captions", "spec", "voice", "captions_file")
DEFAULTS = {"lang": "ja", "theme": "dark", "captions": "burned"}
CSV_SUFFIXES = (".csv", ".tsv", ".txt")
MAX_NAME = 64
#: A name starts with a letter or digit, then letters, digits, ``.``, ``_``, ``-`` (any script).
_NAME = re.compile(r"[^\W_][\w.-]*")
#: Names Windows refuses as folder names (a batch's output may be copied there).
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}


#: Names of files the batch itself writes beside the variant folders.
TAKEN = {"batch.json"}


class VariantError(ValueError):
    """A variants file that cannot be rendered; the message is one line naming the row."""


@dataclass(frozen=True)
class Variant:
    """One explainer of the batch: what ``render`` would get as options.

    ``head`` is the resolved custom head, or None for the default head (no sentence, follow
    or spec given), exactly as ``render`` decides it.
    """

    name: str
    lang: str = "ja"
    theme: str = "dark"
    captions: str = "burned"
    sentence: str | None = None
    follow: str | None = None
    spec: Path | None = None
    head: Head | None = None
    voice: str | None = None   # a narration voice (narration.voices): the variant is narrated
    captions_file: Path | None = None  # its own words (scenes/captions_file.py), checked
    where: str = ""  # "students.csv row 4": where the variant was defined, for messages

    def render_args(self) -> list[str]:
        """The ``render.py render`` options that render this variant on its own."""
        args = ["--lang", self.lang, "--theme", self.theme, "--captions", self.captions]
        for flag, value in (("--sentence", self.sentence), ("--follow", self.follow), ("--spec", self.spec),
                            ("--voice", self.voice), ("--captions-file", self.captions_file)):
            if value is not None:
                args += [flag, str(value)]
        return args


def load_variants(path: str | Path) -> list[Variant]:
    """Read and validate every variant of ``path`` (CSV or TOML); :class:`VariantError` if any is bad."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise VariantError(f"{path}: no such file") from None
    except OSError as e:
        raise VariantError(f"{path}: cannot read ({e.strerror or e})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise VariantError(f"{path.name}: not UTF-8 text (in a spreadsheet, save as 'CSV UTF-8')") from None
    if path.suffix.lower() == ".toml":
        rows = _toml_rows(text, path.name)
    elif path.suffix.lower() in CSV_SUFFIXES:
        rows = _csv_rows(text, path.name)
    else:
        raise VariantError(f"{path.name}: unknown format (use .csv or .toml)")
    if not rows:
        raise VariantError(f"{path.name}: no variants")
    variants = [_variant(where, cells, path.parent) for where, cells in rows]
    _check_names(variants)
    return variants


# ----------------------------------------------------------------------------- reading


def _csv_rows(text: str, filename: str) -> list[tuple[str, dict[str, str | None]]]:
    """``(where, cells)`` per non-blank data row; where is the spreadsheet row (header = row 1)."""
    first_line = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first_line.count) if first_line.strip() else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        records = list(reader)
    except csv.Error as e:
        raise VariantError(f"{filename} row {reader.line_num}: {e}") from None
    header_at = next((i for i, r in enumerate(records) if any(c.strip() for c in r)), None)
    if header_at is None:
        raise VariantError(f"{filename}: empty file")
    header = [c.strip().lower() for c in records[header_at]]
    for col in header:
        if col and col not in FIELDS:
            raise VariantError(f"{filename} row {header_at + 1}: unknown column {col!r} "
                               f"(columns: {', '.join(FIELDS)})")
    seen = [c for c in header if c]
    dup = next((c for c in seen if seen.count(c) > 1), None)
    if dup:
        raise VariantError(f"{filename} row {header_at + 1}: column {dup!r} appears twice")
    if "name" not in header:
        raise VariantError(f"{filename} row {header_at + 1}: no 'name' column (the header row "
                           f"names the columns: {', '.join(FIELDS)})")
    rows = []
    for i, record in enumerate(records[header_at + 1:], start=header_at + 2):
        if not any(c.strip() for c in record):
            continue  # a blank row
        where = f"{filename} row {i}"
        extra = [c for c in record[len(header):] if c.strip()]
        if extra:
            raise VariantError(f"{where}: {len(record)} cells, but the header names {len(header)} "
                               f"columns (a {delimiter!r} inside a cell needs quotes)")
        cells = {col: (record[j].strip() or None) if j < len(record) else None
                 for j, col in enumerate(header) if col}
        rows.append((where, cells))
    return rows


def _toml_rows(text: str, filename: str) -> list[tuple[str, dict[str, Any]]]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise VariantError(f"{filename}: not valid TOML ({e})") from None
    unknown = sorted(set(data) - {"defaults", "variant"})
    if unknown:
        raise VariantError(f"{filename}: unknown key {unknown[0]!r} (expected [defaults] and [[variant]] tables)")
    defaults = data.get("defaults", {})
    if not isinstance(defaults, dict):
        raise VariantError(f"{filename}: [defaults] must be a table")
    _check_keys(defaults, f"{filename} [defaults]")
    if "name" in defaults:
        raise VariantError(f"{filename} [defaults]: 'name' cannot have a default")
    tables = data.get("variant", [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise VariantError(f"{filename}: 'variant' must be [[variant]] tables")
    rows = []
    for i, table in enumerate(tables, start=1):
        where = f"{filename} variant {i}"
        _check_keys(table, where)
        rows.append((where, {**defaults, **table}))
    return rows


def _check_keys(table: dict, where: str) -> None:
    for k, v in table.items():
        if k not in FIELDS:
            raise VariantError(f"{where}: unknown key {k!r} (keys: {', '.join(FIELDS)})")
        if k == "follow" and isinstance(v, int) and not isinstance(v, bool):
            continue  # a 0-based position
        if not isinstance(v, str):
            raise VariantError(f"{where}: {k} must be a string, got {v!r}")


# ----------------------------------------------------------------------------- checking


def _variant(where: str, cells: dict[str, Any], base_dir: Path) -> Variant:
    name = cells.get("name")
    if name is None:
        raise VariantError(f"{where}: no name")
    name = str(name).strip()
    where_named = f"{where} ({name})"
    if len(name) > MAX_NAME or not _NAME.fullmatch(name) or name.lower() in _RESERVED | TAKEN:
        raise VariantError(f"{where}: name {name!r} cannot be a folder name (use up to {MAX_NAME} "
                           "letters, digits, '.', '_' or '-', starting with a letter or digit)")
    opts = {}
    for key, choices in (("lang", LANGS), ("theme", THEMES), ("captions", CAPTION_MODES)):
        value = cells.get(key)
        value = DEFAULTS[key] if value is None or str(value).strip() == "" else str(value).strip()
        if value not in choices:
            raise VariantError(f"{where_named}: {key} {value!r} is not one of {', '.join(choices)}")
        opts[key] = value
    sentence = _blank_to_none(cells.get("sentence"))
    follow = _blank_to_none(cells.get("follow"))
    spec = _blank_to_none(cells.get("spec"))
    spec_path = None
    if spec is not None:
        spec_path = Path(spec).expanduser()
        if not spec_path.is_absolute():
            spec_path = (base_dir / spec_path).resolve()
    head = None
    if any(v is not None for v in (sentence, follow, spec_path)):
        try:
            head = resolve_head(None, spec_path, sentence, follow)
        except HeadError as e:
            raise VariantError(f"{where_named}: {' '.join(str(e).split())}") from None
    voice = _blank_to_none(cells.get("voice"))
    if voice is not None:
        from narration.voices import UnknownVoice, find

        try:
            spoken_in = find(voice).lang
        except UnknownVoice as e:
            raise VariantError(f"{where_named}: {e}") from None
        if spoken_in != opts["lang"]:
            raise VariantError(f"{where_named}: voice {voice} speaks {spoken_in}, not {opts['lang']}")
    words = _blank_to_none(cells.get("captions_file"))
    words_path = None
    if words is not None:
        from scenes import captions_file
        from scenes.captions import packaged

        words_path = Path(words).expanduser()
        if not words_path.is_absolute():
            words_path = (base_dir / words_path).resolve()
        try:
            captions_file.check(words_path, (opts["lang"],), {l: packaged(l) for l in captions_file.LANGS})
        except captions_file.CaptionsFileError as e:
            raise VariantError(f"{where_named}: {' '.join(str(e).split())}") from None
    return Variant(name=name, sentence=sentence, follow=None if follow is None else str(follow),
                   spec=spec_path, head=head, voice=voice, captions_file=words_path, where=where, **opts)


def _blank_to_none(value):
    if value is None:
        return None
    if isinstance(value, str):
        value = value.strip()
        return value or None
    return value


def _check_names(variants: list[Variant]) -> None:
    first: dict[str, Variant] = {}
    for v in variants:
        key = v.name.casefold()
        if key in first:
            raise VariantError(f"{v.where} ({v.name}): name already used by {first[key].where} "
                               f"({first[key].name}); each variant gets its own folder")
        first[key] = v
