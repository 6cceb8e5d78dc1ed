"""The contrast of every text on a finished scene's frame against what is drawn under it.

The scene is drawn three times at :data:`SIZE` by a camera of its own (the scene's render
may be tiny): as it is; without its texts (what each glyph stands on); and its texts alone,
each in a colour of its own at full opacity (which pixels are whose). A pixel that a glyph
covers whole (:data:`FULL`) shows the text's colour as drawn, opacity included, with no
anti-aliasing; beside it, the same pixel of the frame without texts is the text's local
background (a panel, a tile, a tint, the background). WCAG's ratio of the two relative
luminances (from colorspacious, sRGB to CIE XYZ, not from the code under test) is taken
at each whole pixel, and a text's contrast is the ratio a tenth of them fall under
(:data:`WORST_SHARE`). A listing counts each line as a text.

Used by the scene tests, on the scene they render anyway (both themes).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["SIZE", "TextContrast", "luminance", "measure", "too_faint"]

#: The size the texts are measured at: a 16-size label's strokes are about two pixels wide,
#: so most glyphs have pixels they cover whole.
SIZE = (1280, 720)
#: Red of the masks: a pixel whose red is this is covered whole by one glyph (the masks
#: are drawn on black, so anti-aliasing lowers it).
FULL = 255
#: Fewest whole pixels a text needs to be measured on the whole frame; a thinner one is
#: measured close up, in a view this many times its size.
MIN_PIXELS = 4
ZOOM = 3.0
#: The close-up camera's pixels (the text spans a third of them).
CLOSE_SIZE = (320, 180)
#: A text's contrast is the ratio this share of its whole pixels falls under (a low
#: quantile, not the median: a listing's line or a label with one glyph in another colour
#: fails on that glyph).
WORST_SHARE = 0.1
#: A text whose glyphs are all under this opacity has faded out: it is not on the frame.
VISIBLE = 0.05
#: WCAG 2.2 AA, success criterion 1.4.3 (text under 18 pt).
TEXT_RATIO = 4.5


@dataclass
class TextContrast:
    """One text's measure: its string, its ratio (:data:`WORST_SHARE`), its colour and its
    background's (RGB 0-255, medians over its whole pixels), and how many pixels it was
    measured on."""

    text: str
    ratio: float
    colour: tuple[int, int, int]
    under: tuple[int, int, int]
    pixels: int


def luminance(rgb: np.ndarray) -> np.ndarray:
    """WCAG relative luminance of sRGB colours (``(..., 3)`` uint8) by way of CIE XYZ."""
    from colorspacious import cspace_convert

    xyz = cspace_convert(np.asarray(rgb, float) / 255.0, "sRGB1", "XYZ1")
    return np.clip(xyz[..., 1], 0.0, 1.0)


def _glyph_line(m) -> bool:
    """Whether ``m`` is a group of glyphs outside a text: a listing's line (manim's
    :class:`~manim.Code` lays its lines out as groups of glyphs, which a played animation
    may lift out of their paragraph into the scene)."""
    from manim.mobject.svg.svg_mobject import VMobjectFromSVGPath

    return (type(m).__name__ == "VGroup" and bool(m.submobjects)
            and all(isinstance(x, VMobjectFromSVGPath) for x in m.submobjects))


def _texts(scene) -> list:
    """The scene's texts, outermost first (a number's glyphs belong to the number)."""
    from manim import MarkupText, Paragraph, Text

    from scenes.widgets.live_number import LiveNumber

    out, seen = [], set()

    def add(m) -> None:
        inked = [x for x in m.get_family() if x.has_points()]
        if inked and max(float(np.max(x.get_fill_opacity())) for x in inked) > VISIBLE:
            out.append(m)

    def walk(m) -> None:
        if id(m) in seen:
            return
        seen.add(id(m))
        if isinstance(m, Paragraph):           # a listing: each line is a text of its own
            for line in m.submobjects:
                walk(line)
        elif isinstance(m, (Text, MarkupText, LiveNumber)) or _glyph_line(m):
            add(m)
        else:
            for sub in m.submobjects:
                walk(sub)

    for m in scene.mobjects:
        walk(m)
    return out


def _camera(scene, view=None):
    """A camera on the whole frame, or on ``view`` = (centre, width) at the frame's aspect."""
    from manim import Camera

    kw, (w, h) = {}, SIZE
    if view is not None:
        centre, width = view
        w, h = CLOSE_SIZE
        kw = {"frame_center": np.asarray(centre, float), "frame_width": width,
              "frame_height": width * h / w}
    return Camera(pixel_width=w, pixel_height=h,
                  background_color=scene.camera.background_color, **kw)


