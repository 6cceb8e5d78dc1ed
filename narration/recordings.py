"""The lecturer's own recordings: one audio file per caption cue, named by the cue's id.

``render.py render --recordings DIR`` takes each cue's audio from ``DIR/<id>.<ext>``
(:data:`EXTENSIONS`). A cue's id (:func:`cue_id`) is ``NN-<beat>-<k>``: the section number,
the beat's key in the caption tables and the cue's place among that beat's cues (a beat
shown as two cues has ``-1`` and ``-2``), so it is the same on every run and machine and
``render.py script --json`` lists it. Ids name the beat, not its words: after changing the
sentence or the words, record the cues again (``render.py record`` shows them).

A recording is decoded (PyAV: any of the formats), its leading and trailing silence
trimmed (:data:`SILENCE_DBFS`, keeping :data:`KEEP` around the voice), and normalised as
synthesis is (:func:`narration.loudness.normalise`: −16 LUFS, true-peak limited, short
fades); the result is cached by the file's content, and the section cache keys on the
contents of the section's recordings (:func:`section_digest`).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from words import config

from . import loudness

__all__ = ["ENV", "EXTENSIONS", "cue_id", "cue_ids", "find", "missing", "section_digest", "prepare",
           "recordings_dir"]

#: The environment variable naming the recordings folder of a render.
ENV = config.RECORDINGS.name
#: The audio formats a recording may have, in the order they are looked for.
EXTENSIONS = ("wav", "flac", "ogg", "mp3", "m4a", "webm")
#: Below this level (RMS over :data:`WINDOW`, dB relative to full scale) a recording is silent.
SILENCE_DBFS = -45.0
WINDOW = 0.02      # seconds
#: Silence kept before the first and after the last voiced window (a breath, a soft onset).
KEEP = 0.08        # seconds
#: Bump when the processing changes: every recording is prepared again.
VERSION = 1


def cue_id(section: int, beat: str, k: int) -> str:
    """The id of the ``k``-th cue (from 1) of ``beat`` in ``section``: ``05-intro-1``."""
    return f"{section:02d}-{beat}-{k}"


def cue_ids(section: int, beats: Iterable[str]) -> list[str]:
    """The ids of a section's cues, given each cue's beat key in order."""
    seen: Counter[str] = Counter()
    out = []
    for beat in beats:
        seen[beat] += 1
        out.append(cue_id(section, beat, seen[beat]))
    return out


def recordings_dir() -> Path | None:
    """The render's recordings folder (``ATTN_RECORDINGS``), or None."""
    return config.current().recordings


def find(folder: Path, cue: str) -> Path | None:
    """The recording of ``cue`` in ``folder`` (the first of :data:`EXTENSIONS` there), or None."""
    for ext in EXTENSIONS:
        p = Path(folder) / f"{cue}.{ext}"
        if p.is_file() and p.stat().st_size > 0:
            return p
    return None


def missing(folder: Path, ids: Iterable[str]) -> list[str]:
    """The ids among ``ids`` that have no recording in ``folder``."""
    return [i for i in ids if find(folder, i) is None]


def _file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def section_digest(folder: Path, section: int) -> str:
    """A digest of the names and contents of ``section``'s recordings in ``folder`` (part of
    the section's cache key: a new take renders the section again)."""
    h = hashlib.sha256(f"v{VERSION}".encode())
    folder = Path(folder)
    if folder.is_dir():
        for p in sorted(folder.glob(f"{section:02d}-*")):
            if p.suffix.lstrip(".") in EXTENSIONS and p.is_file():
                h.update(p.name.encode() + b"\0" + _file_digest(p).encode())
    return h.hexdigest()[:24]


def trim_silence(samples: np.ndarray, rate: int = loudness.RATE) -> np.ndarray:
    """``samples`` without their leading and trailing silence (:data:`SILENCE_DBFS`),
    keeping :data:`KEEP` seconds around the voice; all silence gives an empty array."""
    n = max(1, int(round(WINDOW * rate)))
    frames = len(samples) // n
    if frames == 0:
        return samples[:0]
    rms = np.sqrt(np.mean(samples[: frames * n].reshape(frames, n) ** 2, axis=1) + 1e-20)
    voiced = np.flatnonzero(20 * np.log10(rms) > SILENCE_DBFS)
    if len(voiced) == 0:
        return samples[:0]
    keep = int(round(KEEP * rate))
    start = max(0, voiced[0] * n - keep)
    end = min(len(samples), (voiced[-1] + 1) * n + keep)
    return samples[start:end]


def prepare(path: Path, cache: Path):
    """The recording ``path`` as a narration line: trimmed, normalised, written as 48 kHz
    16-bit PCM into ``cache`` (reused when the file's content is unchanged).

    Returns a :class:`narration.synth.Line`. Raises ``ValueError`` for a file that holds
    no voice.
    """
    from .synth import Line, _atomic_text, _write_wav

    key = hashlib.sha256(f"{_file_digest(path)} v{VERSION} {SILENCE_DBFS} {KEEP} "
                         f"{loudness.TARGET_LUFS} {loudness.CEILING_DBFS}".encode()).hexdigest()[:32]
    folder = Path(cache) / "recordings"
    wav, meta = folder / f"{key}.wav", folder / f"{key}.json"
    if wav.is_file() and meta.is_file():
        info = json.loads(meta.read_text(encoding="utf-8"))
        return Line(wav, info["seconds"], info["spoken"])
    folder.mkdir(parents=True, exist_ok=True)
    samples = trim_silence(loudness.decode(path))
    if len(samples) == 0:
        raise ValueError(f"{path.name}: no voice in the recording (all below {SILENCE_DBFS:g} dBFS)")
    samples = loudness.normalise(samples)
    _write_wav(wav, samples)
    seconds = len(samples) / loudness.RATE
    _atomic_text(meta, json.dumps({"seconds": seconds, "spoken": f"recording {path.name}",
                                   "source": str(path)}, ensure_ascii=False))
    return Line(wav, seconds, f"recording {path.name}")
