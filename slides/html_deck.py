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
from .beats import POSTER_SUFFIX, Beat
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


def beat_media_name(s: SectionSlide, beat: Beat, suffix: str) -> str:
    """``media/NN-slug.<clip key>.bNN.mp4`` / ``.jpg``: one beat's piece and its last frame."""
    return f"{MEDIA_DIR}/{s.stem}.{s.clip_key[:12]}.b{beat.index:02d}{suffix}"


def media_names(deck: Deck) -> list[str]:
    """Every file of ``media/`` the page loads (relative to index.html)."""
    names = []
    for s in deck.sections:
        if deck.stepped and s.beats:
            names += [beat_media_name(s, b, suf) for b in s.beats for suf in (".mp4", POSTER_SUFFIX)]
        else:
            names += [media_name(s, suf) for suf in (".mp4", ".png")]
    return names


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
#: The keys of a deck that stops at every caption beat: next and previous step through the
#: beats (a presenter's clicker sends PageDown/PageUp or the arrows), R replays the beat.
KEYS_STEPPED = (Key(39, "→", "key_next", "stepNext"),
                Key(32, "Space", "key_next", "stepNext"),
                Key(34, "PageDown", "key_next", "stepNext"),
                Key(37, "←", "key_previous", "stepPrevious"),
                Key(33, "PageUp", "key_previous", "stepPrevious"),
                Key(75, "K", "key_play", "togglePlay"),
                Key(82, "R", "key_replay_beat", "replay"),
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


def _beat_tracks(s: SectionSlide, beat: Beat, deck: Deck) -> str:
    """The caption tracks of one beat's piece: the section's cues inside it, shifted."""
    from words.captions import language_name

    rows = []
    for i, (lang, vtt) in enumerate(s.subtitles):
        default = " default" if i == 0 and not deck.captions_burned else ""
        text = beat_vtt(vtt.read_text(encoding="utf-8"), beat.start_s, beat.end_s)
        url = "data:text/vtt;charset=utf-8;base64," + base64.b64encode(text.encode("utf-8")).decode("ascii")
        rows.append(f'''              <track kind="captions" srclang="{escape(lang)}" label="{escape(language_name(lang))}"{default}
                     src="{url}">''')
    return "\n".join(rows)


def _vtt_seconds(stamp: str) -> float:
    parts = [float(p) for p in stamp.strip().split(":")]
    return sum(p * 60 ** i for i, p in enumerate(reversed(parts)))


def _vtt_stamp(t: float) -> str:
    ms = max(0, round(t * 1000))
    return f"{ms // 3_600_000:02d}:{ms // 60_000 % 60:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}"


def beat_vtt(vtt: str, start: float, end: float) -> str:
    """The cues of WebVTT ``vtt`` that show in ``[start, end)`` seconds, clipped to it and
    shifted to start at zero (a beat piece's own captions)."""
    out = ["WEBVTT", ""]
    for block in vtt.replace("\r\n", "\n").split("\n\n"):
        lines = [line for line in block.split("\n") if line.strip()]
        timing = next((i for i, line in enumerate(lines) if "-->" in line), None)
        if timing is None:
            continue
        a, _, b = lines[timing].partition("-->")
        a_s, b_s = _vtt_seconds(a), _vtt_seconds(b.split()[0])
        if b_s <= start or a_s >= end:
            continue
        out += [f"{_vtt_stamp(max(a_s, start) - start)} --> {_vtt_stamp(min(b_s, end) - start)}",
                *lines[timing + 1:], ""]
    return "\n".join(out)


def _beat_notes(s: SectionSlide, i: int, words: dict[str, str]) -> str:
    """The speaker view's notes at beat ``i`` (0-based): the count, its caption, the next one."""
    beats = s.beats
    following = (f"{words['beat_next']} {beats[i + 1].caption}" if i + 1 < len(beats) else words["beat_last"])
    return (f'<aside class="notes"><p class="beat-count">{i + 1}/{len(beats)}</p>'
            f'<p class="beat-caption">{escape(beats[i].caption)}</p>'
            f'<p class="beat-next">{escape(following)}</p></aside>')


def _stepped_section(s: SectionSlide, deck: Deck, words: dict[str, str]) -> str:
    """A section slide that stops at every caption beat: one ``<video>`` per beat, stacked
    (the current one shows), and an empty fragment per beat after the first, so reveal's
    next and previous (and the speaker view, which follows reveal's state) step the beats."""
    muted = "" if deck.narrated else " muted"
    videos = []
    for i, b in enumerate(s.beats):
        poster = f' poster="{beat_media_name(s, s.beats[i - 1], POSTER_SUFFIX)}"' if i else ""
        videos.append(f'''            <video class="beat{" current" if i == 0 else ""}" data-beat="{b.index}" data-frames="{b.end - b.first}"
                   data-fps="{float(b.fps)}" data-first="{b.first}"{muted} playsinline preload="auto"
                   aria-label="{escape(s.title)} ({b.index}/{len(s.beats)})" aria-describedby="summary-{s.number}"{poster}
                   src="{beat_media_name(s, b, '.mp4')}">
{_beat_tracks(s, b, deck)}
            </video>''')
    steps = "\n".join(f'''        <span class="fragment beat-step" data-beat="{b.index}">{_beat_notes(s, i, words)}</span>'''
                      for i, b in enumerate(s.beats) if i)
    return f"""      <section class="clip stepped" data-section="{s.number}" data-stem="{escape(s.stem)}" data-beats="{len(s.beats)}">
        <div class="clip-box">
          <h3><span class="num">{s.number:02d}</span>{escape(s.title)}</h3>
          <div class="beat-stack">
{chr(10).join(videos)}
          </div>
          <p class="visually-hidden" id="summary-{s.number}">{escape(deck.alt_text(s))}</p>
        </div>
        {_beat_notes(s, 0, words)}
{steps}
      </section>"""


#: A deck that stops at beats: the slide itself is its first beat, each ``.beat-step``
#: fragment shown one more. A beat's piece plays to its own end, where the browser holds
#: its last frame (a piece ends at the beat's last frame, cut exactly: :mod:`slides.beats`),
#: so a stop needs no timer: it is the end of the video. Next while a beat waits at its start
#: (after previous) plays that beat; previous during or after a beat goes to its start, at
#: its start to the previous beat's.
STEP_SCRIPT = """
    function beatVideos(slide) { return slide ? [...slide.querySelectorAll("video.beat")] : []; }
    function beatIndex(slide) { return slide.querySelectorAll(".fragment.beat-step.visible").length; }
    function showBeat(slide, k, how) {
      const videos = beatVideos(slide);
      if (!videos.length) { return; }
      k = Math.max(0, Math.min(k, videos.length - 1));
      videos.forEach((v, i) => { if (i !== k) { v.pause(); v.classList.remove("current"); delete v.dataset.held; } });
      const v = videos[k];
      v.classList.add("current");
      v.pause();
      if (how === "end") {   // the middle of the last frame: that frame shows
        v.currentTime = (Number(v.dataset.frames) - 0.5) / Number(v.dataset.fps);
        v.dataset.held = "end";
      } else {
        v.currentTime = 0;
        if (how === "play") { delete v.dataset.held; v.play().catch(() => {}); } else { v.dataset.held = "start"; }
      }
    }
    const stepActions = {
      stepNext() {
        const slide = Reveal.getCurrentSlide();
        const videos = beatVideos(slide);
        const v = videos.length ? videos[beatIndex(slide)] : null;
        if (v && v.dataset.held === "start") { delete v.dataset.held; v.play().catch(() => {}); return; }
        Reveal.next();
      },
      stepPrevious() {
        const slide = Reveal.getCurrentSlide();
        const videos = beatVideos(slide);
        const k = videos.length ? beatIndex(slide) : 0;
        if (videos.length && !(videos[k].dataset.held === "start" && videos[k].currentTime === 0)) {
          showBeat(slide, k, "start");
          return;
        }
        Reveal.prev();
      },
    };
    Object.assign(actions, stepActions);
    function enterSlide(slide) {
      if (!beatVideos(slide).length) { return; }
      const k = beatIndex(slide);
      // entered forwards (no beat shown yet): play the first; backwards: hold the last's end
      showBeat(slide, k, k === 0 ? "play" : "end");
    }
    Reveal.on("slidechanged", (event) => {
      for (const v of beatVideos(event.previousSlide)) { v.pause(); }
      enterSlide(event.currentSlide);
    });
    Reveal.on("fragmentshown", (event) => {
      if (event.fragment.classList.contains("beat-step")) {
        showBeat(Reveal.getCurrentSlide(), Number(event.fragment.dataset.beat) - 1, "play");
      }
    });
    Reveal.on("fragmenthidden", (event) => {
      if (event.fragment.classList.contains("beat-step")) {
        const slide = Reveal.getCurrentSlide();
        showBeat(slide, beatIndex(slide), "start");
      }
    });
    enterSlide(Reveal.getCurrentSlide());
"""


#: The page's keys: pause/play and replay act on the current slide's clip; the caption choice
#: (a language, or off) holds for every clip. Burned captions start off (already on the
#: picture), soft ones on the caption language.
KEY_SCRIPT = """
    const captionCycle = BURNED ? [null, ...LANGS.slice(1), LANGS[0]] : [...LANGS, null];
    let captionState = 0;
    function currentVideo() {
      const slide = Reveal.getCurrentSlide();
      const beat = slide ? slide.querySelector("video.beat.current") : null;
      return beat || (slide ? slide.querySelector("video") : null);
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
      replay() { const v = currentVideo(); if (v) { delete v.dataset.held; v.currentTime = 0; v.play(); } },
      nextCaptions() { captionState = (captionState + 1) % captionCycle.length; applyCaptions(); },
    };
    KEY_SCRIPT_STEPS
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
    words = deck_words(deck.lang)
    stepped = deck.stepped and any(s.beats for s in deck.sections)
    sections = "\n".join(_stepped_section(s, deck, words) if stepped and s.beats else _section(s, deck)
                         for s in deck.sections)
    bindings = [{"code": k.code, "label": k.label, "description": words[k.word], "action": k.action}
                for k in (KEYS_STEPPED if stepped else KEYS)]
    script = KEY_SCRIPT.replace("    KEY_SCRIPT_STEPS\n", STEP_SCRIPT if stepped else "")
    keys_line = words["keys_stepped" if stepped else "keys"]
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
    .reveal .beat-stack {{ position: relative; width: 100%; aspect-ratio: 16 / 9; }}
    .reveal .beat-stack video {{ position: absolute; inset: 0; visibility: hidden; }}
    .reveal .beat-stack video.current {{ visibility: visible; }}
    .reveal .beat-step {{ position: absolute; width: 0; height: 0; overflow: hidden; }}
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
        <p class="keys">{escape(keys_line)}</p>
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
    const BURNED = {json.dumps(deck.captions_burned)};{script}  </script>
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
        if deck.stepped and s.beats:
            for b in s.beats:
                publish(b.clip, folder / beat_media_name(s, b, ".mp4"))
                publish(b.poster, folder / beat_media_name(s, b, POSTER_SUFFIX))
            continue
        publish(s.clip, folder / media_name(s, ".mp4"))
        publish(s.poster, folder / media_name(s, ".png"))
    reveal.copy_beside(folder / reveal.DIRNAME)
    return render_html(deck)
