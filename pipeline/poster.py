"""A clip's poster frame: its end state as a PNG (what a slide shows before it plays, what
the transcript shows beside its words), and that PNG scaled down for a page.

Every section clip ends with a short fade to the background (``scenes.style.TRANSITION``,
0.5 s: the transition between sections), so the very last frame is empty. The poster is
the fullest of the frames in the clip's last :data:`END_WINDOW_SECONDS`: the frame just
before the fade starts, which is the end state a ``stills`` render shows; for a clip
without a fade that is its last frame.
"""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

__all__ = ["END_WINDOW_SECONDS", "SEEK_BACK_SECONDS", "STILL_WIDTH", "end_state_png", "fullness",
           "scaled_png"]

#: Longer than the end fade (0.5 s), shorter than any section's last hold.
END_WINDOW_SECONDS = 1.0
#: Decode only this far from the end: the seek lands on the keyframe before it.
SEEK_BACK_SECONDS = 2.0
#: A pixel "shows something" when it differs from the frame's dominant colour by more.
INK_THRESHOLD = 20
SCORE_SIZE = (160, 90)
#: The width (px) of the scaled still a page embeds (the transcript): a few MB at 1080p.
STILL_WIDTH = 960


def fullness(rgb) -> float:
    """Share of the pixels that differ clearly from the frame's dominant (median) colour."""
    import numpy as np

    px = rgb.reshape(-1, 3).astype(np.int16)
    background = np.median(px, axis=0)
    return float((np.abs(px - background).max(axis=1) > INK_THRESHOLD).mean())


def end_state_png(clip: Path, dest: Path) -> Path:
    """Write the fullest frame of the last :data:`END_WINDOW_SECONDS` of ``clip`` to ``dest``."""
    import av

    best, best_score = None, -1.0
    with av.open(str(clip)) as c:
        stream = c.streams.video[0]
        duration = c.duration / 1e6 if c.duration else 0.0
        if duration > SEEK_BACK_SECONDS:
            c.seek(int((duration - SEEK_BACK_SECONDS) * 1e6))  # to the keyframe before
        window = duration - END_WINDOW_SECONDS
        for frame in c.decode(stream):
            if frame.time is not None and frame.time < window:
                continue
            # scored on a small copy: the share of drawn pixels hardly depends on the size
            score = fullness(frame.reformat(width=SCORE_SIZE[0], height=SCORE_SIZE[1],
                                            format="rgb24").to_ndarray())
            if score >= best_score:  # ties: the later frame
                best, best_score = frame, score
    if best is None:
        raise RuntimeError(f"{clip.name} has no decodable frame")
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    best.to_image().save(tmp, format="PNG")
    os.replace(tmp, dest)
    return dest


def scaled_png(png: Path, width: int = STILL_WIDTH) -> tuple[bytes, tuple[int, int]]:
    """``png`` scaled to at most ``width`` pixels wide, as optimised PNG bytes, and its size.

    The result is kept beside ``png`` (``NAME.wWIDTH.png``; in the store it shares the clip's
    hash, so it is pruned with it): optimising a PNG costs about 50 ms, which a render pays in
    the section's worker, not in every run that writes a page of all the stills.
    """
    from PIL import Image

    from .files import DiskFull, atomic_write

    scaled = png.with_name(f"{png.stem}.w{width}.png")
    if scaled.is_file() and scaled.stat().st_mtime >= png.stat().st_mtime:
        data = scaled.read_bytes()
        with Image.open(io.BytesIO(data)) as kept:
            return data, kept.size
    with Image.open(png) as source:
        img = source.convert("RGB")
    if img.width > width:
        img = img.resize((width, round(img.height * width / img.width)), Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    with contextlib.suppress(OSError, DiskFull):   # a cache: a read-only or full disk only costs time
        atomic_write(scaled, buf.getvalue())
    return buf.getvalue(), img.size
