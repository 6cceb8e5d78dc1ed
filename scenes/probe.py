"""The layout probe: render a section with its animations skipped and inspect the layout at the
end of every beat (the tests' layout checks, the studio's verdict, the contact sheets).

The probe hooks :meth:`SectionScene.say` (the end of the previous beat is the moment before the
next caption) and :meth:`SectionScene.settle` (a beat's explicit end), plus the last frame.
At each of those moments it walks the scene's mobject tree and collects every piece of text
drawn on screen (``Text``/``MarkupText`` and :class:`LiveNumber`), with its bounding box and its
effective font size, and reports what a viewer could not read:

* text outside the safe area (:data:`SAFE_MARGIN`, 5 % of each side),
* text under the caption bar (except the caption itself),
* two texts whose boxes overlap (beyond :data:`OVERLAP_TOL`), or, on different lines,
  come closer than :data:`MIN_GAP`,
* text smaller than :data:`MIN_EM_PX` pixels per em at 720p,
* text lying on an arrow's shaft or head (manim ``Arrow``/``Vector``/``DoubleArrow`` and
  the project's :class:`~scenes.widgets.plane.QuickArrow`/``FastArrow``), its own arrow
  included: a label beyond the tip is fine, one across the shaft is not (ticks of axes and
  number lines are not arrows and are not checked),
* a first beat that ends on a nearly empty frame (:data:`OPENING_MIN_WIDTH`),
* a token name of :data:`UNCUT_CELLS` half-em cells or fewer cut, or one token cut two
  ways within a section (:func:`check_token_names`, over every beat's texts).

The checks use only geometry read from the mobjects (not the widgets' own bookkeeping), so a
widget that believes it placed its labels well is still caught when they touch.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field

import numpy as np

from scenes.last_frame import SIZE, render_last_frame

__all__ = ["VISIBLE_OPACITY", "TextBox", "Probe", "text_boxes", "arrows_drawn", "check_arrows", "check",
           "check_opening", "content_extent", "hooked", "probe_section", "token_forms", "check_token_names"]

#: Overlap (frame units, on both axes) tolerated between two texts: anti-aliasing and
#: the ink overhang of a glyph; 0.03 units is under 3 pixels at 720p.
OVERLAP_TOL = 0.03
#: The clearance (frame units) two texts on different lines keep between their boxes:
#: 0.08 units is 7 pixels at 720p; closer, two labels read as one (``and`` over ``ran``).
#: Texts on one line (a vector's brackets and numbers, a symbol and its subscript) are
#: runs of one label and may abut.
MIN_GAP = 0.08
#: Tolerance (frame units) of the safe-area and caption checks.
EDGE_TOL = 0.02
#: The smallest readable text: pixels per em at 720p (font size 16, the project's smallest
#: size, is 15 px; 12 px leaves a lower-case letter about 6 px tall).
MIN_EM_PX = 12.0
#: The safe area's margin on each side, as a fraction of the frame's width and height.
SAFE_MARGIN = 0.05
#: A section must not open on a nearly empty frame: at the end of its first beat (the first
#: caption's reading time, never under two seconds) what is drawn besides the title and the
#: caption spans at least this share of the safe area's width, or of its height (the title
#: and the caption bar take about a quarter of that height), or is a block at the centre
#: of the frame (its box holds the centre) at least :data:`OPENING_MIN_CENTRED` wide. A
#: token strip across the frame, a plane filling the height or a formula set large at the
#: centre passes; a lone formula in a corner (sections 14 and 23 before they staged their
#: derivations at the centre) does not.
OPENING_MIN_WIDTH = 0.40
OPENING_MIN_HEIGHT = 0.45
OPENING_MIN_CENTRED = 0.25
#: Texts fainter than this are not read by anyone (faded ghosts on their way out).
VISIBLE_OPACITY = 0.05
#: An arrow shorter than this (frame units, start to tip; 4 px at 720p) is a dot, not a
#: line a label could sit on (a vector shrinking to zero on its way out).
MIN_ARROW_LENGTH = 0.05
#: Clearance (frame units) a text keeps from the marks along an arrow's shaft: none, the
#: widgets' own touch test (:func:`scenes.widgets.placement.clear_lines`). The marks are
#: already as wide as a shaft (:data:`~scenes.widgets.placement.LINE_HALF` either side of
#: its centre line), so a text whose box they do not reach is not crossed by the shaft; a
#: larger clearance (a share of ``LABEL_GAP``) would flag labels the widgets settled
#: beside a shaft on purpose, where the probe and the widgets must agree. A head may
#: overlap a text's box by :data:`~scenes.widgets.placement.HEAD_OVERLAP` (the empty
#: corners of the triangle's box), as in ``clear_lines``.
SHAFT_GAP = 0.0
#: An arrow is named after the text nearest its tip point when that text's box comes this
#: close (frame units): its own label, in the problems reported.
ARROW_NAME_REACH = 0.5


@dataclass
class TextBox:
    """One text on screen: its string, box (left, right, bottom, top), font size and the
    boxes of its glyphs (``ink``: what an arrow must not cross; the text's box has empty
    corners, above an ``o`` beside a ``[``, that a shaft may pass through untouched)."""

    text: str
    box: tuple[float, float, float, float]
    font_size: float
    in_caption: bool
    ink: list[tuple[float, float, float, float]] = field(default_factory=list)

    def em_px(self, frame_height: float, pixel_height: int = 720) -> float:
        # One em at font size s is s / 96 frame units (0.5 at manim's default size 48).
        return self.font_size / 96.0 * pixel_height / frame_height


@dataclass
class Probe:
    """Problems found in one scene, keyed by the moment (beat) they were seen."""

    section: int
    problems: list[str] = field(default_factory=list)
    #: the problems (also in ``problems``) of texts lying on an arrow's shaft or head
    on_arrows: list[str] = field(default_factory=list)
    moments: int = 0
    boxes: dict[str, list[TextBox]] = field(default_factory=dict)
    #: moment -> (left, right, bottom, top) of everything drawn but the frame's chrome
    extents: dict[str, tuple[float, float, float, float] | None] = field(default_factory=dict)
    #: the rendered scene and its last frame (RGB), set by :func:`probe_section`
    scene: object = field(default=None, repr=False)
    frame: np.ndarray | None = field(default=None, repr=False)

    def add(self, where: str, what: str, on_arrow: bool = False) -> None:
        msg = f"s{self.section:02d} {where}: {what}"
        if msg not in self.problems:
            self.problems.append(msg)
            if on_arrow:
                self.on_arrows.append(msg)


def _visible(m) -> bool:
    fam = m.get_family()
    op = max([float(x.get_fill_opacity()) if x.has_points() else 0.0 for x in fam] + [0.0])
    return op > VISIBLE_OPACITY


def _font_size(m) -> float:
    try:
        return float(m.font_size)
    except (ZeroDivisionError, FloatingPointError, AttributeError, ValueError):
        return 0.0


def text_boxes(scene) -> list[TextBox]:
    """Every visible text in ``scene``, in drawing order."""
    from manim import MarkupText, Text

    from scenes.widgets.chrome import CaptionBar
    from scenes.widgets.live_number import LiveNumber
    from scenes.widgets.placement import box_of

    out: list[TextBox] = []
    seen: set[int] = set()

    def walk(m, in_caption: bool) -> None:
        if id(m) in seen:
            return
        seen.add(id(m))
        in_caption = in_caption or isinstance(m, CaptionBar)
        if isinstance(m, (Text, MarkupText, LiveNumber)):
            inked = [x for x in m.get_family() if x.has_points()]
            if inked and _visible(m):
                ink = [box_of(x) for x in inked]   # the text's box is theirs together
                box = (min(b[0] for b in ink), max(b[1] for b in ink),
                       min(b[2] for b in ink), max(b[3] for b in ink))
                if box[1] - box[0] > 1e-6:
                    s = getattr(m, "text", None) or getattr(m, "original_text", "")
                    s = s if isinstance(s, str) else str(s)
                    out.append(TextBox(s, box, _font_size(m), in_caption, ink))
            return
        for sub in m.submobjects:
            walk(sub, in_caption)

    for m in scene.mobjects:
        walk(m, False)
    return out


@dataclass
class ArrowMarks:
    """One arrow on screen: the marks along its shaft and the boxes of its heads
    (:func:`scenes.widgets.placement.line_marks`), its tip point and its kind."""

    kind: str
    tip: tuple[float, float]
    shaft: list[tuple[float, float, float, float]]
    heads: list[tuple[float, float, float, float]]


def arrows_drawn(scene) -> list[ArrowMarks]:
    """Every visible arrow of ``scene`` longer than :data:`MIN_ARROW_LENGTH`.

    Read from what is drawn, like the texts: the shaft is the arrow's own stroked path
    (a manim ``Arrow``'s points stop at its head's base; a ``QuickArrow``'s ``line``), marked
    between its anchors, and each head (``Arrow.get_tips()``, ``QuickArrow.tip``) counts
    when it is filled. :func:`scenes.widgets.placement.arrow_marks` reads only manim arrows
    and not a ``DoubleArrow``'s start head, hence this reading of the drawn paths.
    """
    from manim import Arrow

    from scenes.widgets.arrows import QuickArrow
    from scenes.widgets.placement import box_of, line_marks

    out: list[ArrowMarks] = []
    seen: set[int] = set()

    def add(m, path, tips) -> None:
        tips = [x for x in tips if x.has_points()]
        ends = [path.get_start()] if path.has_points() else []
        pts = [*ends, *(x.get_start() for x in tips)]    # a head's first point is its tip
        if len(pts) < 2 or max(np.linalg.norm(p[:2] - pts[0][:2]) for p in pts) < MIN_ARROW_LENGTH:
            return
        shaft = []
        if path.has_points() and _drawn(path):
            anchors = path.get_anchors()
            for a, b in zip(anchors[:-1], anchors[1:]):
                if np.linalg.norm(b[:2] - a[:2]) > 1e-6:
                    shaft += line_marks(a, b)
        heads = [box_of(x) for x in tips if _drawn(x)]
        if shaft or heads:
            tip = tips[0].get_start() if tips else path.get_end()
            out.append(ArrowMarks(type(m).__name__, (float(tip[0]), float(tip[1])),
                                  shaft, heads))

    def walk(m) -> None:
        if id(m) in seen:
            return
        seen.add(id(m))
        if isinstance(m, Arrow):
            add(m, m, list(m.get_tips()))
            return
        if isinstance(m, QuickArrow):
            add(m, m.line, [m.tip])
            return
        for sub in m.submobjects:
            walk(sub)

    for m in scene.mobjects:
        walk(m)
    return out


def check_arrows(boxes: list[TextBox], arrows: list[ArrowMarks]) -> list[str]:
    """The texts of ``boxes`` (but the caption's, drawn over everything on its own bar)
    that lie on the shaft or a head of one of ``arrows``, one line each: a glyph's box
    (:attr:`TextBox.ink`) touches a mark of the shaft or lies on a head."""
    from scenes.widgets.placement import HEAD_OVERLAP, near_any

    labels = [x for x in boxes if not x.in_caption]
    found = []
    for a in arrows:
        owner = _arrow_owner(a, labels)
        for x in labels:
            if near_any(x.ink, a.shaft, SHAFT_GAP):
                part = "shaft"
            elif near_any(x.ink, a.heads, -HEAD_OVERLAP):
                part = "head"
            else:
                continue
            whose = "its own arrow" if x is owner else _arrow_name(a, owner)
            found.append(f"{x.text[:24]!r} on the {part} of {whose}")
    return found


def _arrow_owner(a: ArrowMarks, labels: list[TextBox]) -> TextBox | None:
    """The text nearest ``a``'s tip point, when within :data:`ARROW_NAME_REACH`."""
    def dist(x: TextBox) -> float:
        l, r, b, t = x.box
        return float(np.hypot(max(l - a.tip[0], 0, a.tip[0] - r),
                              max(b - a.tip[1], 0, a.tip[1] - t)))

    best = min(labels, key=dist, default=None)
    return best if best is not None and dist(best) <= ARROW_NAME_REACH else None


def _arrow_name(a: ArrowMarks, owner: TextBox | None) -> str:
    where = f"{a.kind} tipped at ({a.tip[0]:.2f}, {a.tip[1]:.2f})"
    return f"the arrow of {owner.text[:24]!r} ({where})" if owner else f"the {where}"


def content_extent(scene) -> tuple[float, float, float, float] | None:
    """The box around everything visible in ``scene`` except the section title and the
    caption bar (the chrome every frame has), or None when nothing else is drawn."""
    from scenes.widgets.chrome import CaptionBar, SectionTitle

    xs: list[float] = []
    ys: list[float] = []

    def walk(m) -> None:
        if isinstance(m, (CaptionBar, SectionTitle)):
            return
        if m.has_points() and _drawn(m):
            pts = m.get_points()
            lo, hi = pts.min(axis=0), pts.max(axis=0)
            xs.extend((float(lo[0]), float(hi[0])))
            ys.extend((float(lo[1]), float(hi[1])))
        for sub in m.submobjects:
            walk(sub)

    for m in scene.mobjects:
        walk(m)
    return (min(xs), max(xs), min(ys), max(ys)) if xs else None


def _drawn(m) -> bool:
    """Whether ``m`` itself (not its family) leaves visible ink: fill or stroke."""
    from manim import VMobject

    if not isinstance(m, VMobject):
        return False
    # a VMobject's opacity and width getters give one number (the first of its colours)
    fill = float(m.get_fill_opacity())
    stroke = 0.0
    if float(m.get_stroke_width()) > 0:
        stroke = float(m.get_stroke_opacity())
    return max(fill, stroke) > VISIBLE_OPACITY


def check_opening(scene, probe: Probe) -> None:
    """Record a problem when the first beat ends on a nearly empty frame."""
    first = next((k for k in probe.extents if not k.startswith("end of open")), None)
    if first is None:
        return
    # Shares of the safe area (from the frame, like the other checks).
    sw = float(scene.camera.frame_width) * (1 - 2 * SAFE_MARGIN)
    sh = float(scene.camera.frame_height) * (1 - 2 * SAFE_MARGIN)
    e = probe.extents[first]
    w, h = ((e[1] - e[0]) / sw, (e[3] - e[2]) / sh) if e else (0.0, 0.0)
    centred = e is not None and e[0] < 0 < e[1] and e[2] < 0 < e[3]
    if w < OPENING_MIN_WIDTH and h < OPENING_MIN_HEIGHT and not (
            centred and w >= OPENING_MIN_CENTRED):
        probe.add(first, f"the section opens on a nearly empty frame (content spans {w:.0%} "
                         f"of the width and {h:.0%} of the height)")


def _overlap(a, b) -> tuple[float, float]:
    ox = min(a[1], b[1]) - max(a[0], b[0])
    oy = min(a[3], b[3]) - max(a[2], b[2])
    return ox, oy


def check(scene, probe: Probe, where: str) -> None:
    """Record every layout problem of ``scene`` as it is now."""
    scene.update_mobjects(0)
    probe.moments += 1
    boxes = text_boxes(scene)
    probe.boxes[where] = boxes
    probe.extents[where] = content_extent(scene)
    fh = float(scene.camera.frame_height)
    fw = float(scene.camera.frame_width)
    # The safe area from the frame itself (not from the style module it checks).
    l, r, b, t = (-fw * (0.5 - SAFE_MARGIN), fw * (0.5 - SAFE_MARGIN),
                  -fh * (0.5 - SAFE_MARGIN), fh * (0.5 - SAFE_MARGIN))
    cap = getattr(scene, "_caption", None)
    cap_box = None
    if cap is not None and cap in scene.mobjects:
        p = cap.submobjects[0]
        cap_box = (p.get_left()[0], p.get_right()[0], p.get_bottom()[1], p.get_top()[1])
    for x in boxes:
        name = repr(x.text[:24])
        bl, br, bb, bt = x.box
        if bl < l - EDGE_TOL or br > r + EDGE_TOL or bb < b - EDGE_TOL or bt > t + EDGE_TOL:
            probe.add(where, f"{name} leaves the safe area "
                             f"(box {bl:.2f}..{br:.2f} x {bb:.2f}..{bt:.2f})")
        if x.em_px(fh) < MIN_EM_PX:
            probe.add(where, f"{name} is too small ({x.em_px(fh):.1f} px/em at 720p)")
        if cap_box is not None and not x.in_caption:
            ox, oy = _overlap(x.box, cap_box)
            if ox > EDGE_TOL and oy > EDGE_TOL:
                probe.add(where, f"{name} is under the caption bar")
    for what in check_arrows(boxes, arrows_drawn(scene)):
        probe.add(where, what, on_arrow=True)
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            a, c = boxes[i], boxes[j]
            if a.in_caption and c.in_caption:
                continue
            ox, oy = _overlap(a.box, c.box)
            if ox > OVERLAP_TOL and oy > OVERLAP_TOL:
                what = "overlaps"
            elif oy >= 0.5 * min(a.box[3] - a.box[2], c.box[3] - c.box[2]):
                continue            # runs of one line
            elif ox > -MIN_GAP and oy > -MIN_GAP:
                what = "touches"
            else:
                continue
            probe.add(where, f"{a.text[:24]!r} {what} {c.text[:24]!r} ({ox:.2f} x {oy:.2f})")


@contextlib.contextmanager
def hooked(probe: Probe, on_moment=None):
    """Patch :class:`SectionScene` so that every beat's end is checked (and optionally
    handed to ``on_moment(scene, where)``, e.g. to save a still)."""
    from scenes.base import SectionScene

    say, settle = SectionScene.say, SectionScene.settle
    beat = {"name": "open"}

    def moment(scene, where):
        check(scene, probe, where)
        if on_moment is not None:
            on_moment(scene, where)

    def say_hook(self, name, *a, **k):
        if self.mobjects:
            moment(self, f"end of {beat['name']}")
        beat["name"] = name
        return say(self, name, *a, **k)

    def settle_hook(self, *a, **k):
        out = settle(self, *a, **k)
        moment(self, f"{beat['name']} settled")
        return out

    SectionScene.say, SectionScene.settle = say_hook, settle_hook
    try:
        yield moment
    finally:
        SectionScene.say, SectionScene.settle = say, settle


def probe_section(section, lang: str = "ja", theme: str = "dark", head: str | None = None,
                  size: tuple[int, int] = SIZE, on_moment=None) -> Probe:
    """Render ``section`` (animations skipped, nothing encoded) and check every beat's end.

    The rendered scene and its last frame are kept on the probe (``scene``, ``frame``), so
    one render serves every check of a section.
    """
    probe = Probe(section.number)
    with hooked(probe, on_moment) as moment:
        probe.frame, probe.scene = render_last_frame(
            section, lang, theme, "burned", head, size,
            at_end=lambda scene: moment(scene, "last frame"))
    check_opening(probe.scene, probe)
    story = getattr(probe.scene, "story", None)
    if story is not None:
        check_token_names(probe, list(story.labels))
    return probe


def _cells(s: str) -> int:
    """Half-em cells of ``s`` (East Asian wide and fullwidth characters, emoji: two)."""
    import unicodedata

    return sum(0 if unicodedata.combining(c) or c in "\ufe0e\ufe0f"
               else 2 if unicodedata.east_asian_width(c) in "WF" or ord(c) >= 0x1F000 else 1
               for c in s)


#: The widest token name never cut on screen (half-em cells), as the README promises.
UNCUT_CELLS = 12
_SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉"


def _split_sub(s: str) -> tuple[str, str]:
    base = s.rstrip(_SUBSCRIPTS)
    return base, s[len(base):]


def token_forms(probe: Probe, labels: list[str]) -> dict[str, set[str]]:
    """Label -> the forms of it seen in the section's texts (outside the caption): the whole
    label, or a cut of it (a prefix, an ellipsis, its subscript), as a text or a word of one."""
    forms: dict[str, set[str]] = {lab: set() for lab in labels}
    pieces: set[str] = set()
    for boxes in probe.boxes.values():
        for x in boxes:
            if not x.in_caption:
                pieces.add(x.text.strip())
                pieces.update(p for p in re.split(r"[\s→\[\]=(),:]+", x.text) if p)
    for lab in labels:
        base, sub = _split_sub(lab)
        for p in pieces:
            pbase, psub = _split_sub(p)
            if psub != sub or not pbase.endswith("\u2026"):
                continue
            stem = pbase[:-1]
            if stem and base.startswith(stem) and stem != base:
                forms[lab].add(p)
        if _cells(base) > UNCUT_CELLS and forms[lab] and lab in pieces:
            forms[lab].add(lab)
    return forms


def check_token_names(probe: Probe, labels: list[str]) -> None:
    """One cut per token per section, and no token of :data:`UNCUT_CELLS` cells or fewer cut."""
    for lab, seen in token_forms(probe, labels).items():
        cuts = sorted(f for f in seen if f != lab)
        if cuts and _cells(_split_sub(lab)[0]) <= UNCUT_CELLS:
            probe.add("token names", f"{lab!r} ({_cells(_split_sub(lab)[0])} cells) is cut to "
                                     + ", ".join(map(repr, cuts)))
        if len(seen) > 1:
            probe.add("token names", f"{lab!r} is shown {len(seen)} ways: "
                                     + ", ".join(map(repr, sorted(seen))))
