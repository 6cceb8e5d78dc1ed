"""The narration track of a scene: each beat's line is laid at the moment its caption is up,
and the scene waits for the voice.

:class:`Narrator` is what :class:`scenes.base.SectionScene` calls from ``say()``:

- :meth:`Narrator.before_beat`: the previous line must have finished (plus
  :data:`PAUSE`) before the next caption appears, so the scene waits for it;
- :meth:`Narrator.speak`: adds the beat's line with manim's ``Scene.add_sound`` at the
  current scene time and returns the scene time until which the beat must hold (its end
  plus :data:`PAUSE`); ``say()`` holds the caption at least that long;
- :meth:`Narrator.finish`: at the end of the scene, waits out the last line;
- :meth:`Narrator.pad_to_end`: last of all (after the closing fade), pads the track with
  silence to the scene's end, so the clip's audio lasts as long as its video.

manim mixes the lines (pydub, at the lines' 48 kHz), encodes the mix as AAC and muxes it
into the scene's MP4. No line overlaps another, and each is normalised on its own, so the
mix needs no gain of its own.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from words import captions_file, config
from words import spoken as spoken_rules

from . import recordings
from .synth import Line, Synthesizer

#: Silence after a line before the next caption appears, in seconds.
PAUSE = 0.4
#: Length of the silent line that pads the track to the scene's end, in seconds.
PAD_SECONDS = 0.05


def enabled() -> bool:
    """Whether this render is narrated (``ATTN_NARRATION=1``)."""
    return config.current().narration


def spoken_line(lang: str, section: int, beat: str, text: str, context) -> str:
    """What the voice says for a beat: its spoken variant if it has one, else the
    caption text through the spoken-form rules.

    ``context`` is the caption placeholders' values (a dict, or a function returning it:
    it is only needed when the beat has a variant).
    """
    template = spoken_rules.variant(lang, section, beat)
    if template is not None and captions_file.replaced(lang, section, beat):
        template = None  # the variant says the packaged words, not the lecturer's
    if template is not None and context is not None:
        text = template.format_map(context() if callable(context) else context)
    return spoken_rules.spoken(text, lang)


def speech_seconds(text: str, lang: str, section: int = 0, beat: str = "",
                   context: dict | None = None, synth: Synthesizer | None = None) -> float:
    """Seconds the voice of ``lang`` takes to say a beat's caption ``text`` (synthesised,
    or read from the cache). ``render.py script --narration`` reports timing with it."""
    synth = synth or Synthesizer()
    return synth.line(spoken_line(lang, section, beat, text, context), lang).seconds


class Narrator:
    """Lays a scene's spoken lines on its timeline and keeps the scene from outrunning them.

    Parameters
    ----------
    lang
        The narration language (the caption language).
    section
        The section number (for spoken variants).
    synth
        Where lines come from (default: a :class:`~narration.synth.Synthesizer` on
        ``ATTN_VOICE_CACHE``).
    """

    def __init__(self, lang: str, section: int, synth: Synthesizer | None = None):
        self.lang = lang
        self.section = section
        self.synth = synth or Synthesizer()
        self.voice_until = 0.0          # scene time at which the current line (+pause) ends
        self.lines: list[tuple[float, Line]] = []   # (scene time, line) as laid
        # the lecturer's recordings (ATTN_RECORDINGS): a cue's file is its line; without
        # one, the voice speaks it only when a voice was named (ATTN_VOICE)
        self.recordings = recordings.recordings_dir()
        self.cue_counts: Counter[str] = Counter()

    def before_beat(self, scene) -> None:
        """Wait until the previous line has been spoken (and the pause after it)."""
        left = self.voice_until - scene.time
        if left > 1e-6:
            scene.wait(left)

    def speak(self, scene, beat: str, text: str, use_variant: bool = True) -> float:
        """Lay the line of ``beat`` (its caption ``text``, or a spoken variant of the beat
        unless ``use_variant`` is false: a beat shown as two cues speaks each cue's text)
        at the current scene time; returns the time until which the beat must hold."""
        self.cue_counts[beat] += 1
        line = self._recorded(recordings.cue_id(self.section, beat, self.cue_counts[beat]))
        if line is None:
            line = self.synth.line(spoken_line(self.lang, self.section, beat if use_variant else "",
                                               text, lambda: _caption_context(scene)), self.lang)
        scene.add_sound(str(line.path))
        self.lines.append((scene.time, line))
        self.voice_until = scene.time + line.seconds + PAUSE
        return self.voice_until

    def _recorded(self, cue: str) -> Line | None:
        """The recording of ``cue`` as a line, or None when the voice speaks it."""
        if self.recordings is None:
            return None
        path = recordings.find(self.recordings, cue)
        if path is not None:
            return recordings.prepare(path, self.synth.cache)
        if not config.current().voice:
            raise FileNotFoundError(f"no recording of cue {cue} in {self.recordings} (and no --voice)")
        return None

    def finish(self, scene) -> None:
        """Wait out the last line (and the pause after it)."""
        self.before_beat(scene)

    def pad_to_end(self, scene) -> None:
        """Pad the track with silence to the scene's end (call it last: the clip's audio then
        lasts as long as its video)."""
        scene.add_sound(str(self._pad()), time_offset=-PAD_SECONDS)

    def _pad(self) -> Path:
        path = self.synth.cache / f"silence-{PAD_SECONDS:.3f}s.wav"
        if not path.is_file():
            import numpy as np

            from .synth import _write_wav

            path.parent.mkdir(parents=True, exist_ok=True)
            _write_wav(path, np.zeros(int(round(PAD_SECONDS * 48_000))))
        return path


def _caption_context(scene) -> dict:
    """The scene's caption placeholders (for a spoken variant)."""
    try:
        return scene.story.caption_context(scene.SECTION, scene.lang)
    except TypeError:  # a story whose captions do not depend on the language
        return scene.story.caption_context(scene.SECTION)


def narration_key(lang: str, section: int, voice: str | None = None,
                  folder: Path | None = None) -> str:
    """What a narrated section's render depends on besides its captions and code: the
    voice (engine and voice versions; ``voice``, else ``ATTN_VOICE``, else the default),
    the recordings of its cues (``folder``, else ``ATTN_RECORDINGS``: their contents), the
    synthesis settings, the pause, the section's spoken variants and the words the
    spoken-form rules say (``[readings]``: data, so not in the code the cache hashes).
    Part of the pipeline's section cache key."""
    import json

    from .synth import SETTINGS
    from .voices import chosen, identity

    voice = voice or config.current().voice or None
    folder = folder or recordings.recordings_dir()
    if folder is not None and voice is None:
        said: dict = {"voice": None}        # recordings only: no voice speaks
    else:
        v = chosen(lang, voice)
        said = {"voice": v.name, "identity": identity(v)}
    if folder is not None:
        said["recordings"] = recordings.section_digest(folder, section)
    return json.dumps({**said, "settings": SETTINGS, "pause": PAUSE,
                       "pad": PAD_SECONDS,
                       "variants": spoken_rules.variants(lang).get(f"s{section:02d}", {}),
                       "readings": spoken_rules.readings(lang)},
                      sort_keys=True, ensure_ascii=False)