def _draw(scene, mobjects, view=None, **kwargs) -> np.ndarray:
    camera = _camera(scene, view)
    camera.capture_mobjects(mobjects, **kwargs)
    return np.array(camera.pixel_array)[:, :, :3].copy()


def _id_colour(k: int) -> str:
    return "#" + bytes([FULL, (k + 1) // 256, (k + 1) % 256]).hex()


def _masks(scene, texts, view=None) -> np.ndarray:
    """Each pixel's text index (-1: none or not whole), from the texts drawn in id colours."""
    from manim import BLACK

    saved = []
    for k, text in enumerate(texts):
        for m in text.get_family():
            if m.has_points():
                saved.append((m, m.fill_rgbas.copy(), m.stroke_rgbas.copy(),
                              m.background_stroke_rgbas.copy()))
        text.set_fill(_id_colour(k), opacity=1.0)
        text.set_stroke(width=0, opacity=0.0, background=True)
        text.set_stroke(width=0, opacity=0.0)
    try:
        camera = _camera(scene, view)
        camera.background_color = BLACK
        camera.reset()
        camera.capture_mobjects(texts)
        img = np.array(camera.pixel_array)[:, :, :3].astype(int)
    finally:
        for m, fill, stroke, back in saved:
            m.fill_rgbas, m.stroke_rgbas, m.background_stroke_rgbas = fill, stroke, back
    index = img[:, :, 1] * 256 + img[:, :, 2] - 1
    index[img[:, :, 0] != FULL] = -1
    index[index >= len(texts)] = -1
    return index


def _name(text) -> str:
    return str(getattr(text, "text", None) or getattr(text, "original_text", "") or
               type(text).__name__)


def _measure(scene, texts, every, view=None) -> list[TextContrast | None]:
    """The contrast of each of ``texts`` (None: too few whole pixels) on a camera's frame;
    ``every`` is all the scene's texts (none of them is background)."""
    frame = _draw(scene, scene.mobjects, view)
    under = _draw(scene, scene.mobjects, view, excluded_mobjects=every)
    index = _masks(scene, texts, view)
    inked = index >= 0                      # luminance only where a glyph is (it is slow)
    frame, under, owner = frame[inked], under[inked], index[inked]
    lum_text, lum_under = luminance(frame), luminance(under)
    ratios = (np.maximum(lum_text, lum_under) + 0.05) / (np.minimum(lum_text, lum_under) + 0.05)
    out: list[TextContrast | None] = []
    for k, text in enumerate(texts):
        where = owner == k
        n = int(where.sum())
        out.append(None if n < MIN_PIXELS else TextContrast(
            _name(text), float(np.quantile(ratios[where], WORST_SHARE)),
            tuple(int(c) for c in np.median(frame[where], axis=0)),
            tuple(int(c) for c in np.median(under[where], axis=0)), n))
    return out


def measure(scene) -> tuple[list[TextContrast], list[str]]:
    """``(measures, unmeasured)``: each visible text's contrast on the frame, and the texts
    with too few whole pixels to measure even close up (their strings).

    A text too thin for whole pixels at :data:`SIZE` (a bracket, a comma) is measured again
    by a camera close on it (:data:`ZOOM` times its size in the view).
    """
    texts = _texts(scene)
    if not texts:
        return [], []
    found = _measure(scene, texts, texts)
    for k, (text, m) in enumerate(zip(texts, found)):
        if m is None:
            view = (text.get_center(), ZOOM * max(text.width, text.height * SIZE[0] / SIZE[1]))
            found[k] = _measure(scene, [text], texts, view)[0]
    return ([m for m in found if m is not None],
            [_name(t) for t, m in zip(texts, found) if m is None])


def too_faint(measures: list[TextContrast], at_least: float = TEXT_RATIO) -> list[str]:
    """The measures under ``at_least``, described for an assertion message."""
    return [f"{m.text!r}: {m.ratio:.2f}:1 (text #{bytes(m.colour).hex()} on "
            f"#{bytes(m.under).hex()}, {m.pixels} px)" for m in measures if m.ratio < at_least]
