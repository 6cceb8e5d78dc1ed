"""A section clip cut at its caption beats: the presenter's stops.

A beat is one ``say`` of the section's scene (one caption line, shown as one or two cues):
its span in the clip is on the render's frame clock, so its end is a whole frame. The
stops of a stepped deck are the beats' ends: stop ``i`` plays from the end of beat ``i-1``
(the start of the clip for the first) to the end of beat ``i``, and holds on the beat's
last frame. The closing fade after the last beat is never played in a stepped deck.

The spans are the scene's own (its ``subtitle_beats``), written beside the clip in the store
when it is rendered (``<key>.beats``, :func:`pipeline.kinds.beats_record`). For a clip
rendered before that file existed, they come from running the section's scene with frames
skipped on the render's frame clock (:func:`scenes.timeline.section_cues`, what
``render.py script`` prints), and are then kept in the store the same way.

The pieces are cut without decoding: manim encodes every ``play`` as its own segment and
joins them by stream copy, so each segment starts on a keyframe with a closed GOP, and a
beat starts at a ``play`` (the caption's fade-in, or the wait that times it when the
captions are not burned). A piece is the packets from the keyframe at its first frame to
the keyframe at its end, timestamps shifted to start at zero. :func:`cut_beats` checks that
the packets it takes hold exactly the piece's frames; if a boundary is not a keyframe, that
piece is re-encoded from the decoded frames instead (correct, slower). The audio of a
narrated clip is decoded and re-encoded to the sample for each piece (cheap), so a stop's
sound ends with its last frame. The clips themselves are never changed.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from pipeline.kinds import BEATS_SUFFIX, beats_record

__all__ = ["Beat", "BeatSpan", "beat_spans", "frame_spans", "cut_beats", "PIECES_FORMAT", "POSTER_SUFFIX"]
#: The version of what :func:`cut_beats` writes: bump it and every piece is cut again.
PIECES_FORMAT = 2
#: A beat's poster (its last frame) is a JPEG: a deck holds one per beat, twice (the HTML
#: deck's media and the PowerPoint file), and a PNG of a 720p frame is ~4x the size.
POSTER_SUFFIX = ".jpg"
POSTER_QUALITY = 92


@dataclass(frozen=True)
class BeatSpan:
    """One beat of a clip: its span in seconds (the render's frame clock) and its caption
    in every language the scene has it in."""

    start: float
    end: float
    captions: dict[str, str]


@dataclass(frozen=True)
class Beat:
    """One stop of a stepped deck.

    Attributes
    ----------
    index
        1-based, in the section.
    first, end
        The piece's frames in the section clip: ``first`` to ``end - 1`` (the beat's last
        frame, where the stop holds).
    fps
        The clip's frame rate.
    caption
        The beat's caption in the deck's language.
    clip
        The piece (an MP4 holding frames ``first .. end-1``).
    poster
        A PNG of the piece's last frame.
    """

    index: int
    first: int
    end: int
    fps: Fraction
    caption: str
    clip: Path
    poster: Path

    @property
    def start_s(self) -> float:
        return float(self.first / self.fps)

    @property
    def end_s(self) -> float:
        return float(self.end / self.fps)

    @property
    def duration(self) -> float:
        return float((self.end - self.first) / self.fps)


def beat_spans(section, opts, store: Path, key: str) -> list[BeatSpan]:
    """The beats of ``section``'s clip ``key`` rendered with ``opts``: read from the store,
    else from a run of its scene with frames skipped (then kept in the store)."""
    saved = store / f"{key}{BEATS_SUFFIX}"
    if saved.is_file():
        try:
            return [BeatSpan(b["start"], b["end"], b["captions"]) for b in json.loads(saved.read_text("utf-8"))]
        except (ValueError, KeyError, TypeError):
            pass   # a damaged file: timed again below
    import tempfile

    from pipeline.cache import section_env
    from pipeline.files import atomic_write
    from scenes.timeline import section_cues

    with tempfile.TemporaryDirectory(prefix="attn-beats-") as media:
        timing = section_cues(section.module, section.scene, section_env(section, opts), opts.size[2], media)
    record = beats_record(timing.subtitle_beats, timing.duration)
    atomic_write(saved, record)
    return [BeatSpan(b["start"], b["end"], b["captions"]) for b in json.loads(record)]


def frame_spans(spans: list[BeatSpan], fps: Fraction, frames: int) -> list[tuple[int, int, BeatSpan]]:
    """Each stop's frames ``(first, end, beat)``: from the previous beat's end (0 for the
    first) to its own end, on whole frames and inside the clip's ``frames``."""
    out, first = [], 0
    for b in spans:
        end = min(frames, round(b.end * fps))
        if end > first:
            out.append((first, end, b))
            first = end
    return out


