"""manim's Cairo renderer patched for the length of a block: renders whose frames are skipped.

Two context managers, each replacing a few renderer methods inside its ``with`` block and
putting manim's own back on leaving it (also on an error):

- :func:`drawing_only_outside_plays`: a still and the layout probe (:mod:`scenes.last_frame`,
  ``pipeline/kinds.py``'s still) draw only the frames that are kept, never the two manim draws
  in each skipped ``play``;
- :func:`frame_clock`: the caption timing pass (:func:`scenes.timeline.section_cues`) advances
  the scene's clock by the whole frames a render would write for each skipped ``play``.

Neither imports manim before its block starts, so importing this module (as
:mod:`scenes.timeline` and :mod:`scenes.last_frame` do) loads no manim.
"""

from __future__ import annotations

import contextlib

import numpy as np

__all__ = ["drawing_only_outside_plays", "frame_clock", "frames_of_play"]


@contextlib.contextmanager
def drawing_only_outside_plays():
    """Skip drawing frames inside ``play`` while animations are skipped.

    With a still as output manim skips every animation, yet still draws each play's static
    background and its end state (two full frames per ``play``, none of them kept). Inside a
    skipped play nothing is drawn and no static background is kept, so any frame drawn
    later starts from a clean background: the last frame (``scene_finished`` resets the
    background first) and a frame drawn between plays (``renderer.update_frame``, as the
    contact sheet does). What only drawing reads is not made either: the split of the scene
    into moving and static mobjects (a walk of every family, each play) and the copy of the
    undrawn frame that ``render`` hands to a writer that drops it.
    """
    from manim import Scene
    from manim.renderer.cairo_renderer import CairoRenderer

    play, update_frame = CairoRenderer.play, CairoRenderer.update_frame
    save_static, render = CairoRenderer.save_static_frame_data, CairoRenderer.render
    moving_and_static = Scene.get_moving_and_static_mobjects

    def play_undrawn(self, *args, **kwargs):
        self._in_play = True
        try:
            return play(self, *args, **kwargs)
        finally:
            self._in_play = False

    def skipped(self) -> bool:
        return getattr(self, "_in_play", False) and self.skip_animations

    def update_frame_outside_plays(self, *args, **kwargs):
        return None if skipped(self) else update_frame(self, *args, **kwargs)

    def save_static_outside_plays(self, *args, **kwargs):
        if skipped(self):
            self.static_image = None
            return None
        return save_static(self, *args, **kwargs)

    def render_outside_plays(self, *args, **kwargs):
        return None if skipped(self) else render(self, *args, **kwargs)

    def moving_and_static_outside_plays(scene, *args, **kwargs):
        if skipped(scene.renderer):
            return [], []
        return moving_and_static(scene, *args, **kwargs)

    patched = (play_undrawn, update_frame_outside_plays, save_static_outside_plays, render_outside_plays)
    (CairoRenderer.play, CairoRenderer.update_frame,
     CairoRenderer.save_static_frame_data, CairoRenderer.render) = patched
    Scene.get_moving_and_static_mobjects = moving_and_static_outside_plays
    try:
        yield
    finally:
        (CairoRenderer.play, CairoRenderer.update_frame,
         CairoRenderer.save_static_frame_data, CairoRenderer.render) = play, update_frame, save_static, render
        Scene.get_moving_and_static_mobjects = moving_and_static


def frames_of_play(run_time: float, fps: float, frozen: bool) -> int:
    """Frames manim's Cairo renderer writes for one ``play`` of ``run_time`` seconds."""
    dt = 1 / fps
    if frozen:
        return int(run_time / dt)
    return len(np.arange(0, run_time, dt))


@contextlib.contextmanager
def frame_clock():
    """Patch the Cairo renderer so a skipped ``play`` advances time by whole frames.

    With manim's animation skipping a ``play`` advances the clock by its exact run time,
    which drifts from a render's clock by up to a frame per ``play``. Inside the block it
    advances by :func:`frames_of_play` frames (``len(arange(0, run_time, 1/fps))`` for an
    animation, ``int(run_time / dt)`` for a frozen wait, as the Cairo renderer writes them),
    and the renderer counts them in ``_timeline_frames``.
    """
    from manim.renderer.cairo_renderer import CairoRenderer

    orig_play, orig_freeze = CairoRenderer.play, CairoRenderer.freeze_current_frame

    def freeze(self, duration):
        self._timeline_frozen = True
        return orig_freeze(self, duration)

    def play(self, scene, *args, **kwargs):
        t0, self._timeline_frozen = self.time, False
        orig_play(self, scene, *args, **kwargs)
        frozen = self._timeline_frozen
        n = frames_of_play(scene.duration, self.camera.frame_rate, frozen)
        # the same float additions as the Cairo renderer's add_frame, so waits computed
        # from the clock round to the same frame counts
        dt = 1 / self.camera.frame_rate
        self.time = t0
        if frozen:
            self.time += n * dt
        else:
            for _ in range(n):
                self.time += dt
        self._timeline_frames = getattr(self, "_timeline_frames", 0) + n

    CairoRenderer.play, CairoRenderer.freeze_current_frame = play, freeze
    try:
        yield
    finally:
        CairoRenderer.play, CairoRenderer.freeze_current_frame = orig_play, orig_freeze
