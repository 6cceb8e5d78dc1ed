"""The caption script: every cue ``render`` would show, with its time in the stitched video.

Each section's scene runs with frames skipped on the render's frame clock
(:mod:`scenes.timeline`), so its cues and its clip length are the ones a render of the
same options writes; a section's cues are then shifted by the lengths of the sections
before it, as the stitched ``explainer.srt`` is. Nothing is drawn or encoded.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from words import config

from .options import Options

__all__ = ["ScriptCue", "build_script", "format_script"]


@dataclass(frozen=True)
class ScriptCue:
    """One cue of the script: ``section``, ``beat``, ``text`` (lines split by ``\\n``),
    ``start`` and ``end`` in seconds of the stitched video, and ``id``: the cue's stable
    name (:func:`narration.recordings.cue_id`; a recording of it is ``<id>.wav``)."""

    section: int
    beat: str
    text: str
    start: float
    end: float
    id: str = ""

    def to_json(self) -> dict:
        return asdict(self)


def build_script(sections: Iterable, opts: Options) -> tuple[list[ScriptCue], float]:
    """The cues of ``sections`` (registry entries, in order) rendered with ``opts``, and
    the length of the stitched video in seconds."""
    from narration.recordings import cue_ids
    from scenes.timeline import section_cues

    # narrated, each cue holds for its spoken line
    env = config.scene_env(lang=opts.lang, theme=opts.theme, head=opts.head, narration=opts.narration,
                           voice_cache=opts.voice_cache, voice=opts.voice, recordings=opts.recordings,
                           captions_file=opts.captions_file, section_dirs=config.current().section_dirs)
    fps = opts.size[2]
    out, offset = [], 0.0
    with tempfile.TemporaryDirectory(prefix="attn-script-") as media:
        for section in sections:
            timing = section_cues(section.module, section.scene, env, fps, media)
            ids = cue_ids(section.number, [c.beat for c in timing.cues])
            for c, cue in zip(timing.cues, ids):
                out.append(ScriptCue(section.number, c.beat, c.text,
                                     round(offset + c.start, 3), round(offset + c.end, 3), cue))
            offset += timing.duration
    return out, offset


def _clock(t: float) -> str:
    m, s = divmod(t, 60.0)
    return f"{int(m)}:{s:05.2f}"


def format_script(cues: list[ScriptCue], titles: dict[int, str], total: float | None = None) -> str:
    """Readable text: a heading per section, then ``start–end  beat`` and the cue's lines."""
    lines: list[str] = []
    current = None
    for c in cues:
        if c.section != current:
            current = c.section
            if lines:
                lines.append("")
            lines.append(f"## {c.section}. {titles.get(c.section, '')}".rstrip())
            lines.append("")
        lines.append(f"{_clock(c.start)}–{_clock(c.end)}  {c.id or c.beat}")
        lines.extend(f"    {line}" for line in c.text.split("\n"))
    if total is not None:
        lines += ["", f"total {_clock(total)}"]
    return "\n".join(lines) + "\n"
