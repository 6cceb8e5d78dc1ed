"""A faster build of manim's :class:`~manim.Text`, equal to manim's own to the last bit.

Pango writes a text as an SVG document of glyph outlines (``<symbol>``), each drawn where
the pen stands (``<use x= y=>``). Manim hands the whole document to svgelements, which
parses a glyph's outline again at every use, and builds a fresh mobject per use (colours,
style, points): about a millisecond per glyph, and a section's texts hold thousands of them
(a two-line caption alone is about a hundred). Skipped renders (the layout probe, the
stills, ``render.py script``'s timing pass) spent nearly half their time there.

:func:`generate_mobject` reads the document with ElementTree and builds each distinct glyph
once, with manim's own code (svgelements for the outline, manim for its mobject and style),
keeping it in a module-level table across texts. A glyph used again is that mobject copied,
with the points manim would give it at that pen position: the outline's points moved by the
pen the way svgelements moves them (``x + e``: its matrix is a translation) and turned into
cubic Bézier points the way manim's ``VMobjectFromSVGPath.handle_commands`` turns them, one
numpy expression per kind of point instead of a Python loop. Floating-point addition and
division are correctly rounded element by element, so the points are the same numbers.
Two differences, neither read by anything once a text is built: a glyph keeps no parsed path
(``path_obj`` is None, as :func:`scenes.widgets.text.label` leaves it), and the text no
per-element groups (``id_to_vgroup_dict`` is empty; only ``Tex`` reads it).

A document in any other form than pango's plain one (a ``transform``, an element other than
groups, symbols, paths and uses, a segment other than moves, lines, Béziers and closes), or
a renderer other than Cairo, goes to manim's own parser. ``tests/module/patches/manim/test_text.py``
compares the two on awkward strings (both fonts, kana and kanji, emoji, subscripts) in three
styles and on strings hypothesis makes.
"""

from __future__ import annotations

import copy
import io
import xml.etree.ElementTree as ET
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
import svgelements as se
from manim import RIGHT, Text
from manim.mobject.types.vectorized_mobject import VMobject

__all__ = ["GLYPHS_KEPT", "MANIM_GENERATE", "generate_mobject", "install"]

#: manim's own ``SVGMobject.generate_mobject`` as ``Text`` inherits it (the reference).
MANIM_GENERATE = Text.generate_mobject

#: How many distinct glyphs (outline, size and style) are kept, least recently used dropped
#: first: a render uses a few hundred; each keeps a small mobject and its outline's points.
GLYPHS_KEPT = 8192

#: The elements of pango's documents; any other sends a document to manim's parser.
_PLAIN = frozenset({"svg", "g", "defs", "symbol", "path", "use"})
_HREF = ("{http://www.w3.org/1999/xlink}href", "href")
#: A closing segment draws a line back to its contour's start unless the pen is this close
#: to it already (manim's own threshold, ``handle_commands``).
_CLOSE_GAP = 0.0001


