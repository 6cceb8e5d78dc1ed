"""A section's last frame, rendered with its animations skipped (nothing encoded).

What the layout probe (:mod:`scenes.probe`), the contact sheets and the scene tests render:
the scene builds every mobject and runs every beat, and only the frames asked for are drawn.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

from patches.manim.renderer import drawing_only_outside_plays
from words import config

__all__ = ["SIZE", "render_last_frame"]

#: The tests' frame size (pixels).
SIZE = (256, 144)


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
