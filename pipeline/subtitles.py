"""Subtitles in every language and every container: the tracks of a clip, its sidecar files
(``.srt``, ``.vtt``) and its soft subtitle streams (MP4 ``mov_text``).

A clip is rendered in one caption language, and its pacing is that language's: the rendered
cues (the scene's ``.srt``) are that language's track. Every other language gets its track
from the beats: a scene exposes ``subtitle_beats``, one ``(start, end, {lang: text})`` per
beat it said, with the beat's span in the rendered clip and its whole text in every
language. The other language's text is broken into its own cues
(:func:`words.cues.cues_of`: the same line breaking, kinsoku included, as a render in
that language) and its cues share the beat's span in proportion to their reading times, so
a beat that is one cue in one language and two in the other keeps its place in the video.

The MP4 streams are encoded with PyAV: the subrip decoder parses each track's ``.srt`` (as
``ffmpeg -i x.srt -c:s mov_text`` would) and the ``mov_text`` encoder is given the decoder's
ASS subtitle header, which it needs to open. The caption language comes first and is the
default stream; every stream is tagged with its ISO 639-2 language.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from .options import LANGS

__all__ = [
    "LANGS", "ISO_639_2", "SUBTITLE_TIME_BASE", "Track", "track_order", "beat_cues", "tracks_of",
    "srt_name", "vtt_name", "sidecar_names", "store_files", "write_sidecars", "to_vtt",
    "SubtitleFeed", "add_subtitle_streams", "remux_with_subtitles", "tracks_from_mapping",
]

#: ISO 639-2 codes of the subtitle languages (what MP4 language tags and ffprobe show).
ISO_639_2 = {"ja": "jpn", "en": "eng"}
#: Subtitle packets are timed in milliseconds, as ``.srt`` is.
SUBTITLE_TIME_BASE = Fraction(1, 1000)


@dataclass(frozen=True)
class Track:
    """One language's subtitles: ``cues`` are :class:`srt.Subtitle` in time order."""

    lang: str
    cues: tuple

    @property
    def srt_text(self) -> str:
        import srt

        return srt.compose(list(self.cues), reindex=True)


def track_order(caption_lang: str) -> tuple[str, ...]:
    """The subtitle languages, the caption language first (it is the default stream)."""
    return (caption_lang, *(lang for lang in LANGS if lang != caption_lang))


