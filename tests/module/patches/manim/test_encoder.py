"""Frames for the video encoder (:mod:`patches.manim.encoder`): PyAV's frame, padding zeroed.

The oracle is PyAV itself: the frame reads back (``to_ndarray``) as the array it was made
from, like ``av.VideoFrame.from_ndarray``'s; and every byte of its plane past a row's pixels
is zero, at the preview width whose rows are padded (854 px) and at one whose rows are not.
"""

from __future__ import annotations

import types

import numpy as np
import pytest

import patches
from patches.manim.encoder import from_ndarray


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


def _segment(path, write, frames, width, height):
    """Encode ``frames`` ((pixels, repeat) pairs) with manim's segment encoder whose
    ``write_frame`` is ``write``; x264 on one thread, so that the bytes are reproducible."""
    from fractions import Fraction

    from manim._config.video_encoder import VideoEncoderSpec
    from manim.scene.video_segment_encoder import VideoSegmentEncoder

    spec = VideoEncoderSpec("mp4", "libx264", "yuv420p", width, height, Fraction(15), (("threads", "1"),))
    encoder = VideoSegmentEncoder(target=path, spec=spec)
    for pixels, repeat in frames:
        write(encoder, pixels, repeat=repeat)
    encoder.finish()
    import av

    with av.open(str(path)) as container:
        return [bytes(p) for p in container.demux(video=0) if p.size]


@pytest.mark.parametrize("width, height", [(854, 480), (64, 36)])
def test_manims_encoder_writes_the_same_packets_converting_a_repeated_frame_once(tmp_path, width, height):
    """The oracle is manim's own ``write_frame`` (a new frame per repeat, converted by the
    encoder), with the padding of its frames zeroed as ours are."""
    from manim.scene import video_segment_encoder

    import patches.manim.encoder as ef

    patches.install()   # as every scene process does
    assert video_segment_encoder.VideoSegmentEncoder.write_frame is ef.write_frame
    upstream = ef.UPSTREAM_WRITE_FRAME
    rng = np.random.default_rng(width)
    still = rng.integers(0, 256, (height, width, 4), dtype=np.uint8)
    frames = [(still, 1), (still.copy(), 7)]
    for k in range(3):   # a fade: every frame new
        frames.append(((still * (k / 3)).astype(np.uint8), 1))
    frames.append((rng.integers(0, 256, (height, width, 4), dtype=np.uint8), 12))
    import av

    names = {name: getattr(av, name) for name in dir(av) if not name.startswith("__")}
    video_segment_encoder.av = types.SimpleNamespace(
        **{**names, "VideoFrame": types.SimpleNamespace(from_ndarray=ef.from_ndarray)})
    try:
        theirs = _segment(tmp_path / "upstream.mp4", upstream, frames, width, height)
    finally:
        video_segment_encoder.av = av
    ours = _segment(tmp_path / "ours.mp4", ef.write_frame, frames, width, height)
    assert len(ours) == len(theirs) == sum(r for _, r in frames)
    differ = [i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b]
    assert not differ, f"packets {differ} of {len(ours)} differ ({[len(ours[i]) for i in differ]} bytes ours, " \
                       f"{[len(theirs[i]) for i in differ]} upstream)"
