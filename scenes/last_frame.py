"""A section's last frame, rendered with its animations skipped (nothing encoded).

What the layout probe (:mod:`scenes.probe`), the contact sheets and the scene tests render:
the scene builds every mobject and runs every beat, and only the frames asked for are drawn.
"""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

import numpy as np

from words import config

__all__ = ["SIZE", "drawing_only_outside_plays", "render_last_frame"]

#: The tests' frame size (pixels).
SIZE = (256, 144)


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


def _settings(lang: str, theme: str, captions: str, head: str | None) -> config.Settings:
    """This run's settings with the scene's language, theme, captions and head (the other
    settings as they are: a captions file or section folders of the caller apply)."""
    return config.current().replace(lang=lang, theme=theme, captions=captions,
                                    head=Path(head) if head else None)


def render_last_frame(section, lang: str = "ja", theme: str = "dark", captions: str = "burned",
                      head: str | None = None, size: tuple[int, int] = SIZE, at_end=None,
                      text_dir: str | None = None):
    """Render ``section``'s scene and return ``(last frame as RGB uint8 array, scene)``.

    ``at_end(scene)``, if given, is called once the scene has finished, still under the
    render's configuration. ``text_dir``: where manim keeps each text's SVG (a folder shared
    by many renders lays a text out once); default: a folder of this render's own.
    """
    from manim import tempconfig

    from scenes.registry import load_scene_class

    cls = load_scene_class(section)
    with (tempfile.TemporaryDirectory() as media, config.using(_settings(lang, theme, captions, head)),
          tempconfig({
              "pixel_width": size[0], "pixel_height": size[1], "frame_rate": 5,
              "media_dir": media, "text_dir": text_dir or f"{media}/texts", "disable_caching": True,
              "save_last_frame": True, "write_to_movie": False, "progress_bar": "none",
              "verbosity": "WARNING"}),
          drawing_only_outside_plays()):
        scene = cls()
        scene.render()
        frame = np.array(scene.renderer.get_frame())[:, :, :3].copy()
        if at_end is not None:
            at_end(scene)
    return frame, scene
