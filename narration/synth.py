"""Synthesis with a cache: one WAV per spoken line, keyed by text, voice and settings.

A line is synthesised by its language's voice (:mod:`narration.voices`), decoded and
resampled to 48 kHz mono, normalised (:mod:`narration.loudness`) and written as 16-bit PCM
to ``<cache>/<lang>/<key>.wav`` with a ``.json`` beside it (duration, spoken text). The key
is the SHA-256 of the spoken text, the voice's identity (engine and voice versions) and
:data:`SETTINGS`, so an unchanged caption is never synthesised again, and a new voice or
setting never reuses an old line. Files are written to temporary names and renamed: two
render workers that speak the same line at once both end with the same complete file.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import tempfile
import wave
from dataclasses import dataclass
from pathlib import Path

from words import config

from . import loudness
from .voices import TableVoice, chosen, identity

#: Everything besides text and voice that the audio depends on (bump ``version`` when the
#: processing changes).
SETTINGS = {
    "version": 1,
    "rate": loudness.RATE,
    "lufs": loudness.TARGET_LUFS,
    "ceiling_dbfs": loudness.CEILING_DBFS,
    "fade": [loudness.FADE_IN, loudness.FADE_OUT],
    "passes": loudness.PASSES,
}


@dataclass(frozen=True)
class Line:
    """One synthesised line: its WAV file, its length in seconds and what was spoken."""

    path: Path
    seconds: float
    spoken: str


def default_cache() -> Path:
    """``ATTN_VOICE_CACHE``, else ``voice/`` in the user's cache folder (platformdirs:
    ``~/.cache/attn-explainer`` on Linux, where ``XDG_CACHE_HOME`` moves it)."""
    chosen = config.current().voice_cache
    if chosen is not None:
        return chosen
    import platformdirs

    return Path(platformdirs.user_cache_dir("attn-explainer")) / "voice"


def line_key(spoken: str, voice: TableVoice) -> str:
    """The cache key of ``spoken`` in ``voice`` with the current settings."""
    blob = json.dumps({"text": spoken, "voice": voice.name, "identity": identity(voice),
                       "settings": SETTINGS},
                      sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:32]


class Synthesizer:
    """Speaks lines into a cache directory, reusing what is already there.

    Parameters
    ----------
    cache
        The cache directory (default :func:`default_cache`).
    """

    def __init__(self, cache: Path | None = None):
        self.cache = Path(cache) if cache is not None else default_cache()
        self.synthesised = 0      # lines made by this instance (the rest came from the cache)

    def has(self, spoken: str, lang: str, voice: TableVoice | None = None) -> bool:
        """Whether the line for ``spoken`` in ``voice`` (default: the render's voice of
        ``lang``) is in the cache: :meth:`line` would then synthesise nothing."""
        key = line_key(spoken, voice or chosen(lang))
        return (self.cache / lang / f"{key}.json").is_file() and (self.cache / lang / f"{key}.wav").is_file()

    def line(self, spoken: str, lang: str, voice: TableVoice | None = None) -> Line:
        """The cached line for ``spoken`` in ``voice`` (default: the render's voice of
        ``lang``, :func:`narration.voices.chosen`), synthesised if it is not cached."""
        voice = voice or chosen(lang)
        key = line_key(spoken, voice)
        folder = self.cache / lang
        wav, meta = folder / f"{key}.wav", folder / f"{key}.json"
        if meta.is_file() and wav.is_file():
            info = json.loads(meta.read_text(encoding="utf-8"))
            return Line(wav, info["seconds"], info["spoken"])
        folder.mkdir(parents=True, exist_ok=True)
        samples = self._speak(spoken, voice, folder)
        _write_wav(wav, samples)
        seconds = len(samples) / loudness.RATE
        _atomic_text(meta, json.dumps({"seconds": seconds, "spoken": spoken,
                                        "voice": voice.name, "identity": identity(voice)}, ensure_ascii=False))
        self.synthesised += 1
        return Line(wav, seconds, spoken)

    def _speak(self, spoken: str, voice: TableVoice, folder: Path):
        fd, raw = tempfile.mkstemp(suffix=".wav", dir=folder, prefix=".raw-")
        os.close(fd)
        try:
            try:
                voice.synthesise(spoken, Path(raw))
            except RuntimeError:
                _room_for(folder, 0)   # a voice program that failed on a full disk says why
                raise
            # a voice program may not notice its output was cut by a full disk; the
            # normalised copy needs as much room again, so without it the line is not kept
            _room_for(folder, Path(raw).stat().st_size)
            samples = loudness.decode(Path(raw))
        finally:
            Path(raw).unlink(missing_ok=True)
        return loudness.normalise(samples)


#: Room kept free for a line's record and the filesystem's own blocks.
_MARGIN = 64 * 1024


def _room_for(folder: Path, size: int) -> None:
    """Raise the full disk's :class:`OSError` (ENOSPC) unless ``folder`` has ``size`` bytes
    free and a margin."""
    if shutil.disk_usage(folder).free < size + _MARGIN:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(folder / "line.wav"))


def _write_wav(dest: Path, samples) -> None:
    fd, tmp = tempfile.mkstemp(suffix=".wav", dir=dest.parent, prefix=".tmp-")
    os.close(fd)
    try:
        with wave.open(tmp, "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(loudness.RATE)
            w.writeframes(loudness.to_pcm16(samples))
        os.replace(tmp, dest)
    finally:
        Path(tmp).unlink(missing_ok=True)


def _atomic_text(dest: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=dest.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, dest)
    finally:   # a full disk leaves no half-written file behind
        Path(tmp).unlink(missing_ok=True)
