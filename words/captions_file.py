"""Your own words: a TOML file that replaces entries of the caption tables.

``render.py --captions-file FILE`` takes a TOML file with the same tables and keys as the
caption tables (:func:`words.captions.packaged`: ``[s05]`` beats and ``ui_*`` words,
``[titles]``, ...),
either for the run's language at its top level, or for several languages in ``[ja]`` and
``[en]`` tables (``[en.s05]``). Each entry given replaces the packaged one; everything else
stays. :func:`check` reads and checks the whole file before anything renders: a table or key
the packaged tables do not have, a value that is not text, or a placeholder the entry
cannot be given is :class:`CaptionsFileError`, one line naming the place.

Which placeholders an entry can be given: the ones its packaged text uses, and for a
section's own table every placeholder the story fills for that section
(:meth:`attn_math.Story.caption_context`, the same names for every sentence).

The render reads the file through ``ATTN_CAPTIONS_FILE`` (:func:`overrides`), so scenes,
the ``.srt``, ``render.py script``, speaker notes and the handout all see the new words,
and the section cache hashes the merged table (only the sections whose words changed are
rendered again). No manim import.
"""

from __future__ import annotations

import re
import string
import tomllib
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

from . import config

__all__ = ["CaptionsFileError", "check", "overrides", "merged_from", "replaced"]

LANGS = config.LANGS
_SECTION = re.compile(r"s\d\d")


class CaptionsFileError(ValueError):
    """A captions file that cannot be used; the message is one line naming the place."""


def _placeholders(text: str) -> set[str]:
    try:
        return {f.split(".")[0].split("[")[0] for _, f, _, _ in string.Formatter().parse(text) if f}
    except ValueError as e:
        raise CaptionsFileError(f"a malformed placeholder ({e})") from None


def _texts(entry) -> list[str]:
    if isinstance(entry, dict):
        return [v for k, v in entry.items() if k != "by" and isinstance(v, str)]
    return [entry] if isinstance(entry, str) else []


def _read(path: Path) -> dict:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise CaptionsFileError(f"{path}: no such file") from None
    except OSError as e:
        raise CaptionsFileError(f"{path}: cannot read ({e.strerror or e})") from None
    try:
        return tomllib.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise CaptionsFileError(f"{path.name}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as e:
        raise CaptionsFileError(f"{path.name}: not TOML ({e})") from None


def per_language(data: dict, lang: str) -> dict:
    """The tables of ``data`` that apply to ``lang``: its ``[lang]`` table when the file
    has language tables, else the whole file."""
    if any(k in LANGS for k in data):
        return data.get(lang, {})
    return data


def check(path: Path, langs: tuple[str, ...], base: dict[str, dict],
          context_names: Mapping[int, frozenset[str]] | None = None) -> dict:
    """Read ``path`` and check every entry against the packaged tables ``base``
    (language -> parsed caption table) for the languages ``langs`` of the run.

    ``context_names``: per section number, the placeholder names the story fills for it
    (:func:`scenes.registry.caption_context_names`; the story lives above this package, so
    the caller passes them); a section's own entries may use those too.

    Returns the parsed file. Raises :class:`CaptionsFileError` (one line) for a table,
    key or language the packaged tables lack, a value that is not text, or a placeholder
    the entry cannot be given.
    """
    path = Path(path)
    data = _read(path)
    has_langs = any(k in LANGS for k in data)
    if has_langs:
        other = [k for k in data if k not in LANGS]
        if other:
            raise CaptionsFileError(f"{path.name}: [{other[0]}] beside language tables: put it "
                                    f"under [ja.{other[0]}] or [en.{other[0]}]")
    for lang in (l for l in data if l in LANGS) if has_langs else langs:
        _check_language(path.name, per_language(data, lang), lang, base[lang], has_langs, context_names or {})
    return data


def _check_language(name: str, tables: dict, lang: str, base: dict, prefixed: bool,
                    context_names: Mapping[int, frozenset[str]]) -> None:
    where = (lambda t, k=None: f"{name}: [{lang}.{t}]" + (f" {k}" if k else "")) if prefixed \
        else (lambda t, k=None: f"{name}: [{t}]" + (f" {k}" if k else ""))
    for table_name, entries in tables.items():
        if table_name not in base or not isinstance(base[table_name], dict):
            known = ", ".join(k for k in base if isinstance(base[k], dict))
            raise CaptionsFileError(f"{where(table_name)}: no such table in the {lang} captions ({known})")
        if not isinstance(entries, dict):
            raise CaptionsFileError(f"{where(table_name)}: must be a table of texts")
        section = int(table_name[1:]) if _SECTION.fullmatch(table_name) else None
        for key, value in entries.items():
            if key not in base[table_name]:
                raise CaptionsFileError(f"{where(table_name, key)}: no such key in [{table_name}] of the "
                                        f"{lang} captions")
            original = base[table_name][key]
            texts = _texts(value)
            if not texts or (isinstance(value, dict) and "other" not in value):
                raise CaptionsFileError(f"{where(table_name, key)}: must be text (or a table of plural "
                                        "forms with 'by' and 'other')")
            allowed = set().union(*(_placeholders(t) for t in _texts(original)))
            if isinstance(original, dict):
                allowed.add(original.get("by", ""))
            if section is not None:
                allowed |= context_names.get(section, frozenset())
            for text in texts:
                for p in sorted(_placeholders(text) - allowed):
                    raise CaptionsFileError(f"{where(table_name, key)}: placeholder {{{p}}} is not one "
                                            f"this entry has ({', '.join(sorted(allowed)) or 'none'})")


@lru_cache(maxsize=8)
def _load(path: str) -> dict:
    return _read(Path(path))


def overrides(lang: str) -> dict:
    """The replaced entries for ``lang`` of the settings' captions file, ``{}`` when there is
    none."""
    path = config.current().captions_file
    if path is None:
        return {}
    return per_language(_load(str(path.resolve())), lang)


def merged_from(base: dict, lang: str, path: Path) -> dict:
    """The caption table ``base`` of ``lang`` with the entries the file ``path`` replaces."""
    return _apply(base, per_language(_load(str(Path(path).resolve())), lang))


def _apply(base: dict, changes: dict) -> dict:
    if not changes:
        return base
    out = dict(base)
    for table_name, entries in changes.items():
        out[table_name] = {**base.get(table_name, {}), **entries}
    return out


def replaced(lang: str, section: int, beat: str) -> bool:
    """Whether the render's captions file replaces ``beat`` of ``section`` (its spoken
    variant, written for the packaged words, then no longer applies)."""
    return beat in overrides(lang).get(f"s{section:02d}", {})