def _tag(element: ET.Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def _signature(element: ET.Element, skip: tuple[str, ...] = ()) -> tuple:
    """An element's tag and attributes but ``id`` (cairo numbers its surfaces anew in every
    document, and an id styles nothing here: a document with a stylesheet is not plain)."""
    return _tag(element), tuple(sorted((k, v) for k, v in element.attrib.items()
                                       if k != "id" and k not in skip))


@dataclass(frozen=True)
class _Glyph:
    """One glyph outline in one style, ready to be placed at any pen position.

    ``outline`` holds the points of the outline's segments as svgelements parsed them (3-D,
    z = 0); each row of the Bézier points is ``outline[first]`` (``second`` < 0) or
    ``(outline[first] + outline[second] + outline[third]) / 3``, as manim computes a line's
    or a quadratic's handles. ``closes`` are the lines a closing segment adds when its pen is
    away from the contour's start: ``(row, pen, start)``, four rows each.
    """

    mobject: VMobject
    outline: np.ndarray
    first: np.ndarray
    second: np.ndarray
    third: np.ndarray
    closes: tuple[tuple[int, int, int], ...]

    def points(self, dx: float, dy: float) -> np.ndarray | None:
        """The Bézier points of this glyph with its pen at ``(dx, dy)``; None when empty."""
        p = self.outline + np.array([dx, dy, 0.0])
        out = p[self.first]
        mean = self.second >= 0
        out[mean] = (p[self.first[mean]] + p[self.second[mean]] + p[self.third[mean]]) / 3
        if self.closes:
            keep = np.ones(len(out), dtype=bool)
            for row, pen, start in self.closes:
                if not abs(np.linalg.norm(p[pen] - p[start])) > _CLOSE_GAP:
                    keep[row:row + 4] = False
            out = out[keep]
        return out if len(out) else None


def _program(path: se.Path) -> tuple[np.ndarray, list[tuple[int, int, int]], list] | None:
    """The outline's points and how manim's ``handle_commands`` makes Bézier points of them
    (rows ``(first, second, third)`` and the closing lines), or None for a path it cannot
    follow exactly (a segment of another kind, a line drawn after a close)."""
    points: list[tuple[float, float]] = []
    rows: list[tuple[int, int, int]] = []
    closes: list[tuple[int, int, int]] = []

    def at(point) -> int:
        points.append((point[0], point[1]))
        return len(points) - 1

    def line(a: int, b: int) -> None:
        rows.extend(((a, -1, -1), (a, a, b), (a, b, b), (b, -1, -1)))

    pen = start = None
    after_close = False
    for segment in path:
        kind = type(segment)
        if kind is se.Move:
            pen = start = at(segment.end)
            after_close = False
            continue
        if after_close or pen is None:
            return None   # the pen's place would depend on whether the close drew a line
        if kind is se.Line:
            end = at(segment.end)
            line(pen, end)
            pen = end
        elif kind is se.QuadraticBezier:
            control, end = at(segment.control), at(segment.end)
            rows.extend(((pen, -1, -1), (pen, control, control), (control, control, end), (end, -1, -1)))
            pen = end
        elif kind is se.CubicBezier:
            c1, c2, end = at(segment.control1), at(segment.control2), at(segment.end)
            rows.extend(((pen, -1, -1), (c1, -1, -1), (c2, -1, -1), (end, -1, -1)))
            pen = end
        elif kind is se.Close:
            closes.append((len(rows), pen, start))
            line(pen, start)
            after_close = True
        else:
            return None
    outline = np.zeros((len(points), 3))
    if points:
        outline[:, :2] = points
    return outline, rows, closes


def _glyph(mobject: VMobject | None, path: se.Path) -> _Glyph | None | bool:
    """The kept form of a glyph built by manim (None: it draws nothing; False: it cannot be
    placed exactly, so its text goes to manim's parser)."""
    if mobject is None:
        return None
    program = _program(path)
    if program is None:
        return False
    outline, rows, closes = program
    if not rows:
        return None
    first, second, third = (np.array(c, dtype=np.intp) for c in zip(*rows))
    mobject.path_obj = None
    return _Glyph(mobject, outline, first, second, third, tuple(closes))


_kept: OrderedDict[tuple, _Glyph | None] = OrderedDict()


def _keep(key: tuple, glyph: _Glyph | None) -> None:
    _kept[key] = glyph
    if len(_kept) > GLYPHS_KEPT:
        _kept.popitem(last=False)


def generate_mobject(self: Text) -> Text:
    """``SVGMobject.generate_mobject`` for a :class:`~manim.Text`: the same submobjects, each
    glyph built once per process (see the module's docstring)."""
    if self.n_points_per_curve != 4:
        return MANIM_GENERATE(self)
    root = self.modify_xml_tree(ET.parse(self.get_file_path())).getroot()
    symbols: dict[str, tuple] = {}
    uses: list[tuple[ET.Element, tuple, float, float]] = []

    def walk(element: ET.Element, chain: tuple) -> bool:
        for child in element:
            tag = _tag(child)
            if tag not in _PLAIN or "transform" in child.attrib:
                return False
            if tag == "symbol":
                paths = list(child)
                if len(paths) != 1 or _tag(paths[0]) != "path" or len(paths[0]):
                    return False
                symbols[child.get("id", "")] = (chain, _signature(child), _signature(paths[0]))
            elif tag == "use":
                if len(child):
                    return False
                uses.append((child, chain, se.Length(child.get("x", 0)).value(),
                             se.Length(child.get("y", 0)).value()))
            elif tag == "path":
                return False   # a path drawn outside a symbol: not pango's plain form
            elif not walk(child, (*chain, _signature(child))):
                return False
        return True

    if not walk(root, (_signature(root),)) or not uses:
        return MANIM_GENERATE(self)
    keys = []
    for use, chain, _, _ in uses:
        href = next((use.get(h) for h in _HREF if use.get(h)), "")
        symbol = symbols.get(href[1:]) if href.startswith("#") else None
        if symbol is None:
            return MANIM_GENERATE(self)
        keys.append((chain, _signature(use, (*_HREF, "x", "y")), symbol))
    glyphs = _glyphs_of(self, root, uses, keys)
    if glyphs is None:
        return MANIM_GENERATE(self)
    mobjects = []
    for (_, _, dx, dy), key in zip(uses, keys):
        glyph = glyphs[key]
        if glyph is None:
            continue
        points = glyph.points(dx, dy)
        if points is None:
            continue
        mobject = copy.deepcopy(glyph.mobject)
        mobject.points = points
        mobjects.append(mobject)
    self.add(*mobjects)
    self.id_to_vgroup_dict = {}
    self.flip(RIGHT)
    return self


def _glyphs_of(text: Text, root: ET.Element, uses: list, keys: list) -> dict | None:
    """The glyph of every key in ``keys``: kept ones from the table, the others built with
    manim, each from one of its uses moved to the origin, and kept; None when one cannot be
    placed exactly."""
    glyphs: dict[tuple, _Glyph | None] = {}
    new = {}
    for (use, _, _, _), key in zip(uses, keys):
        if key in _kept:
            _kept.move_to_end(key)
            glyphs[key] = _kept[key]
        elif key not in new:
            new[key] = use
    if not new:
        return glyphs
    # the document with only these uses, at the origin (svgelements reads it as before)
    template = copy.deepcopy(root)
    parent = {child: p for p in template.iter() for child in p}
    chosen = {id(u): k for k, u in new.items()}
    order = []
    for original, twin in list(zip(root.iter(), template.iter())):
        if _tag(original) != "use":
            continue
        if id(original) in chosen:
            twin.attrib.pop("x", None)
            twin.attrib.pop("y", None)
            order.append(chosen[id(original)])
        else:
            parent[twin].remove(twin)
    svg = se.SVG.parse(io.BytesIO(ET.tostring(template)))
    parsed = [e for e in svg.elements() if isinstance(e, se.Use)]
    if len(parsed) != len(order):
        return None
    for key, use in zip(order, parsed):
        shapes = [e for e in use if isinstance(e, se.Shape)]
        if len(shapes) > 1 or (shapes and not isinstance(shapes[0], se.Path)):
            return None
        glyph = _glyph(text.get_mob_from_shape_element(shapes[0]), shapes[0]) if shapes else None
        if glyph is False:
            return None
        glyphs[key] = glyph
        _keep(key, glyph)
    return glyphs


def install() -> None:
    """Make :func:`generate_mobject` the way every :class:`~manim.Text` is built (idempotent)."""
    Text.generate_mobject = generate_mobject
