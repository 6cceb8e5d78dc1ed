"""Clips as media: probing their streams, cleaning and merging subtitles, and joining clips
into one MP4 with chapters by stream copy (never re-encoding)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from .files import tmp_name, unlink

if TYPE_CHECKING:
    from av.container.core import Chapter


def probe_clip(path: Path) -> dict:
    """Duration and stream parameters of a clip, from its packets (no decoding)."""
    import av

    with av.open(str(path)) as c:
        s = c.streams.video[0]
        tb = s.time_base
        if tb is None:
            raise RuntimeError(f"{path.name}: a video stream without a time base")
        start, end, frames = None, 0, 0
        for p in c.demux(s):
            if p.pts is None:
                continue
            frames += 1
            start = p.pts if start is None else min(start, p.pts)
            end = max(end, p.pts + (p.duration or 0))
        cc = s.codec_context
        return {
            "time_base": [tb.numerator, tb.denominator],
            "start_ts": start or 0,
            "end_ts": end,
            "frames": frames,
            "duration": float((end - (start or 0)) * tb),
            "fps": str(s.average_rate),
            "width": cc.width,
            "height": cc.height,
            "codec": cc.name,
            "pix_fmt": cc.pix_fmt,
            "extradata": hashlib.sha256(bytes(cc.extradata or b"")).hexdigest()[:16],
            "audio": _probe_audio(c),  # a narrated clip
        }


def _probe_audio(container) -> dict | None:
    """The audio stream's parameters (a narrated clip's AAC track), or None."""
    if not container.streams.audio:
        return None
    a = container.streams.audio[0]
    cc = a.codec_context
    return {"codec": cc.name, "rate": cc.sample_rate, "layout": cc.layout.name,
            "time_base": [a.time_base.numerator, a.time_base.denominator],
            "extradata": hashlib.sha256(bytes(cc.extradata or b"")).hexdigest()[:16]}


def clean_subtitles(text: str, duration: float) -> list:
    """Parse a scene's .srt, drop cues outside ``[0, duration)``, clip ends, order them."""
    import datetime as dt

    import srt

    limit = dt.timedelta(seconds=duration)
    cues = []
    for cue in srt.parse(text):
        start = max(cue.start, dt.timedelta(0))
        end = min(cue.end, limit)
        if start >= limit or end <= start:
            continue
        cues.append(srt.Subtitle(index=0, start=start, end=end, content=cue.content))
    return list(srt.sort_and_reindex(cues))


def merge_subtitles(parts: Sequence[tuple[str, float]], total: float) -> str:
    """One .srt from ``(clip srt text, clip start in s)`` pairs, in order, inside ``total``."""
    import datetime as dt

    import srt

    cues = []
    for text, offset in parts:
        shift = dt.timedelta(seconds=offset)
        for cue in srt.parse(text):
            cues.append(srt.Subtitle(0, cue.start + shift, cue.end + shift, cue.content))
    limit = dt.timedelta(seconds=total)
    cues = [srt.Subtitle(0, c.start, min(c.end, limit), c.content) for c in cues if c.start < limit]
    return srt.compose(list(srt.sort_and_reindex(cues)))


def stitch(clips: Sequence[tuple[Path, dict, str]], dest: Path, title: str, lang: str,
           subtitle_tracks: Sequence = ()) -> float:
    """Join clips by stream copy into ``dest`` with one chapter per clip; returns its duration.

    ``clips`` are ``(path, probe_clip() dict, chapter title)``. Packets are copied, never
    decoded; each clip's timestamps are shifted by the durations of the clips before it.
    A narrated clip's audio track is copied the same way, each clip's audio cut at its
    video's end so the next clip's audio starts with its picture. ``subtitle_tracks``
    (:class:`pipeline.subtitles.Track`, the joined video's cues) become its ``mov_text``
    streams, the first the default. Written to a temporary name and renamed.
    """
    import av

    from .subtitles import ISO_639_2, add_subtitle_streams

    if not clips:
        raise ValueError("nothing to stitch")
    first = clips[0][1]
    for path, info, _ in clips[1:]:
        for k in ("time_base", "width", "height", "codec", "pix_fmt", "extradata", "audio"):
            if info.get(k) != first.get(k):
                raise RuntimeError(
                    f"{path.name} differs from {clips[0][0].name} in {k} ({info[k]} vs {first[k]}): "
                    "clips cannot be joined without re-encoding; re-render with --force")
    tb = Fraction(*first["time_base"])
    starts, t = [], 0
    for _, info, _ in clips:
        starts.append(t)
        t += info["end_ts"] - info["start_ts"]
    total_ts = t
    chapters: list[Chapter] = [
        {"id": i + 1, "start": starts[i], "end": starts[i] + info["end_ts"] - info["start_ts"],
         "time_base": tb, "metadata": {"title": name}}
        for i, (_, info, name) in enumerate(clips)
    ]
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = tmp_name(dest)
    try:
        out = av.open(str(tmp), mode="w", format="mp4", options={"movflags": "+faststart"})
        try:
            out.metadata["title"] = title
            out.metadata["language"] = ISO_639_2.get(lang, lang)
            ostream = astream = None
            for i, (path, info, _) in enumerate(clips):
                with av.open(str(path)) as inp:
                    istream = inp.streams.video[0]
                    iaudio = inp.streams.audio[0] if first.get("audio") else None
                    if ostream is None:
                        ostream = out.add_stream_from_template(template=istream)
                        if iaudio is not None:
                            astream = out.add_stream_from_template(template=iaudio)
                        out.set_chapters(chapters)
                        feed = add_subtitle_streams(out, subtitle_tracks)
                    shift = starts[i] - info["start_ts"]
                    if iaudio is not None:  # the clip's place and length in audio ticks
                        atb = iaudio.time_base or tb
                        a_shift = round(starts[i] * tb / atb) - (iaudio.start_time or 0)
                        a_limit = (iaudio.start_time or 0) + round(
                            (info["end_ts"] - info["start_ts"]) * tb / atb)
                    for packet in inp.demux(*(s for s in (istream, iaudio) if s is not None)):
                        if packet.dts is None or packet.pts is None:  # the flushing packet demux() ends with
                            continue
                        if packet.stream.type == "audio":
                            if packet.pts >= a_limit or astream is None:  # past the picture: the next clip's time
                                continue
                            packet.pts += a_shift
                            packet.dts += a_shift
                            packet.stream = astream
                        else:
                            packet.pts += shift
                            packet.dts += shift
                            packet.stream = ostream
                        feed.until(packet.pts * packet.time_base)
                        out.mux(packet)
            feed.flush()
        finally:
            out.close()
        os.replace(tmp, dest)
    finally:
        unlink(tmp)
    return float(total_ts * tb)

