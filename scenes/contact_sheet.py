"""Contact sheets: a still of every beat of a section, each titled with what the layout probe
found there (``tools/contact_sheet.py``, the studio's section view).

The section renders with its animations skipped (:func:`scenes.probe.probe_section`); at the
end of every beat the frame is drawn and kept, and one PNG puts the beats side by side
(three columns, each still titled with its beat and its layout problems, if any).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

__all__ = ["TILE", "sheet", "section_sheet"]

#: One beat's still on a sheet (pixels) and the height of its title line.
TILE = (640, 360)
TITLE_HEIGHT = 22


def sheet(frames: list[tuple[str, np.ndarray, list[str]]], path: Path, cols: int = 3) -> None:
    """Write ``frames`` (beat, RGB frame, problems) side by side as one PNG at ``path``."""
    from PIL import Image, ImageDraw

    w, h = TILE
    rows = -(-len(frames) // cols)
    img = Image.new("RGB", (cols * w, rows * (h + TITLE_HEIGHT)), "gray")
    draw = ImageDraw.Draw(img)
    for k, (where, frame, problems) in enumerate(frames):
        x, y = (k % cols) * w, (k // cols) * (h + TITLE_HEIGHT)
        img.paste(Image.fromarray(frame).resize((w, h)), (x, y + TITLE_HEIGHT))
        text = where + ("  !! " + "; ".join(problems)[:90] if problems else "")
        draw.text((x + 4, y + 4), text, fill="red" if problems else "white")
    img.save(path)


def section_sheet(section, lang: str, theme: str, head: str | None, path: Path,
                  size: tuple[int, int] = (1280, 720)) -> list[str]:
    """Render ``section``'s sheet into ``path``; the layout problems the probe found."""
    from scenes.probe import probe_section

    frames = []

    def grab(scene, where, frames=frames):
        scene.renderer.update_frame(scene, ignore_skipping=True)
        frames.append((where, np.array(scene.renderer.get_frame())[:, :, :3].copy()))

    probe = probe_section(section, lang, theme, head, size=size, on_moment=grab)
    n = section.number
    tagged = [(w, f, [p.split(": ", 1)[1] for p in probe.problems if p.startswith(f"s{n:02d} {w}:")])
              for w, f in frames]
    sheet(tagged, path)
    return list(probe.problems)
