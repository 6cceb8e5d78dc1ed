"""What a run makes of each section: a clip (``render``, ``slides``) or a still (``stills``).

Each output kind is one :class:`OutputKind` in :data:`KINDS`: what manim writes, which files
a finished store entry holds, where the output is published, whether it is joined into the
video. The build, the cache and the worker ask the kind; none of them compares kind names.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from . import subtitles
from .files import atomic_write
from .media import clean_subtitles, probe_clip
from .poster import end_state_png, scaled_png

__all__ = ["OutputKind", "CLIP", "STILL", "KINDS", "BEATS_SUFFIX", "END_STATE_SUFFIX", "beats_record"]

#: The store file beside a clip that keeps its caption beats (``<key>.beats``, JSON; not
#: ``.json``: the store counts its entries by their ``.json`` metas). The stepped decks
#: (:mod:`slides.beats`) stop at the beats' ends.
BEATS_SUFFIX = ".beats"
#: The store file beside a clip that holds its end state as a PNG (``<key>.end.png``, and the
#: page-sized ``<key>.end.wWIDTH.png``): pruned with the clip, as they share its key.
END_STATE_SUFFIX = ".end.png"


def beats_record(beats, duration: float) -> str:
    """The ``.beats`` file of a clip: each beat the scene said (``subtitle_beats``) with its
    span in seconds, clipped to the clip, and its text in every language."""
    import json

    out = [{"start": float(s), "end": min(float(e), duration), "captions": dict(texts)}
           for s, e, texts in beats or () if s is not None and e is not None]
    return json.dumps(out, ensure_ascii=False, indent=1)


def subtitled_clip(movie: Path, store: Path, key: str, lang: str, rendered_srt: str, beats, meta: dict) -> Path:
    """The clip with a subtitle stream per language, and their ``.srt``/``.vtt`` in the store.

    ``beats`` is the scene's ``subtitle_beats`` (:mod:`pipeline.subtitles`), clipped to the
    clip; ``meta["subtitles"]`` records the languages written.
    """
    if beats:
        beats = [(start, min(end, meta["duration"]), texts) for start, end, texts in beats]
    tracks = subtitles.tracks_of(lang, rendered_srt, beats)
    subtitles.write_sidecars(store, key, tracks, atomic_write)
    meta["subtitles"] = [t.lang for t in tracks]
    dest = movie.with_name(movie.stem + ".subtitled.mp4")
    subtitles.remux_with_subtitles(movie, dest, tracks)
    meta.update(probe_clip(dest))   # the stored clip's own timestamps, which stitch() copies
    return dest


def _store_clip(staging: Path, store: Path, key: str, captions: str, lang: str = "ja", beats=None) -> dict:
    """Move manim's movie (and its subtitles, cleaned, with a subtitle stream and sidecars per
    language from the scene's ``beats``) into the store; the clip's meta."""
    movies = sorted((staging / "video").glob("*.mp4"))
    if not movies:
        raise RuntimeError("manim wrote no video (does the scene play anything?)")
    movie = movies[0]
    meta = probe_clip(movie)
    meta["kind"] = CLIP.name
    if meta["frames"] == 0:
        raise RuntimeError("manim wrote an empty video")
    if beats:
        atomic_write(store / f"{key}{BEATS_SUFFIX}", beats_record(beats, meta["duration"]))
    if captions != "none":
        srt_file = movie.with_suffix(".srt")
        text = srt_file.read_text(encoding="utf-8") if srt_file.exists() else ""
        import srt

        cues = srt.compose(clean_subtitles(text, meta["duration"]))
        atomic_write(store / f"{key}.srt", cues)
        movie = subtitled_clip(movie, store, key, lang, cues, beats, meta)
    os.replace(movie, store / f"{key}{CLIP.suffix}")
    # The clip's end state, for the pages that show it (a deck's poster, the transcript's still),
    # made here in the section's own process rather than one after another when the run ends.
    end = end_state_png(store / f"{key}{CLIP.suffix}", store / f"{key}{END_STATE_SUFFIX}")
    scaled_png(end)
    return meta


def _store_still(staging: Path, store: Path, key: str, captions: str, lang: str = "ja",  # noqa: ARG001
                 beats=None) -> dict:  # noqa: ARG001
    """Move manim's last frame into the store; the still's meta."""
    pngs = sorted((staging / "images").rglob("*.png"))
    if not pngs:
        raise RuntimeError("manim wrote no PNG")
    os.replace(pngs[-1], store / f"{key}{STILL.suffix}")
    return {"kind": STILL.name}


def _every_frame() -> contextlib.AbstractContextManager:
    """A clip draws every frame of every play."""
    return contextlib.nullcontext()


def _last_frame_only() -> contextlib.AbstractContextManager:
    """A still is the scene's last frame, drawn once from a clean background when the scene
    finishes: the two frames manim draws per skipped play (its static background and its
    end state) are never kept, so they are not drawn (about a sixth of a still's time)."""
    from patches.manim.renderer import drawing_only_outside_plays

    return drawing_only_outside_plays()


@dataclass(frozen=True)
class OutputKind:
    """One kind of output.

    Attributes
    ----------
    name
        Its name in cache keys, log names and render jobs (``clip``, ``still``).
    command
        The command that makes it, as the manifest's ``last_run`` records it.
    folder
        The folder of ``--out`` it is published to, and its key in ``manifest.json``.
    suffix
        The stored (and published) file's suffix.
    manim_format
        manim's ``format`` setting that writes it.
    subtitled
        Whether it carries an ``.srt`` (unless the captions are ``none``).
    stitched
        Whether a run joins these into ``explainer.mp4``.
    move_to_store
        Moves what manim wrote in a staging folder into the store under a key; returns
        the entry's meta (``move_to_store(staging, store_dir, key, captions, lang, beats)``:
        ``lang`` the render's language, ``beats`` the scene's ``subtitle_beats``).
    drawing
        The context the scene renders in (manim patched to draw only the frames this kind
        keeps).
    """

    name: str
    command: str
    folder: str
    suffix: str
    manim_format: str
    subtitled: bool
    stitched: bool
    move_to_store: Callable[..., dict]
    drawing: Callable[[], contextlib.AbstractContextManager] = _every_frame

    def stored_files(self, store: Path, key: str, captions: str, meta: dict | None = None) -> list[Path]:
        """The files a finished store entry (whose meta is ``meta``) holds besides its meta."""
        files = [store / f"{key}{self.suffix}"]
        if self.subtitled and captions != "none":
            files.append(store / f"{key}.srt")
            files += [store / name for name in subtitles.sidecar_names(key, (meta or {}).get("subtitles", ()))]
        return files

    def published(self, out: Path, stem: str) -> Path:
        """Where a section's output is published in ``out``."""
        return out / self.folder / f"{stem}{self.suffix}"


CLIP = OutputKind("clip", "render", "clips", ".mp4", "mp4", subtitled=True, stitched=True,
                  move_to_store=_store_clip)
STILL = OutputKind("still", "stills", "stills", ".png", "png", subtitled=False, stitched=False,
                   move_to_store=_store_still, drawing=_last_frame_only)

#: Every output kind, by name.
KINDS: dict[str, OutputKind] = {k.name: k for k in (CLIP, STILL)}
