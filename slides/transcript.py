"""``OUT/transcript.html``: the whole explainer as text, the media alternative a screen-reader
user reads instead of the video.

One self-contained page in the caption language: the video's title and sentence, a list of
the sections, then per section a heading, its still (the clip's end state, embedded as a
``data:`` URL) with the section's text alternative as ``alt``, and every caption cue of the
section in order, each with its time in the joined video. Plain semantic HTML (headings, a
``nav`` list, figures, paragraphs) in reading order: a few lines of inline CSS only limit the
line length and the stills' width, and the page reads the same without them.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from functools import partial
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.kinds import END_STATE_SUFFIX
from pipeline.poster import STILL_WIDTH, scaled_png

if TYPE_CHECKING:
    from attn_math import Story

__all__ = ["TranscriptSection", "Transcript", "FILE", "HEADING_JOIN", "STILL_WIDTH", "unbreak", "clock", "still_data_url",
           "render_transcript", "cues_of_srt", "write_transcript"]

#: The page, in the output folder.
FILE = "transcript.html"
#: The page's heading: the video's title, then the word "transcript", per language.
HEADING_JOIN = {"ja": "：", "en": ": "}


@dataclass(frozen=True)
class TranscriptSection:
    """One section of the transcript: heading, still and alt text, cues (text, start in s)."""

    number: int
    title: str
    still: Path
    alt: str
    cues: tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class Transcript:
    """The page: its language, the video's title and sentence, the sections in order."""

    lang: str
    title: str
    sentence: str
    sections: tuple[TranscriptSection, ...]


def unbreak(text: str) -> str:
    """A cue's lines as one line: Japanese lines join directly, Latin words with a space."""
    from words.linebreak import is_wide

    lines = [line.strip() for line in text.split("\n") if line.strip()]
    out = lines[0] if lines else ""
    for line in lines[1:]:
        glue = "" if is_wide(out[-1]) or is_wide(line[0]) else " "
        out += glue + line
    return out


def clock(seconds: float) -> str:
    """``m:ss`` of a time in the video."""
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def still_data_url(png: Path, width: int = STILL_WIDTH) -> tuple[str, int, int]:
    """``png`` scaled to at most ``width`` pixels wide (:func:`pipeline.poster.scaled_png`), as a
    ``data:`` URL, and its size."""
    data, (w, h) = scaled_png(png, width)
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii"), w, h


def _words(lang: str) -> dict[str, str]:
    from words.captions import table

    return table(lang)["transcript"]


def _section(s: TranscriptSection) -> str:
    url, w, h = still_data_url(s.still)
    cues = "\n".join(
        f'      <p><time datetime="PT{start:.3f}S">{clock(start)}</time> '
        f"{escape(unbreak(text))}</p>" for text, start in s.cues)
    return f"""    <section id="s{s.number:02d}" aria-labelledby="h{s.number:02d}">
      <h2 id="h{s.number:02d}">{s.number:02d}. {escape(s.title)}</h2>
      <figure>
        <img src="{url}" width="{w}" height="{h}" alt="{escape(s.alt)}">
      </figure>
{cues}
    </section>"""


def render_transcript(t: Transcript) -> str:
    """The page's text."""
    words = _words(t.lang)
    heading = f"{t.title}{HEADING_JOIN.get(t.lang, ': ')}{words['heading']}"
    toc = "\n".join(f'        <li><a href="#s{s.number:02d}">{s.number:02d}. {escape(s.title)}</a></li>'
                    for s in t.sections)
    sections = "\n".join(_section(s) for s in t.sections)
    return f"""<!doctype html>
<html lang="{escape(t.lang)}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{escape(heading)}</title>
  <style>
    body {{ max-width: 50em; margin: 0 auto; padding: 1em; line-height: 1.6; font-family: sans-serif; }}
    img {{ max-width: 100%; height: auto; }}
    time {{ font-variant-numeric: tabular-nums; }}
  </style>
</head>
<body>
  <main>
    <h1>{escape(heading)}</h1>
    <p>{escape(words["sentence"])} {escape(t.sentence)}</p>
    <nav aria-label="{escape(words["contents"])}">
      <h2>{escape(words["contents"])}</h2>
      <ol>
{toc}
      </ol>
    </nav>
{sections}
  </main>
</body>
</html>
"""


def cues_of_srt(srt_text: str, offset: float) -> tuple[tuple[str, float], ...]:
    """A clip's ``.srt`` as ``(text, start in the joined video)`` pairs."""
    import srt

    return tuple((c.content, offset + c.start.total_seconds()) for c in srt.parse(srt_text) if c.content.strip())


def write_transcript(build) -> Path | None:
    """Write ``OUT/transcript.html`` for a finished ``render`` run (a :class:`pipeline.build.Build`
    of clips with captions), from the clips in the store; None when there is nothing to write.

    Each still is the clip's end state (:func:`pipeline.poster.end_state_png`, made once per
    clip beside it in the store). The page is rewritten only when what it shows changed: its
    key (clips, titles, alt texts, sentence, this module) is kept in ``OUT/.cache``.
    """
    from attn_math import load_head
    from attn_math.head import DEFAULT_HEAD_PATH
    from pipeline.files import atomic_write
    from pipeline.poster import end_state_png

    from .deck import alt_text
    from .summaries import summaries_of, summary

    opts, paths = build.opts, build.paths
    done = [o for o in build._ordered() if o.status in ("rendered", "cached")]
    if not done or opts.captions == "none":
        return None
    head = load_head(str(opts.head) if opts.head else DEFAULT_HEAD_PATH)
    table = summaries_of(build.registry.root, opts.lang)
    story: Story | None = None

    def context(number: int) -> dict:
        nonlocal story
        if story is None:
            from scenes.registry import story_of

            story = story_of(head)
        return story.caption_context(number, opts.lang)

    entries, start = [], 0.0
    for o in done:
        store = paths.store / o.section.stem
        title = o.section.title(opts.lang, opts.n_tokens)
        alt = alt_text(title, summary(table, o.section.number, partial(context, o.section.number)), opts.lang)
        srt_file = store / f"{o.hash}.srt"
        entries.append((o.section.number, title, store / f"{o.hash}{END_STATE_SUFFIX}", alt,
                        srt_file.read_text(encoding="utf-8") if srt_file.is_file() else "", start, o))
        start += o.meta["duration"]
    from words.captions import table as caption_table

    title = caption_table(opts.lang)["titles"]["video"]
    sentence = " ".join(head.tokens)
    dest = paths.out / FILE
    key_file = paths.cache / "transcript.key"
    key = hashlib.sha256(json.dumps(
        [Path(__file__).read_bytes().hex(), opts.lang, title, sentence, _words(opts.lang),
         [(n, t, a, o.hash, s) for n, t, _, a, _, s, o in entries]], ensure_ascii=False).encode()).hexdigest()[:24]
    if dest.is_file() and key_file.is_file() and key_file.read_text() == key and not build.force:
        return dest
    sections = []
    for number, heading, still, alt, srt_text, offset, o in entries:
        if not still.is_file():
            end_state_png(paths.store / o.section.stem / f"{o.hash}.mp4", still)
        sections.append(TranscriptSection(number, heading, still, alt, cues_of_srt(srt_text, offset)))
    atomic_write(dest, render_transcript(Transcript(opts.lang, title, sentence, tuple(sections))))
    atomic_write(key_file, key)
    return dest