def _clock(stream) -> tuple[Fraction, Fraction]:
    """A video stream's frame rate and time base (a clip without them is not one of ours)."""
    if stream.average_rate is None or stream.time_base is None:
        raise RuntimeError("a video stream without a frame rate or time base")
    return Fraction(stream.average_rate), Fraction(stream.time_base)


def _piece_names(store: Path, key: str, i: int) -> tuple[Path, Path]:
    return store / f"{key}.b{i:02d}.mp4", store / f"{key}.b{i:02d}{POSTER_SUFFIX}"


def cut_beats(clip: Path, spans: list[BeatSpan], lang: str, store: Path, key: str) -> list[Beat]:
    """The pieces of ``clip`` at ``spans`` (in the store beside it, cut once)."""
    import av

    with av.open(str(clip)) as c:
        s = c.streams.video[0]
        fps, _ = _clock(s)
        frames = s.frames or sum(1 for p in c.demux(s) if p.pts is not None)
    stops = frame_spans(spans, fps, frames)
    bounds = [(first, end) for first, end, _ in stops]
    index = store / f"{key}.pieces"
    want = json.dumps({"format": PIECES_FORMAT, "bounds": bounds})
    pieces = [_piece_names(store, key, i) for i in range(1, len(bounds) + 1)]
    done = (index.is_file() and index.read_text("utf-8") == want
            and all(m.is_file() and p.is_file() for m, p in pieces))
    if not done:
        _cut(clip, bounds, pieces)
        from pipeline.files import atomic_write

        atomic_write(index, want)
    return [Beat(i, first, end, fps, _caption(b, lang), m, p)
            for i, ((first, end, b), (m, p)) in enumerate(zip(stops, pieces), 1)]


def _caption(b: BeatSpan, lang: str) -> str:
    text = b.captions.get(lang) or next(iter(b.captions.values()), "")
    return " ".join(text.split())


def _cut(clip: Path, bounds: list[tuple[int, int]], pieces: list[tuple[Path, Path]]) -> None:
    import av

    with av.open(str(clip)) as c:
        s = c.streams.video[0]
        fps, tb = _clock(s)
        packets = [p for p in c.demux(s) if p.size and p.pts is not None]
    frame_of = [round((p.pts or 0) * tb * fps) for p in packets]   # pts checked above
    key_at = {f: i for i, (p, f) in enumerate(zip(packets, frame_of)) if p.is_keyframe}
    audio = _audio_samples(clip)
    for (first, end), (movie, poster) in zip(bounds, pieces):
        lo = key_at.get(first)
        hi = key_at.get(end, len(packets) if end >= max(frame_of) + 1 else None)
        taken = packets[lo:hi] if lo is not None and hi is not None else []
        if taken and sorted(frame_of[lo:hi]) == list(range(first, end)):
            _write_copied(clip, taken, first, movie, audio, fps)
        else:
            _write_reencoded(clip, first, end, movie, audio, fps)
        _last_frame_poster(movie, poster)


def _audio_samples(clip: Path):
    """The clip's audio decoded: ``(samples (channels, n) float32, rate, layout)``, or None.
    Sample 0 is the clip's time 0: a track that starts later is padded with silence before
    it, one that starts earlier (an encoder's priming) has that part dropped."""
    import av
    import numpy as np

    with av.open(str(clip)) as c:
        if not c.streams.audio:
            return None
        a = c.streams.audio[0]
        rate, layout = a.codec_context.sample_rate, a.codec_context.layout.name
        resampler = av.AudioResampler(format="fltp", layout=layout, rate=rate)
        chunks, start = [], None
        for frame in c.decode(a):
            if start is None and frame.time is not None:
                start = frame.time
            for f in resampler.resample(frame):
                chunks.append(f.to_ndarray())
        for f in resampler.resample(None):
            chunks.append(f.to_ndarray())
    samples = np.concatenate(chunks, axis=1) if chunks else np.zeros((1, 0), np.float32)
    offset = round((start or 0.0) * rate)
    if offset > 0:
        samples = np.pad(samples, ((0, 0), (offset, 0)))
    elif offset < 0:
        samples = samples[:, -offset:]
    return samples, rate, layout


