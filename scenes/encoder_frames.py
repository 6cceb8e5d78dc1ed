"""Frames handed to the video encoder with their row padding zeroed: the same input, the same video.

Manim's segment encoder (``manim.scene.video_segment_encoder``) wraps each rendered frame
with PyAV's ``VideoFrame.from_ndarray``, which copies the pixels row by row into a buffer
whose rows are padded for SIMD and leaves the padding as it found it. At a width whose row
is not a multiple of 64 bytes (``--quality preview``: 854 px, 3,416 bytes) the conversion to
the encoder's YUV reads that padding, so two renders of the same frames gave different
videos (measured: section 11 at 480p15 differed in 160 to 340 of its 457 decoded frames,
by up to 38 levels, run to run, though the raw frames were identical; at 896 px, whose rows
need no padding, it did not). With the padding zeroed two such renders differ only in the
last few frames of the last segment, by 2 levels at most (with one encoder thread, not at
all): what remains is the encoder's, not the frames'.

:func:`from_ndarray` makes the frame as PyAV does, with the padding zeroed;
:func:`install` gives it to manim's segment encoder. ``tests/module/scenes/test_encoder_frames.py``
checks the frame against PyAV's own (the same pixels, zeros past each row) and that manim's
encoder makes its frames here.
"""

from __future__ import annotations

import types

import av
import numpy as np

__all__ = ["from_ndarray", "install"]


def from_ndarray(array: np.ndarray, format: str = "rgba") -> av.VideoFrame:
    """``av.VideoFrame.from_ndarray(array, format)`` for a packed format of one plane (manim
    hands ``rgba``), every byte of the plane set: the pixels, and zeros past each row."""
    if format not in ("rgba", "rgb24"):
        return av.VideoFrame.from_ndarray(array, format=format)
    height, width = array.shape[:2]
    frame = av.VideoFrame(width, height, format)
    plane = frame.planes[0]
    buffer = np.frombuffer(memoryview(plane), dtype=np.uint8)
    buffer[:] = 0
    rows = buffer[: plane.line_size * height].reshape(height, plane.line_size)
    rows[:, : array[0].nbytes] = np.ascontiguousarray(array).reshape(height, -1)
    return frame


def install() -> None:
    """Make manim's segment encoder build its frames with :func:`from_ndarray` (idempotent)."""
    from manim.scene import video_segment_encoder

    if isinstance(video_segment_encoder.av, types.SimpleNamespace):
        return
    names = {name: getattr(av, name) for name in dir(av) if not name.startswith("__")}
    names["VideoFrame"] = types.SimpleNamespace(from_ndarray=from_ndarray)
    video_segment_encoder.av = types.SimpleNamespace(**names)
