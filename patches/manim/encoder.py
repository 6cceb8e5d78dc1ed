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

:func:`from_ndarray` makes the frame as PyAV does, with the padding zeroed; :func:`write_frame`
(manim's segment encoder's, installed by :func:`install`) makes it once per frame and converts
it once to the encoder's pixel format, however many times the frame repeats.
``tests/module/patches/manim/test_encoder.py`` checks the frame against PyAV's own (the same
pixels, zeros past each row), and that manim's encoder, given the same frames and repeats,
writes the same packets with it as without it.
"""

from __future__ import annotations

from fractions import Fraction

import av
import numpy as np
from av.video.reformatter import VideoReformatter
from manim.scene import video_segment_encoder

__all__ = ["UPSTREAM_WRITE_FRAME", "encoder_frame", "from_ndarray", "install", "write_frame"]

#: manim's own ``VideoSegmentEncoder.write_frame``, which :func:`write_frame` replaces (the
#: oracle of its test).
UPSTREAM_WRITE_FRAME = video_segment_encoder.VideoSegmentEncoder.__dict__["write_frame"]


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


def encoder_frame(stream, frame: av.VideoFrame) -> av.VideoFrame:
    """``frame`` as ``stream``'s encoder takes it: converted to its size and pixel format by
    the conversion PyAV's encoder runs on a frame that is not (same scaler, same threads), so
    the bits are the ones ``stream.encode(frame)`` would encode."""
    ctx = stream.codec_context
    if (frame.format.name, frame.width, frame.height) == (ctx.format.name, ctx.width, ctx.height):
        return frame
    return VideoReformatter().reformat(frame, ctx.width, ctx.height, ctx.format, threads=ctx.thread_count)


def write_frame(self, pixels: np.ndarray, *, repeat: int = 1) -> None:
    """manim's ``VideoSegmentEncoder.write_frame``, with the frame converted once for all its
    repeats. Manim makes and converts a new frame for each repeat of a held frame (a wait, the
    end of a fade): at 1080p that was 6 ms of the encoder thread's time per repeat, and most of
    a section's frames are repeats (section 11: 984 frames shown, 387 drawn)."""
    self._validate_frame(pixels, repeat)
    time_base = Fraction(self.spec.frame_rate.denominator, self.spec.frame_rate.numerator)
    try:
        frame = encoder_frame(self._stream, from_ndarray(pixels, format="rgba"))
        for _ in range(repeat):
            # the encoder keeps its own copy of what it was sent (avcodec_send_frame), so one
            # frame object serves every repeat with its own timestamp
            frame.pts = self._next_pts
            frame.time_base = time_base
            self._next_pts += 1
            for packet in self._stream.encode(frame):
                self._container.mux(packet)
    except BaseException as error:
        raise self._operation_error("encode", error) from error


def install() -> None:
    """Make manim's segment encoder encode with :func:`write_frame`: frames made by
    :func:`from_ndarray`, once per frame however often it repeats. Idempotent."""
    video_segment_encoder.VideoSegmentEncoder.write_frame = write_frame
