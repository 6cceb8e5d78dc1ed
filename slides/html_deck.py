"""The reveal.js deck: ``index.html`` that works offline from ``file://``.

A title slide first (browsers block autoplay with sound until the viewer interacts), then
one slide per section: the title, the clip in a ``<video>`` (reveal plays it when the slide
is shown: ``data-autoplay``; muted unless the clips carry narration; with controls; the poster
frame until it plays) and the caption script in ``<aside class="notes">`` for reveal's
speaker view (key ``s``). reveal.js is the pinned npm copy beside the page
(:mod:`slides.reveal`); the clips and posters sit in ``media/`` beside it. Nothing is loaded
from the network.

Each clip has a ``<track kind="captions">`` per subtitle language, the caption language
first and shown by default when the captions are not burned into the picture. The tracks'
WebVTT is written into the page as ``data:`` URLs: a browser refuses a ``<track>`` file
next to a page opened from ``file://`` (a file is its own origin), and the deck must work
from a folder. The keys :data:`KEYS` pause and replay the clip and switch the captions;
reveal's help overlay (``?``) lists them, and the title slide says them.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Key:
    """A key of the deck: its code (what reveal binds), its label, the word that says what it
    does (a key of ``[deck]`` in the caption tables) and the page's function it calls."""

    code: int
    label: str
    word: str
    action: str


#: The deck's own keys, bound with ``Reveal.addKeyBinding`` (they take precedence over
#: reveal's: K is also its "up", which a deck without vertical slides does not use).
KEYS = (Key(75, "K", "key_play", "togglePlay"),
        Key(82, "R", "key_replay", "replay"),
        Key(67, "C", "key_captions", "nextCaptions"))


def vtt_data_url(path: Path) -> str:
    """A WebVTT file as a ``data:`` URL (what a page opened from ``file://`` may load)."""
    return "data:text/vtt;charset=utf-8;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def _tracks(s: SectionSlide, deck: Deck) -> str:
    from words.captions import language_name

    rows = []
    for i, (lang, vtt) in enumerate(s.subtitles):
        default = " default" if i == 0 and not deck.captions_burned else ""
        rows.append(f'''            <track kind="captions" srclang="{escape(lang)}" label="{escape(language_name(lang))}"{default}
                   src="{vtt_data_url(vtt)}">''')
    return "\n".join(rows)


def _section(s: SectionSlide, deck: Deck) -> str:
    muted = "" if deck.narrated else " muted"
    notes = escape(s.notes).replace("\n", "<br>\n")
    tracks = _tracks(s, deck)
    return f"""      <section class="clip" data-section="{s.number}" data-stem="{escape(s.stem)}">
        <div class="clip-box">
          <h3><span class="num">{s.number:02d}</span>{escape(s.title)}</h3>
          <video data-autoplay{muted} controls playsinline preload="auto"
                 aria-label="{escape(s.title)}" aria-describedby="summary-{s.number}"
                 poster="{media_name(s, '.png')}" src="{media_name(s, '.mp4')}">
{tracks}
          </video>
          <p class="visually-hidden" id="summary-{s.number}">{escape(deck.alt_text(s))}</p>
        </div>
        <aside class="notes">{notes}</aside>
      </section>"""


#: The page's keys: pause/play and replay act on the current slide's clip; the caption choice
#: (a language, or off) holds for every clip. Burned captions start off (already on the
#: picture), soft ones on the caption language.
KEY_SCRIPT = """
    const captionCycle = BURNED ? [null, ...LANGS.slice(1), LANGS[0]] : [...LANGS, null];
    let captionState = 0;
    function currentVideo() {
      const slide = Reveal.getCurrentSlide();
      return slide ? slide.querySelector("video") : null;
    }
    function applyCaptions() {
      const lang = captionCycle[captionState];
      for (const video of document.querySelectorAll(".reveal video")) {
        for (const track of video.textTracks) {
          track.mode = track.language === lang ? "showing" : "disabled";
        }
      }
    }
    const actions = {
      togglePlay() { const v = currentVideo(); if (v) { v.paused ? v.play() : v.pause(); } },
      replay() { const v = currentVideo(); if (v) { v.currentTime = 0; v.play(); } },
      nextCaptions() { captionState = (captionState + 1) % captionCycle.length; applyCaptions(); },
    };
    for (const key of KEY_BINDINGS) {
      Reveal.addKeyBinding({ keyCode: key.code, key: key.label, description: key.description },
                           actions[key.action]);
    }
    applyCaptions();
"""


def render_html(deck: Deck) -> str:
    """The page's text (``index.html``)."""
    bg, fg, muted = COLOURS[deck.theme]
    base = "black" if deck.theme == "dark" else "white"
    r = reveal.DIRNAME
    sections = "\n".join(_section(s, deck) for s in deck.sections)
    words = deck_words(deck.lang)
    bindings = [{"code": k.code, "label": k.label, "description": words[k.word], "action": k.action}
                for k in KEYS]
    langs = next((tuple(lang for lang, _ in s.subtitles) for s in deck.sections if s.subtitles), ())
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
    .reveal .keys {{ color: #{muted}; font-size: 22px; }}
    .visually-hidden {{ position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0;
                        overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }}
  </style>
</head>
<body>
  <div class="reveal">
    <div class="slides">
      <section data-section="0">
        <h1>{escape(deck.title)}</h1>
        <p class="sentence">{escape(deck.sentence)}</p>
        <p class="language">{escape(deck.language)}</p>
        <p class="keys">{escape(words["keys"])}</p>
      </section>
{sections}
    </div>
  </div>
  <script src="{r}/dist/reveal.js"></script>
  <script src="{r}/dist/plugin/notes.js"></script>
  <script>
    Reveal.initialize({{ hash: true, transition: "fade", width: {SLIDE_W}, height: {SLIDE_H}, margin: 0.02,
                         plugins: [RevealNotes] }});
    const KEY_BINDINGS = {json.dumps(bindings, ensure_ascii=False)};
    const LANGS = {json.dumps(list(langs))};
    const BURNED = {json.dumps(deck.captions_burned)};{KEY_SCRIPT}  </script>
</body>
</html>
"""


def deck_words(lang: str) -> dict[str, str]:
    """The deck's own words in ``lang`` (``[deck]`` of the caption tables)."""
    from words.captions import table

    return table(lang)["deck"]


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
