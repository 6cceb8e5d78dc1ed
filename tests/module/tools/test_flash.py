"""No clip flashes more than WCAG 2.3.1's general flash threshold (tools/flash.py).

The measure is first shown to fail where it must (clips made here that flash four times a
second over the whole frame, or over a patch larger than a quarter of a 10-degree field) and
to pass where WCAG passes (a slower flash, a small patch, flicker between two bright states, a
fade). Then the sections with the quickest or largest changes (highlights flashed on and off,
rows stepped, a large block moved aside, the caption bar's swaps, the closing fade) are
rendered at 15 frames a second, small, in both themes, and measured.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import av
import numpy as np
import pytest

from tests.support import ROOT

sys.path.insert(0, str(ROOT))

from tools.flash import MAX_FLASHES, measure_clip  # noqa: E402

FPS = 15
W, H = 160, 90

pytestmark = pytest.mark.xdist_group("flash")


def write_clip(path: Path, frame_of, seconds: float = 3.0) -> Path:
    """An H.264 clip of ``frame_of(i)`` (grey levels 0-255, ``H x W``) at :data:`FPS`."""
    with av.open(str(path), "w") as c:
        v = c.add_stream("libx264", rate=FPS)
        v.width, v.height, v.pix_fmt = W, H, "yuv420p"
        for i in range(int(seconds * FPS)):
            grey = np.clip(frame_of(i), 0, 255).astype(np.uint8)
            c.mux(v.encode(av.VideoFrame.from_ndarray(np.repeat(grey[..., None], 3, axis=2), format="rgb24")))
        c.mux(v.encode())
    return path


def square(share: float, level: int) -> np.ndarray:
    """A black frame with a square of grey ``level`` covering ``share`` of it."""
    img = np.zeros((H, W))
    side = int(np.sqrt(share * H * W))
    img[:side, :side] = level
    return img


SYNTHETIC = {
    # name: (frame of index i, fails)
    "whole frame, 3.75 Hz": (lambda i: np.full((H, W), 255.0 * ((i // 2) % 2)), True),
    "patch of 6 % of the frame, 3.75 Hz": (lambda i: square(0.06, 255 * ((i // 2) % 2)), True),
    "whole frame, 1.9 Hz": (lambda i: np.full((H, W), 255.0 * ((i // 4) % 2)), False),
    "patch of 1.5 % of the frame, 3.75 Hz": (lambda i: square(0.015, 255 * ((i // 2) % 2)), False),
    "bright flicker (darker state above 0.8)": (lambda i: np.full((H, W), 235.0 + 20 * ((i // 2) % 2)), False),
    "dim flicker (under 10 %)": (lambda i: np.full((H, W), 100.0 + 12 * ((i // 2) % 2)), False),
    "slow fade": (lambda i: np.full((H, W), 255.0 * i / (3 * FPS)), False),
}


@pytest.mark.parametrize("name", list(SYNTHETIC))
def test_the_measure_fails_and_passes_where_wcag_does(name, tmp_path):
    frame_of, fails = SYNTHETIC[name]
    report = measure_clip(write_clip(tmp_path / "clip.mp4", frame_of))
    assert report.passes is not fails, report


def test_too_few_frames_a_second_is_refused(tmp_path):
    path = tmp_path / "slow.mp4"
    with av.open(str(path), "w") as c:
        v = c.add_stream("libx264", rate=5)
        v.width, v.height, v.pix_fmt = W, H, "yuv420p"
        for _ in range(10):
            c.mux(v.encode(av.VideoFrame.from_ndarray(np.zeros((H, W, 3), np.uint8), format="rgb24")))
        c.mux(v.encode())
    with pytest.raises(ValueError, match="frames a second"):
        measure_clip(path)


#: Sections with the quickest changes: 17 steps its highlighted row (SNAP) and flashes a
#: highlight, 24 lights and unlights code lines (FLASH), and 14 moves its large centred
#: derivation aside (the most flashes of all 27 clips measured in the light theme: 2 in a
#: second, against 0.5 at most in the dark one); every clip also swaps caption bars and
#: fades out at its end.
SECTIONS = {"dark": "17,24", "light": "14,24"}


@pytest.mark.slow
@pytest.mark.parametrize("theme", list(SECTIONS))
def test_rendered_clips_stay_under_the_general_flash_threshold(theme, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATTN_")}
    out = tmp_path / "out"
    p = subprocess.run([sys.executable, str(ROOT / "render.py"), "--quality", "tiny15", "--theme", theme,
                        "--sections", SECTIONS[theme], "--jobs", "2", "--out", str(out)],
                       env=env, capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stdout + p.stderr
    clips = sorted((out / "clips").glob("*.mp4"))
    assert len(clips) == len(SECTIONS[theme].split(","))
    for clip in clips:
        report = measure_clip(clip)
        assert report.fps == pytest.approx(FPS, rel=1e-3) and report.frames > 10 * FPS
        assert report.max_flashes <= MAX_FLASHES, report
