"""Frames for the video encoder (:mod:`scenes.encoder_frames`): PyAV's frame, padding zeroed.

The oracle is PyAV itself: the frame reads back (``to_ndarray``) as the array it was made
from, like ``av.VideoFrame.from_ndarray``'s; and every byte of its plane past a row's pixels
is zero, at the preview width whose rows are padded (854 px) and at one whose rows are not.
"""

from __future__ import annotations

import numpy as np
import pytest

import scenes.base  # noqa: F401  - installs the encoder's frames, as every scene does
from scenes.encoder_frames import from_ndarray


@pytest.mark.parametrize("width, height", [(854, 480), (1280, 720), (3, 2)])
@pytest.mark.parametrize("fmt, channels", [("rgba", 4), ("rgb24", 3)])
def test_the_frame_holds_the_pixels_and_zeros_past_each_row(width, height, fmt, channels):
    import av

    pixels = np.random.default_rng(width).integers(0, 256, (height, width, channels), dtype=np.uint8)
    frame = from_ndarray(pixels, fmt)
    assert (frame.width, frame.height, frame.format.name) == (width, height, fmt)
    assert np.array_equal(frame.to_ndarray(), pixels)
    assert np.array_equal(frame.to_ndarray(), av.VideoFrame.from_ndarray(pixels, format=fmt).to_ndarray())
    plane = frame.planes[0]
    buffer = np.frombuffer(memoryview(plane), dtype=np.uint8)
    rows = buffer[: plane.line_size * height].reshape(height, plane.line_size)
    assert not rows[:, width * channels:].any(), "padding past a row is not zero"
    assert not buffer[plane.line_size * height:].any()


def test_manims_segment_encoder_makes_its_frames_here():
    from manim.scene import video_segment_encoder

    assert video_segment_encoder.av.VideoFrame.from_ndarray is from_ndarray
    assert video_segment_encoder.av.open is __import__("av").open
