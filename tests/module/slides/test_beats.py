"""slides.beats on small clips made here with PyAV: where the stops fall, and a narrated
clip's pieces carrying exactly their span's sound."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest

from slides.beats import BeatSpan, cut_beats, frame_spans

FPS, RATE = 10, 48000


def narrated_clip(path: Path, seconds: int = 3, keyframes: tuple[int, ...] = ()) -> Path:
    """H.264 + AAC: frame ``i`` has a bar at ``i``; second ``k`` is a tone of ``(k+1) * 220`` Hz;
    an IDR frame at each of ``keyframes`` (as manim's segments start)."""
    with av.open(str(path), "w") as c:
        v = c.add_stream("libx264", rate=FPS)
        v.width, v.height, v.pix_fmt = 128, 72, "yuv420p"
        v.options = {"x264-params": "forced-idr=1"}
        a = c.add_stream("aac", rate=RATE, layout="mono")
        for i in range(seconds * FPS):
            img = np.zeros((72, 128, 3), np.uint8)
            img[20:50, i * 4:i * 4 + 4] = 255
            frame = av.VideoFrame.from_ndarray(img, format="rgb24")
            if i in keyframes:
                frame.pict_type = av.video.frame.PictureType.I
            c.mux(v.encode(frame))
        t = np.arange(seconds * RATE) / RATE
        tone = (0.3 * np.sin(2 * np.pi * (np.floor(t) + 1) * 220 * t)).astype(np.float32)
        for start in range(0, len(tone), 1024):
            frame = av.AudioFrame.from_ndarray(tone[None, start:start + 1024], format="fltp", layout="mono")
            frame.sample_rate, frame.pts = RATE, start
            c.mux(a.encode(frame))
        c.mux(v.encode())
        c.mux(a.encode())
    return path


def decoded(path: Path) -> tuple[list[np.ndarray], np.ndarray]:
    with av.open(str(path)) as c:
        frames = [f.to_ndarray(format="rgb24") for f in c.decode(video=0)]
    with av.open(str(path)) as c:
        sound = np.concatenate([f.to_ndarray()[0] for f in c.decode(audio=0)])
    return frames, sound


def dominant_hz(samples: np.ndarray) -> float:
    spectrum = np.abs(np.fft.rfft(samples * np.hanning(len(samples))))
    return float(np.fft.rfftfreq(len(samples), 1 / RATE)[spectrum.argmax()])


def test_stops_run_from_one_beat_end_to_the_next():
    spans = [BeatSpan(0.6, 6.0, {}), BeatSpan(6.0, 17.4, {}), BeatSpan(17.4, 40.0, {})]
    assert [(a, b) for a, b, _ in frame_spans(spans, Fraction(5), 203)] == [(0, 30), (30, 87), (87, 200)]
    # a beat that ends past the clip ends with it; one that adds no frame is no stop
    spans = [BeatSpan(0.0, 1.0, {}), BeatSpan(1.0, 1.01, {}), BeatSpan(1.01, 9.0, {})]
    assert [(a, b) for a, b, _ in frame_spans(spans, Fraction(10), 50)] == [(0, 10), (10, 50)]


@pytest.mark.parametrize("keyframes", [(), (10, 20)], ids=["re-encoded", "stream-copied"])
def test_narrated_pieces_end_their_sound_with_their_last_frame(tmp_path, keyframes):
    clip = narrated_clip(tmp_path / "voiced.mp4", keyframes=keyframes)
    spans = [BeatSpan(0.2, 1.0, {"en": "one"}), BeatSpan(1.0, 2.0, {"en": "two"}),
             BeatSpan(2.0, 3.0, {"en": "three"})]
    beats = cut_beats(clip, spans, "en", tmp_path, "k")
    frames, _ = decoded(clip)
    assert [(b.first, b.end, b.caption) for b in beats] == [(0, 10, "one"), (10, 20, "two"), (20, 30, "three")]
    for b, hz in zip(beats, (220, 440, 660)):
        got, sound = decoded(b.clip)
        assert len(got) == b.end - b.first
        # the clip's own frames: the same bits when the cut falls on keyframes (a stream copy),
        # else encoded again
        error = max(np.abs(g.astype(float) - frames[b.first + i]).mean() for i, g in enumerate(got))
        assert (error == 0) if keyframes else (error < 2), (b.index, error)
        # the sound lasts as long as the frames, within one frame, and is the span's own tone
        assert abs(len(sound) / RATE - (b.end - b.first) / FPS) <= 1 / FPS
        middle = sound[len(sound) // 4: 3 * len(sound) // 4]
        assert abs(dominant_hz(middle) - hz) < 15
