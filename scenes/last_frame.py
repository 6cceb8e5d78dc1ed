"""A section's last frame, rendered with its animations skipped (nothing encoded).

What the layout probe (:mod:`scenes.probe`), the contact sheets and the scene tests render:
the scene builds every mobject and runs every beat, and only the frames asked for are drawn.
"""

from __future__ import annotations

import contextlib
import tempfile

import numpy as np

from patches.manim.renderer import drawing_only_outside_plays
from words import config

__all__ = ["SIZE", "render_last_frame"]

#: The tests' frame size (pixels).
SIZE = (256, 144)


@contextlib.contextmanager
def _settings(lang: str, theme: str, captions: str, head: str | None):
    """The scene's language, theme, captions and head for the block (the other scene
    variables as they are: a captions file or section folders of the caller apply)."""
    new = {config.LANG.name: lang, config.THEME.name: theme, config.CAPTIONS.name: captions}
    if head:
        new[config.HEAD.name] = str(head)
    with config.scene_settings(new, clear=() if head else (config.HEAD.name,)):
        yield


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
    with (tempfile.TemporaryDirectory() as media, _settings(lang, theme, captions, head),
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
