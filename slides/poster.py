"""A clip's poster frame: its last frame as a PNG (what the slide shows before and after it plays)."""

from __future__ import annotations

import os
from pathlib import Path

#: Decode only this far from the end: the last frame is in the last GOP, and manim's clips
#: are short, so a seek this far back keeps a poster to a few frames' decoding.
SEEK_BACK_SECONDS = 2.0


def last_frame_png(clip: Path, dest: Path) -> Path:
    """Write the last decodable frame of ``clip`` to ``dest`` (through a temporary name)."""
    import av

    frame = None
    with av.open(str(clip)) as c:
        stream = c.streams.video[0]
        if c.duration and c.duration / 1e6 > SEEK_BACK_SECONDS:
            c.seek(int((c.duration / 1e6 - SEEK_BACK_SECONDS) * 1e6))  # to the keyframe before
        for frame in c.decode(stream):
            pass
    if frame is None:
        raise RuntimeError(f"{clip.name} has no decodable frame")
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    frame.to_image().save(tmp, format="PNG")
    os.replace(tmp, dest)
    return dest