def beat_cues(text: str, lang: str, start: float, end: float) -> list:
    """``text`` (a whole beat) as ``lang``'s cues inside ``[start, end)`` seconds.

    The cues are :func:`words.cues.cues_of` (one, or two for a long beat, each broken
    into lines by the project's breaker); each gets a share of the span proportional to its
    reading time, so the two halves of a long beat are each up as long as they need
    relative to the other.
    """
    import srt

    from words import cues as captions

    parts = captions.cues_of(text, lang)
    weights = [captions.reading_time(p.replace("\n", " "), lang) for p in parts]
    total = sum(weights)

    def ms(t: float) -> dt.timedelta:
        # whole milliseconds cut as the srt library writes them (manim's .srt too), so a
        # beat's end is the rendered cue's end to the millisecond
        return dt.timedelta(milliseconds=dt.timedelta(seconds=t) // dt.timedelta(milliseconds=1))

    out, t = [], start
    for i, (part, w) in enumerate(zip(parts, weights)):
        t_end = end if i == len(parts) - 1 else t + (end - start) * w / total
        out.append(srt.Subtitle(0, ms(t), ms(t_end), part))
        t = t_end
    return out


def tracks_of(caption_lang: str, rendered_srt: str, beats: Sequence | None) -> list[Track]:
    """The clip's tracks, the caption language first.

    ``rendered_srt`` is the clip's own ``.srt`` (the rendered language's cues); ``beats``
    the scene's ``subtitle_beats`` (``(start, end, {lang: text})``), or None for a scene
    that has none (it then has one track).
    """
    import srt

    tracks = [Track(caption_lang, tuple(srt.parse(rendered_srt)))]
    if not beats:
        return tracks
    for lang in track_order(caption_lang)[1:]:
        cues = []
        for start, end, texts in beats:
            if lang in texts and start is not None and end is not None and end > start:
                cues += beat_cues(texts[lang], lang, start, end)
        tracks.append(Track(lang, tuple(srt.sort_and_reindex(cues))))
    return tracks


# ---------------------------------------------------------------------- sidecar files


def srt_name(stem: str, lang: str) -> str:
    """``explainer.ja.srt``: one language's subtitles beside the video ``stem``."""
    return f"{stem}.{lang}.srt"


def vtt_name(stem: str, lang: str) -> str:
    """``explainer.en.vtt``: the same as WebVTT (browsers' ``<track>``)."""
    return f"{stem}.{lang}.vtt"


def sidecar_names(stem: str, langs: Iterable[str] = LANGS) -> list[str]:
    """Every sidecar file of ``stem``: an ``.srt`` and a ``.vtt`` per language."""
    return [name(stem, lang) for lang in langs for name in (srt_name, vtt_name)]


def to_vtt(cues: Iterable) -> str:
    """WebVTT text of ``cues`` (:class:`srt.Subtitle`), through ``webvtt-py``."""
    import webvtt

    def stamp(t: dt.timedelta) -> str:
        ms = round(t.total_seconds() * 1000)
        return f"{ms // 3_600_000:02d}:{ms // 60_000 % 60:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}"

    vtt = webvtt.WebVTT(captions=[webvtt.Caption(start=stamp(c.start), end=stamp(c.end), text=c.content)
                                  for c in cues])
    return vtt.content


def write_sidecars(folder: Path, stem: str, tracks: Sequence[Track], write) -> None:
    """Write ``stem.<lang>.srt`` and ``.vtt`` of every track into ``folder`` with ``write``
    (``write(path, text)``, e.g. :func:`pipeline.files.atomic_write`)."""
    for t in tracks:
        write(folder / srt_name(stem, t.lang), t.srt_text)
        write(folder / vtt_name(stem, t.lang), to_vtt(t.cues))


def store_files(key: str, langs: Iterable[str]) -> dict[str, str]:
    """A stored clip's sidecar files as ``{suffix: file name}`` (``{"ja.srt": "<key>.ja.srt"}``)."""
    return {name[len(key) + 1:]: name for name in sidecar_names(key, langs)}


# ---------------------------------------------------------------------- MP4 streams


class SubtitleFeed:
    """The subtitle packets of an output container, muxed in time with its other packets.

    MP4 interleaves by time: :meth:`until` muxes every subtitle packet that starts before a
    given time (call it before each video or audio packet), :meth:`flush` the rest.
    """

    def __init__(self, container, packets: list):
        self.container = container
        self.packets = sorted(packets, key=lambda p: int(p.pts or 0))
        self.next = 0

    def until(self, seconds: float | Fraction) -> None:
        while self.next < len(self.packets) and int(self.packets[self.next].pts or 0) * SUBTITLE_TIME_BASE <= seconds:
            self.container.mux(self.packets[self.next])
            self.next += 1

    def flush(self) -> None:
        self.until(float("inf"))


def _encode_track(container, track: Track, default: bool) -> list:
    """Add ``track`` as a ``mov_text`` stream of ``container``; its packets, not yet muxed."""
    import av

    packets = []
    with av.open(io.BytesIO(track.srt_text.encode("utf-8")), mode="r", format="srt") as source:
        decoder = source.streams.subtitles[0].codec_context
        decoder.open()
        stream = container.add_stream("mov_text")
        stream.time_base = SUBTITLE_TIME_BASE
        stream.metadata["language"] = ISO_639_2.get(track.lang, track.lang)
        stream.disposition = av.stream.Disposition.default if default else av.stream.Disposition(0)
        # the encoder cannot open without an ASS header: the subrip decoder's is the one
        # ffmpeg itself passes on when it converts .srt to mov_text
        stream.codec_context.subtitle_header = decoder.subtitle_header
        for packet in source.demux(source.streams.subtitles[0]):
            if packet.size == 0:
                continue
            subtitle_set = decoder.decode2(packet)
            if subtitle_set is None:
                continue
            out = stream.codec_context.encode_subtitle(subtitle_set)
            out.stream = stream
            out.time_base = SUBTITLE_TIME_BASE
            out.pts = out.dts = packet.pts
            out.duration = packet.duration
            packets.append(out)
    return packets


def add_subtitle_streams(container, tracks: Sequence[Track]) -> SubtitleFeed:
    """Add one ``mov_text`` stream per track (the first is the default) to ``container``,
    before anything is muxed; the returned feed muxes their packets."""
    packets = []
    for i, track in enumerate(tracks):
        packets += _encode_track(container, track, default=i == 0)
    return SubtitleFeed(container, packets)


def remux_with_subtitles(src: Path, dest: Path, tracks: Sequence[Track]) -> None:
    """Copy ``src``'s video and audio packets into ``dest`` (MP4) with ``tracks`` as
    subtitle streams; nothing is decoded or re-encoded but the subtitles."""
    import av

    with av.open(str(src), mode="r") as inp, av.open(str(dest), mode="w", format="mp4",
                                         options={"movflags": "+faststart"}) as out:
        copied = [s for s in (*inp.streams.video[:1], *inp.streams.audio[:1])]
        targets = {s.index: out.add_stream_from_template(template=s) for s in copied}
        for k, v in inp.metadata.items():
            out.metadata[k] = v
        feed = add_subtitle_streams(out, tracks)
        for packet in inp.demux(*copied):
            if packet.dts is None:
                continue
            feed.until(int(packet.pts or 0) * packet.time_base)
            packet.stream = targets[packet.stream.index]
            out.mux(packet)
        feed.flush()


def tracks_from_mapping(by_lang: Mapping[str, str], order: Sequence[str]) -> list[Track]:
    """Tracks from ``{lang: srt text}``, in ``order`` (languages missing from it are left out)."""
    import srt

    return [Track(lang, tuple(srt.parse(by_lang[lang]))) for lang in order if lang in by_lang]
