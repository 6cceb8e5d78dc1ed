"""General flashes in a video, measured as WCAG 2.3.1 (Three Flashes or Below Threshold) defines them.

    python tools/flash.py out/explainer.mp4 out/clips/*.mp4

WCAG 2.2's general flash threshold: a *flash* is a pair of opposing changes in relative
luminance of 10 % or more of the maximum (0.1), where the darker of the two states is below
0.80; content fails when more than three flashes fall in any one-second period over a
combined area of more than 25 % of any 10-degree visual field (about a ninth of the screen:
WCAG's 341 x 256 pixels of a 1024 x 768 screen).

How it is measured here:

- each frame is scaled down (:data:`SIZE`) and turned into relative luminance (sRGB
  linearised, 0.2126 R + 0.7152 G + 0.0722 B);
- per pixel, a *transition* is a change of at least 0.1 from the extreme since the pixel's
  last transition, opposite to that transition, where the darker state is below 0.8 (so a
  slow fade counts once, however many frames it takes, and flicker between two bright
  states counts never);
- a window of a third of the frame's width and a third of its height (a ninth of the
  frame, the 10-degree field), at every position, has a transition in a frame when at
  least 25 % of its pixels make one in the same direction;
- a window's flashes in a second are half its transitions in any :math:`fps` consecutive
  frames; the video's measure is the largest, over every window and second.

The red flash threshold (saturated red) is not measured. The frame rate must show a flash:
at least :data:`MIN_FPS` frames a second (three flashes are six changes).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = ["LUMINANCE_STEP", "DARK_LIMIT", "AREA_SHARE", "FIELD", "MAX_FLASHES", "MIN_FPS", "SIZE",
           "FlashReport", "relative_luminance", "transitions", "flashes_per_second", "measure_clip"]

LUMINANCE_STEP = 0.1     # a change of 10 % of the maximum relative luminance
DARK_LIMIT = 0.8         # the darker state must be below this for the change to count
AREA_SHARE = 0.25        # of the 10-degree field
FIELD = (1 / 3, 1 / 3)   # the 10-degree field as a share of the frame's (width, height)
MAX_FLASHES = 3          # allowed in any one second
MIN_FPS = 10
SIZE = (160, 90)         # frames are measured at this size (width, height)


@dataclass(frozen=True)
class FlashReport:
    """The most flashes any window shows in any one second, and where (s, from the start)."""

    path: str
    fps: float
    frames: int
    max_flashes: float
    at_seconds: float

    @property
    def passes(self) -> bool:
        return self.max_flashes <= MAX_FLASHES


def relative_luminance(rgb: np.ndarray) -> np.ndarray:
    """WCAG's relative luminance of 8-bit sRGB pixels (``... x 3``), in [0, 1]."""
    c = rgb.astype(np.float32) / 255.0
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return linear @ np.array([0.2126, 0.7152, 0.0722], dtype=np.float32)


def transitions(frames: np.ndarray) -> np.ndarray:
    """Per frame and pixel: +1 a rising transition, -1 a falling one, 0 none (``T x H x W``).

    ``frames`` are relative luminances (``T x H x W``).
    """
    first = frames[0]
    lo, hi = first.copy(), first.copy()             # extremes since the last transition
    last = np.zeros(first.shape, dtype=np.int8)     # direction of the last transition
    out = np.zeros(frames.shape, dtype=np.int8)
    for t in range(1, len(frames)):
        v = frames[t]
        lo, hi = np.minimum(lo, v), np.maximum(hi, v)
        rise = (last != 1) & (v - lo >= LUMINANCE_STEP) & (lo < DARK_LIMIT)
        fall = (last != -1) & (hi - v >= LUMINANCE_STEP) & (v < DARK_LIMIT) & ~rise
        out[t][rise], out[t][fall] = 1, -1
        changed = rise | fall
        last[rise], last[fall] = 1, -1
        lo[changed], hi[changed] = v[changed], v[changed]
    return out


def _window_sums(mask: np.ndarray, wh: int, ww: int) -> np.ndarray:
    """Sum of ``mask`` (``T x H x W``) over every ``wh x ww`` window, per frame."""
    c = np.cumsum(np.cumsum(mask.astype(np.int32), axis=1), axis=2)
    c = np.pad(c, ((0, 0), (1, 0), (1, 0)))
    return c[:, wh:, ww:] - c[:, :-wh, ww:] - c[:, wh:, :-ww] + c[:, :-wh, :-ww]


def flashes_per_second(lum: np.ndarray, fps: float) -> tuple[float, int]:
    """The most flashes in any window and any second of ``lum`` (``T x H x W`` relative
    luminance), and the frame where that second starts."""
    trans = transitions(lum)
    _, h, w = lum.shape
    wh, ww = max(1, round(h * FIELD[1])), max(1, round(w * FIELD[0]))
    need = AREA_SHARE * wh * ww
    events = ((_window_sums(trans == 1, wh, ww) >= need).astype(np.int32)
              + (_window_sums(trans == -1, wh, ww) >= need))
    n = max(1, round(fps))
    per_second = np.cumsum(np.pad(events, ((1, 0), (0, 0), (0, 0))), axis=0)
    per_second = per_second[n:] - per_second[:-n] if len(events) > n else per_second[-1:] - per_second[:1]
    flat = per_second.reshape(len(per_second), -1).max(axis=1)
    start = int(flat.argmax())
    return float(flat[start]) / 2, start


def read_luminance(path: Path, size: tuple[int, int] = SIZE) -> tuple[np.ndarray, float]:
    """The video's frames as relative luminance at ``size``, and its frame rate."""
    import av

    frames = []
    with av.open(str(path)) as c:
        stream = c.streams.video[0]
        fps = float(stream.guessed_rate or stream.average_rate)   # the nominal rate
        for frame in c.decode(stream):
            rgb = frame.reformat(width=size[0], height=size[1], format="rgb24").to_ndarray()
            frames.append(relative_luminance(rgb))
    return np.stack(frames), fps


def measure_clip(path: Path) -> FlashReport:
    """The flash measure of one video file."""
    lum, fps = read_luminance(path)
    if fps < MIN_FPS:
        raise ValueError(f"{path}: {fps:g} frames a second cannot show three flashes a second "
                         f"(render at {MIN_FPS} or more)")
    flashes, start = flashes_per_second(lum, fps)
    return FlashReport(str(path), fps, len(lum), flashes, start / fps)


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: python tools/flash.py VIDEO...", file=sys.stderr)
        return 2
    worst = 0
    for name in argv:
        try:
            report = measure_clip(Path(name))
        except (OSError, ValueError) as e:
            print(f"flash.py: error: {e}", file=sys.stderr)
            return 2
        mark = "ok  " if report.passes else "FAIL"
        print(f"{mark} {report.max_flashes:4.1f} flashes/s at {report.at_seconds:7.2f} s  {name}")
        worst = max(worst, 0 if report.passes else 1)
    return worst


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
