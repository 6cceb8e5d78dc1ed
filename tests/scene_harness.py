"""Render a section's last frame in-process at a tiny resolution, and compare it.

Used by the scene tests. Rendering is real (manim's Cairo renderer, the pinned
font); with a still as output manim skips the intermediate frames, so a scene
costs about as much as building its mobjects once.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

import numpy as np

CONTROL_DIR = Path(__file__).resolve().parent / "control"
SIZE = (256, 144)


@contextlib.contextmanager
def scene_env(lang: str = "ja", theme: str = "dark", captions: str = "burned",
              head: str | None = None):
    """Set the scene configuration variables for the duration of the block."""
    new = {"ATTN_LANG": lang, "ATTN_THEME": theme, "ATTN_CAPTIONS": captions}
    if head:
        new["ATTN_HEAD"] = str(head)
    old = {k: os.environ.get(k) for k in list(new) + ["ATTN_HEAD"]}
    os.environ.update(new)
    if not head:
        os.environ.pop("ATTN_HEAD", None)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def render_last_frame(section, lang: str = "ja", theme: str = "dark", captions: str = "burned",
                      head: str | None = None, size: tuple[int, int] = SIZE):
    """Render ``section``'s scene and return ``(last frame as RGB uint8 array, scene)``."""
    from manim import tempconfig

    from scenes.registry import load_scene_class

    cls = load_scene_class(section)
    with tempfile.TemporaryDirectory() as media, scene_env(lang, theme, captions, head):
        with tempconfig({
            "pixel_width": size[0], "pixel_height": size[1], "frame_rate": 5,
            "media_dir": media, "disable_caching": True, "save_last_frame": True,
            "write_to_movie": False, "progress_bar": "none", "verbosity": "WARNING",
        }):
            scene = cls()
            scene.render()
            frame = np.array(scene.renderer.get_frame())[:, :, :3].copy()
    return frame, scene


def compare(name: str, frame: np.ndarray, update: bool, tol_mean: float = 3.0,
            tol_bad: float = 0.01) -> None:
    """Assert ``frame`` matches ``control/<name>.png`` (or write it when ``update``).

    Tolerant to anti-aliasing noise (cairo and font versions), strict on layout:
    the mean absolute difference must stay under ``tol_mean`` (of 255) and at
    most ``tol_bad`` of the pixels may differ by more than 64.
    """
    from PIL import Image

    path = CONTROL_DIR / f"{name}.png"
    if update or not path.exists():
        if not update:
            raise AssertionError(f"no control image {path.name}: run pytest --set_test")
        CONTROL_DIR.mkdir(exist_ok=True)
        Image.fromarray(frame).save(path)
        return
    ref = np.array(Image.open(path).convert("RGB"))
    assert ref.shape == frame.shape, f"{name}: size {frame.shape} != control {ref.shape}"
    diff = np.abs(ref.astype(int) - frame.astype(int))
    mean = float(diff.mean())
    bad = float((diff.max(axis=2) > 64).mean())
    assert mean <= tol_mean and bad <= tol_bad, (
        f"{name}: frame differs from control (mean {mean:.2f}, {bad:.2%} pixels off); "
        f"if the change is intended, regenerate with pytest --set_test")
