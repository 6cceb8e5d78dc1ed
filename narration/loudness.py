"""Loudness of one spoken line: −16 LUFS integrated, true peak under −1 dBTP, soft edges.

The integrated loudness (ITU-R BS.1770-4) is measured with ``pyloudnorm``; the gain, a
true-peak limiter and the short fades that keep a line from clicking where it starts and
stops are ffmpeg's ``volume``, ``alimiter`` and ``afade`` filters run through PyAV. Each line
is normalised on its own: the silences between lines fall below BS.1770's gates, so a clip
made of such lines measures the same −16 LUFS.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np

RATE = 48_000                 # the narration track's sample rate (AAC in the clips)
TARGET_LUFS = -16.0
#: The limiter's ceiling (sample peak). The AAC encoder's overshoot and the inter-sample
#: peaks stay below the −1 dBTP limit with this margin (measured on every line: tests).
CEILING_DBFS = -2.5
FADE_IN = 0.010               # seconds
FADE_OUT = 0.030
#: Passes of measure-and-correct: the limiter takes a little loudness off the first pass.
PASSES = 3


def decode(path: Path) -> np.ndarray:
    """The mono float samples of an audio file, resampled to :data:`RATE`."""
    import av

    out = []
    with av.open(str(path)) as c:
        resampler = av.AudioResampler(format="flt", layout="mono", rate=RATE)
        for frame in c.decode(audio=0):
            for f in resampler.resample(frame):
                out.append(f.to_ndarray().reshape(-1))
        for f in resampler.resample(None):
            out.append(f.to_ndarray().reshape(-1))
    return np.concatenate(out).astype(np.float64) if out else np.zeros(0)


def loudness(samples: np.ndarray) -> float:
    """Integrated loudness of mono ``samples`` at :data:`RATE`, in LUFS (pyloudnorm)."""
    import pyloudnorm

    return float(pyloudnorm.Meter(RATE).integrated_loudness(samples))


def _filter(samples: np.ndarray, gain_db: float) -> np.ndarray:
    """Gain, true-peak limiter and fades through ffmpeg's filters."""
    import av

    seconds = len(samples) / RATE
    graph = av.filter.Graph()
    src = graph.add_abuffer(format="flt", sample_rate=RATE, layout="mono",
                            time_base=Fraction(1, RATE))
    chain = [
        graph.add("volume", f"volume={gain_db:.4f}dB:precision=double"),
        graph.add("alimiter", f"limit={10 ** (CEILING_DBFS / 20):.6f}:level=0:latency=1"
                              ":attack=5:release=50:asc=0"),
        graph.add("afade", f"t=in:st=0:d={FADE_IN}"),
        graph.add("afade", f"t=out:st={max(0.0, seconds - FADE_OUT):.6f}:d={FADE_OUT}"),
    ]
    sink = graph.add("abuffersink")
    node = src
    for f in chain:
        node.link_to(f)
        node = f
    node.link_to(sink)
    graph.configure()

    out = []
    block = 4096
    pts = 0
    data = samples.astype(np.float32)
    for i in range(0, len(data), block):
        chunk = data[i:i + block]
        frame = av.AudioFrame.from_ndarray(chunk.reshape(1, -1), format="flt", layout="mono")
        frame.sample_rate = RATE
        frame.time_base = Fraction(1, RATE)
        frame.pts = pts
        pts += len(chunk)
        graph.push(frame)
        out.extend(_drain(graph))
    graph.push(None)
    out.extend(_drain(graph))
    result = np.concatenate(out).astype(np.float64) if out else np.zeros(0)
    return result[: len(samples)]


def _drain(graph) -> list[np.ndarray]:
    import av

    got: list[np.ndarray] = []
    while True:
        try:
            frame = graph.pull()
        except (av.error.BlockingIOError, av.error.EOFError, BlockingIOError, EOFError):
            return got
        got.append(frame.to_ndarray().reshape(-1))


def normalise(samples: np.ndarray) -> np.ndarray:
    """``samples`` (mono, :data:`RATE`) at −16 LUFS integrated, limited and faded."""
    if len(samples) == 0 or not np.any(samples):
        return samples
    gain = TARGET_LUFS - loudness(samples)
    out = samples
    for _ in range(PASSES):
        out = _filter(samples, gain)
        error = TARGET_LUFS - loudness(out)
        if abs(error) < 0.1:
            break
        gain += error
    return out


def to_pcm16(samples: np.ndarray) -> bytes:
    """16-bit little-endian PCM (rounded, clipped: no dither, so the bytes are reproducible)."""
    return np.clip(np.round(samples * 32767.0), -32768, 32767).astype("<i2").tobytes()
