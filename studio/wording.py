"""The lecturer's words: cue edits saved as a captions file the command line accepts.

An edit replaces one caption entry (``[sNN] key``) in one language. The studio keeps them in
``<out>/captions.toml`` with ``[ja]``/``[en]`` tables (``render.py --captions-file
<out>/captions.toml`` reads it as it is), checked by the command line's own check
(:func:`pipeline.run_setup.check_captions_file`) before it replaces the previous file. The
process reads a snapshot named by its content (``<out>/.studio/captions-<hash>.toml``), so
the caption tables cached per file never show stale words.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from pathlib import Path

from pipeline.files import atomic_write
from pipeline.options import BadInput
from pipeline.run_setup import check_captions_file
from words import config, cues

__all__ = ["FILE_NAME", "Wording", "pacing"]

#: The studio's captions file in its output folder.
FILE_NAME = "captions.toml"


def _toml(data: dict) -> str:
    """``data`` (language -> table -> key -> text) as TOML: a JSON string is a TOML basic
    string (the same escapes)."""
    lines = []
    for lang, tables in data.items():
        for table, entries in tables.items():
            if not entries:
                continue
            lines.append(f"[{lang}.{table}]")
            lines += [f"{key} = {json.dumps(text, ensure_ascii=False)}" for key, text in entries.items()]
            lines.append("")
    return "\n".join(lines)


def pacing(text: str, lang: str) -> dict:
    """How ``text`` reads as cues: each cue's lines, reading length and seconds on screen,
    and the reading rate (characters a second) against the language's rate."""
    shown = cues.cues_of(text, lang)
    rows = []
    for cue in shown:
        flat = cue.replace("\n", " ")
        length = cues.reading_length(flat, lang)
        seconds = cues.reading_time(flat, lang)
        rows.append({"text": cue, "chars": round(length, 1), "seconds": round(seconds, 2),
                     "rate": round(length / seconds, 1)})
    return {"cues": rows, "limit": cues.READING_RATE[lang], "lang": lang}


class Wording:
    """The edits of one studio session, in ``out/captions.toml``."""

    def __init__(self, out: Path):
        self.path = Path(out) / FILE_NAME
        self.snapshots = Path(out) / ".studio"

    def entries(self) -> dict:
        """Language -> table -> key -> text, as saved."""
        if not self.path.is_file():
            return {}
        with open(self.path, "rb") as f:
            return tomllib.load(f)

    def edit(self, lang: str, section: int, key: str, text: str) -> Path:
        """Replace ``[sNN] key`` in ``lang`` by ``text`` (empty: back to the packaged words),
        check the whole file as ``--captions-file`` does (:class:`BadInput`, the file left as
        it was) and save it; the process then reads it."""
        if lang not in config.LANGS:
            raise BadInput(f"--lang: {lang!r} is not one of {', '.join(config.LANGS)}")
        data = self.entries()
        table = data.setdefault(lang, {}).setdefault(f"s{section:02d}", {})
        if text.strip():
            table[key] = text.strip()
        else:
            table.pop(key, None)
        body = _toml(data)
        snapshot = self._snapshot(body)
        check_captions_file(snapshot, tuple(config.LANGS))
        atomic_write(self.path, body)
        return self.path

    def use(self) -> None:
        """Make this process read the saved words (a snapshot of the file), if any."""
        if self.path.is_file():
            check_captions_file(self._snapshot(self.path.read_text(encoding="utf-8")), tuple(config.LANGS))
        else:
            config.use(config.current().replace(captions_file=None))

    def file(self) -> Path | None:
        """The captions file a render of this session takes (None: no edits)."""
        return self.path if self.path.is_file() and self.entries() else None

    def _snapshot(self, body: str) -> Path:
        dest = self.snapshots / f"captions-{hashlib.sha256(body.encode()).hexdigest()[:16]}.toml"
        if not dest.exists():
            self.snapshots.mkdir(parents=True, exist_ok=True)
            atomic_write(dest, body)
        return dest
