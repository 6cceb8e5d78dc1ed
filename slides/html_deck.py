"""The reveal.js deck: ``index.html`` that works offline from ``file://``.

A title slide first (browsers block autoplay with sound until the viewer interacts), then
one slide per section: the title, the clip in a ``<video>`` (reveal plays it when the slide
is shown: ``data-autoplay``; muted unless the clips carry narration; with controls; the poster
frame until it plays) and the caption script in ``<aside class="notes">`` for reveal's
speaker view (key ``s``). reveal.js is the pinned npm copy beside the page
(:mod:`slides.reveal`); the clips and posters sit in ``media/`` beside it. Nothing is loaded
from the network.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from . import reveal
from .deck import Deck, SectionSlide
from .style import CJK_FAMILY, COLOURS

MEDIA_DIR = "media"
#: reveal's logical slide size: the clip is 16:9 under a title line.
SLIDE_W, SLIDE_H = 1280, 720
VIDEO_H = 600       # px of the 720 above: leaves room for the title


def media_name(s: SectionSlide, suffix: str) -> str:
    """``media/NN-slug.<clip key>.mp4`` / ``.png``, relative to index.html.

    Named by content, so a run that is interrupted before the new page replaces the old
    one leaves the old page with its own media.
    """
    return f"{MEDIA_DIR}/{s.stem}.{s.clip_key[:12]}{suffix}"


def _section(s: SectionSlide, narrated: bool) -> str:
    muted = "" if narrated else " muted"
    notes = escape(s.notes).replace("\n", "<br>\n")
    return f"""      <section class="clip" data-section="{s.number}" data-stem="{escape(s.stem)}">
        <div class="clip-box">
          <h3><span class="num">{s.number:02d}</span>{escape(s.title)}</h3>
          <video data-autoplay{muted} controls playsinline preload="auto"
                 poster="{media_name(s, '.png')}" src="{media_name(s, '.mp4')}"></video>
        </div>
        <aside class="notes">{notes}</aside>
      </section>"""


def render_html(deck: Deck) -> str:
    """The page's text (``index.html``)."""
    bg, fg, muted = COLOURS[deck.theme]
    base = "black" if deck.theme == "dark" else "white"
    r = reveal.DIRNAME
    sections = "\n".join(_section(s, deck.narrated) for s in deck.sections)
    return f"""<!doctype html>
<html lang="{escape(deck.lang)}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{escape(deck.title)}</title>
  <link rel="stylesheet" href="{r}/dist/reset.css">
  <link rel="stylesheet" href="{r}/dist/reveal.css">
  <link rel="stylesheet" href="{r}/dist/theme/{base}.css">
  <style>
    :root {{
      --r-background-color: #{bg}; --r-main-color: #{fg}; --r-heading-color: #{fg};
      --r-main-font: "Source Sans Pro", "{CJK_FAMILY}", sans-serif;
      --r-heading-font: "Source Sans Pro", "{CJK_FAMILY}", sans-serif;
      --r-heading-text-transform: none;
    }}
    .reveal .clip-box {{ display: inline-block; width: {VIDEO_H * 16 // 9}px; max-width: 100%;
                         text-align: left; }}
    .reveal .clip-box h3 {{ margin: 0 0 12px 0; font-size: 36px; }}
    .reveal .clip-box .num {{ color: #{muted}; font-weight: normal; margin-right: 0.6em; }}
    .reveal .clip-box video {{ display: block; width: 100%; height: auto; aspect-ratio: 16 / 9; }}
    .reveal .sentence {{ font-size: 40px; }}
    .reveal .language {{ color: #{muted}; font-size: 28px; }}
  </style>
</head>
<body>
  <div class="reveal">
    <div class="slides">
      <section data-section="0">
        <h1>{escape(deck.title)}</h1>
        <p class="sentence">{escape(deck.sentence)}</p>
        <p class="language">{escape(deck.language)}</p>
      </section>
{sections}
    </div>
  </div>
  <script src="{r}/dist/reveal.js"></script>
  <script src="{r}/dist/plugin/notes.js"></script>
  <script>
    Reveal.initialize({{ hash: true, transition: "fade", width: {SLIDE_W}, height: {SLIDE_H}, margin: 0.02,
                         plugins: [RevealNotes] }});
  </script>
</body>
</html>
"""


def write_html(deck: Deck, folder: Path, publish) -> str:
    """Write ``folder/index.html`` with reveal.js and ``media/`` beside it; returns the page.

    ``publish(src, dest)`` places a clip or poster (a hard link or copy, atomically). The
    page itself is returned under a temporary name for the caller to rename last, so a
    reader never sees a page whose media are not in place yet.
    """
    for s in deck.sections:
        publish(s.clip, folder / media_name(s, ".mp4"))
        publish(s.poster, folder / media_name(s, ".png"))
    reveal.copy_beside(folder / reveal.DIRNAME)
    return render_html(deck)
