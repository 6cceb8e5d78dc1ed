"""Independent readers and writers of audio for the narration tests: ffmpeg's ``ebur128``
meter (loudness, true peak), decoding through PyAV, the strongest pitch of a stretch
(numpy's FFT), and test tones encoded by PyAV in any of the recording formats."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import numpy as np

__all__ = ["ebur128", "decoded", "pitch", "write_tone", "TONE_RATE", "TONE_LEAD"]

#: Sample rate and leading silence (seconds) of :func:`write_tone`'s files.
TONE_RATE = 48_000
TONE_LEAD = 0.5
_CODECS = {"wav": "pcm_s16le", "flac": "flac", "ogg": "libopus", "mp3": "libmp3lame", "m4a": "aac",
           "webm": "libopus"}


def ebur128(path: Path) -> tuple[float, float]:
    """Integrated loudness (LUFS) and true peak (dBTP) of ``path``'s first audio stream,
    by ffmpeg's ``ebur128`` filter."""
    with av.open(str(path)) as c:
        a = c.streams.audio[0]
        graph = av.filter.Graph()
        src = graph.add_abuffer(template=a)
        meter = graph.add("ebur128", "metadata=1:peak=true")
        sink = graph.add("abuffersink")
        src.link_to(meter)
        meter.link_to(sink)
        graph.configure()
        integrated, peak = None, 0.0

        def drain():
            nonlocal integrated, peak
            while True:
                try:
                    frame = graph.pull()
                except (av.error.BlockingIOError, av.error.EOFError):
                    return
                md = frame.metadata
                if "lavfi.r128.I" in md:
                    integrated = float(md["lavfi.r128.I"])
                    peak = max(peak, float(md["lavfi.r128.true_peak"]))

        for frame in c.decode(a):
            graph.push(frame)
            drain()
        graph.push(None)
        drain()
    assert integrated is not None, f"{path}: no loudness measured"
    return integrated, 20 * np.log10(peak)


def decoded(path: Path) -> tuple[np.ndarray, int]:
    """The first audio stream of ``path`` as mono float samples, and its sample rate."""
    with av.open(str(path)) as c:
        rate = c.streams.audio[0].codec_context.sample_rate
        resampler = av.AudioResampler(format="flt", layout="mono", rate=rate)
        parts = [f.to_ndarray().reshape(-1) for fr in c.decode(audio=0) for f in resampler.resample(fr)]
    return np.concatenate(parts), rate


def pitch(samples: np.ndarray, rate: int) -> float:
    """The frequency (Hz) of the strongest component of ``samples``."""
    spectrum = np.abs(np.fft.rfft(samples * np.hanning(len(samples))))
    return float(np.fft.rfftfreq(len(samples), 1 / rate)[np.argmax(spectrum)])


def write_tone(path: Path, freq: float, seconds: float) -> None:
    """A tone of ``freq`` Hz for ``seconds`` between :data:`TONE_LEAD` of silence before and
    0.3 s after, encoded by PyAV in the format of ``path``'s suffix (wav, flac, ogg, mp3, m4a, webm)."""
    t = np.arange(int(seconds * TONE_RATE)) / TONE_RATE
    tone = 0.3 * np.sin(2 * np.pi * freq * t)
    samples = np.concatenate([np.zeros(int(TONE_LEAD * TONE_RATE)), tone,
                              np.zeros(int(0.3 * TONE_RATE))]).astype(np.float32)
    ext = path.suffix[1:]
    with av.open(str(path), "w", format={"m4a": "mp4"}.get(ext)) as out:
        stream = out.add_stream(_CODECS[ext], rate=TONE_RATE, layout="mono")
        fmt = stream.codec_context.codec.audio_formats[0].name
        frame_size = stream.codec_context.frame_size or 1024
        resampler = av.AudioResampler(format=fmt, layout="mono", rate=TONE_RATE)
        pts = 0
        for i in range(0, len(samples), frame_size):
            frame = av.AudioFrame.from_ndarray(samples[i:i + frame_size].reshape(1, -1), format="flt",
                                               layout="mono")
            frame.sample_rate = TONE_RATE
            frame.time_base = Fraction(1, TONE_RATE)
            frame.pts = pts
            pts += frame.samples
            for f in resampler.resample(frame):
                for packet in stream.encode(f):
                    out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
