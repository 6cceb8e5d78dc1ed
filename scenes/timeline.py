"""Caption timing without rendering: run a section's ``construct`` with frames skipped.

``render`` writes a scene's subcaptions at ``Scene.time``, which advances one frame
duration per written frame. With manim's animation skipping a ``play`` advances the
clock by its exact run time instead, which drifts from the rendered clock by up to a
frame per ``play``. :func:`section_cues` therefore skips drawing and encoding but
advances the clock by the number of frames the real render would write for each
``play`` (``len(arange(0, run_time, 1/fps))`` for an animation, ``int(run_time / dt)``
for a frozen wait, as manim's Cairo renderer does: the patch
:func:`patches.manim.renderer.frame_clock`), so the cue times it returns are the ones
``render`` writes to the section's ``.srt``, and the section's length is its clip's length.

The scene code runs unchanged (the same ``say``/``settle``); nothing is drawn, so a
whole section takes well under a second to a few seconds.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass

from patches.manim.renderer import frame_clock
from words import config


@dataclass(frozen=True)
class Cue:
    """One caption on screen: its section, beat, text and scene-local times (s)."""

    section: int
    beat: str
    text: str
    start: float
    end: float


@dataclass(frozen=True)
class SectionTiming:
    """A section's cues (scene-local times) and its clip length in seconds."""

    section: int
    cues: list[Cue]
    duration: float
    frames: int
    #: the scene's ``subtitle_beats``: each beat's span and its text in every language
    subtitle_beats: tuple = ()


def section_cues(module: str, scene: str, env: dict[str, str], fps: float, media_dir: str) -> SectionTiming:
    """Run one section's scene with frames skipped; its cues and clip length.

    Parameters
    ----------
    module, scene
        The scene's module (``scenes.s06_one_query_six_numbers``) and class name.
    env
        The ``ATTN_*`` environment of the render (language, head, ...); captions are
        forced to ``burned`` so the cues are the burned ones.
    fps
        The frame rate of the render whose clock is reproduced.
    media_dir
        Where manim may cache text outlines (nothing else is written).
    """
    from manim import tempconfig

    settings = {
        "frame_rate": fps, "pixel_width": 256, "pixel_height": 144,
        "skip_animations": True, "dry_run": True, "write_to_movie": False,
        "save_last_frame": False, "disable_caching": True, "progress_bar": "none",
        "verbosity": "ERROR", "notify_outdated_version": False, "preview": False,
        "media_dir": media_dir, "text_dir": os.path.join(media_dir, "texts"),
        "tex_dir": os.path.join(media_dir, "Tex"),
    }
    timed = config.current().with_scene(env).replace(captions="burned")
    with config.using(timed), frame_clock(), tempconfig(settings):
        cls = getattr(importlib.import_module(module), scene)
        sc = cls(skip_animations=True)
        sc.timing_only = True   # timed as the movie render, end fade included
        sc.render()
        frames = sc.renderer._timeline_frames
        cues = [Cue(sc.SECTION, beat, text, start, end) for beat, text, start, end in sc.cue_log]
    return SectionTiming(sc.SECTION, cues, frames / fps, frames,
                         tuple(tuple(b) for b in getattr(sc, "subtitle_beats", ())))