def _audio_stream(out, audio):
    """The piece's AAC stream (added before anything is muxed), or None for a silent clip."""
    if audio is None:
        return None
    _, rate, layout = audio
    return out.add_stream("aac", rate=rate, layout=layout)


def _add_audio(out, stream, audio, first: int, end: int, fps: Fraction) -> None:
    """The piece's audio, re-encoded to the sample: ``[first/fps, end/fps)`` of the clip's."""
    import av
    import numpy as np

    if stream is None:
        return
    samples, rate, layout = audio
    lo, hi = round(first / fps * rate), round(end / fps * rate)
    part = np.ascontiguousarray(samples[:, lo:hi])
    if part.shape[1] < hi - lo:   # a track shorter than the video: silence to the end
        part = np.pad(part, ((0, 0), (0, hi - lo - part.shape[1])))
    frame_size = 1024
    for i in range(0, part.shape[1], frame_size):
        chunk = np.ascontiguousarray(part[:, i:i + frame_size])
        frame = av.AudioFrame.from_ndarray(chunk, format="fltp", layout=layout)
        frame.sample_rate, frame.pts, frame.time_base = rate, i, Fraction(1, rate)
        for pkt in stream.encode(frame):
            out.mux(pkt)
    for pkt in stream.encode(None):
        out.mux(pkt)


def _write_copied(clip: Path, taken: list, first: int, dest: Path, audio, fps: Fraction) -> None:
    """The packets ``taken`` (frames ``first ..``) as their own MP4, by stream copy."""
    import av

    from pipeline.files import tmp_name, unlink

    tmp = tmp_name(dest)
    try:
        with av.open(str(clip)) as c, av.open(str(tmp), "w", format="mp4") as out:
            s = c.streams.video[0]
            v = out.add_stream_from_template(s)
            a = _audio_stream(out, audio)
            shift = min(p.pts for p in taken)
            for p in taken:
                p.stream = v
                p.pts -= shift
                if p.dts is not None:
                    p.dts -= shift
                out.mux(p)
            _add_audio(out, a, audio, first, first + len(taken), fps)
        os.replace(tmp, dest)
    finally:
        unlink(tmp)


def _write_reencoded(clip: Path, first: int, end: int, dest: Path, audio, fps: Fraction) -> None:
    """Frames ``first .. end-1`` of ``clip`` decoded and encoded again (a boundary that is
    not a keyframe)."""
    import av

    from pipeline.files import tmp_name, unlink

    tmp = tmp_name(dest)
    try:
        with av.open(str(clip)) as c, av.open(str(tmp), "w", format="mp4") as out:
            s = c.streams.video[0]
            v = out.add_stream("libx264", rate=fps)
            v.width, v.height, v.pix_fmt = s.codec_context.width, s.codec_context.height, "yuv420p"
            v.options = {"crf": "18", "preset": "veryfast"}
            a = _audio_stream(out, audio)
            _, tb = _clock(s)
            for frame in c.decode(s):
                if frame.pts is None:
                    continue
                n = round(frame.pts * tb * fps)
                if first <= n < end:
                    out_frame = frame.reformat(format="yuv420p")
                    out_frame.pts, out_frame.time_base = n - first, Fraction(1) / fps
                    for pkt in v.encode(out_frame):
                        out.mux(pkt)
            for pkt in v.encode(None):
                out.mux(pkt)
            _add_audio(out, a, audio, first, end, fps)
        os.replace(tmp, dest)
    finally:
        unlink(tmp)


def _last_frame_poster(movie: Path, dest: Path) -> None:
    """The piece's last frame (by time) as a JPEG: where its stop holds. Decoded from the
    piece's last keyframe on (every ``play`` of the scene starts one)."""
    import av

    from pipeline.files import tmp_name, unlink

    best = None
    with av.open(str(movie)) as c:
        if c.duration:
            c.seek(max(0, c.duration - 1), backward=True)   # to the keyframe before the end
        for frame in c.decode(video=0):
            if best is None or (frame.pts or 0) >= (best.pts or 0):
                best = frame
    if best is None:
        raise RuntimeError(f"{movie.name} has no decodable frame")
    tmp = tmp_name(dest)
    try:
        best.to_image().save(tmp, format="JPEG", quality=POSTER_QUALITY)
        os.replace(tmp, dest)
    finally:
        unlink(tmp)
