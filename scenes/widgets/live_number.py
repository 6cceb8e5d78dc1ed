"""A number display cheap enough to update on every frame.

Why this exists
---------------
Manim's :class:`~manim.DecimalNumber` typesets its digits with ``MathTex`` (LaTeX is not
available here) and, with ``mob_class=Text``, rebuilds and deep-copies a ``Text`` glyph per
character on every ``set_value``: about 8 ms per number per frame, which made six live numbers
cost most of a 480p frame.

:class:`LiveNumber` renders each glyph outline once per (font, weight) with manim's own
:class:`~manim.Text` (so the outlines, advances, kerning and baseline are exactly pango's), keeps
them as plain numpy arrays in a module-level cache (:mod:`scenes.widgets.glyph_cache`), and on ``set_value`` only writes point
arrays into a pool of child :class:`~manim.VMobject` slots, one per visible glyph. No ``Text``
is created and no mobject is copied on an update once the glyphs it needs are cached.

Unused slots are taken out of the family (``submobjects`` is the first *k* slots of the pool)
rather than kept with empty or transparent points: the cairo camera spends ~0.1 ms per drawn
VMobject whatever it contains, so parked slots would cost as much as visible digits.

The text comes from :func:`attn_math.fmt.fmt`, the one formatter of the project, so a live
number and a caption quoting the same figure print the same digits. The glyph outlines come
from :mod:`scenes.widgets.glyph_cache`.

Geometry conventions
--------------------
Glyph outlines are stored in *em* units, relative to the glyph's pen origin on the baseline,
y pointing up. One em at font size ``s`` is ``s * TEXT_MOB_SCALE_FACTOR /
TEXT2SVG_ADJUSTMENT_FACTOR`` manim units (0.5 at the default size 48), which is the scale
``Text`` ends up with.

The widget keeps an *anchor* (the pen position of the decimal point, or the left/right end of
the string, on the baseline) at a fixed place across updates. It does not store that place in a
separate attribute that a ``shift``/``scale``/``rotate``/``move_to`` would miss: it recovers the
affine frame (anchor position and the em axes) from the current points of three reference
points of its own glyphs, whose local coordinates it remembers. Whatever affine transformation
the user (or an animation) applied to the glyphs is therefore kept by the next update.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, Literal

import numpy as np
from manim import DEFAULT_FONT_SIZE, NORMAL, ORIGIN, VMobject
from manim.utils.color import ManimColor, ParsableManimColor

from attn_math.fmt import MINUS, fmt

from .glyph_cache import (
    BASE_CHARS,
    DEFAULT_FONT,
    EM_PER_FONT_SIZE,
    _Glyph,
    get_glyph_set,
)

__all__ = [
    "BASE_CHARS",
    "DEFAULT_FONT",
    "EM_PER_FONT_SIZE",
    "MINUS",
    "LiveNumber",
    "decimal_point_index",
    "get_glyph_set",
]

Align = Literal["point", "left", "right"]


def decimal_point_index(text: str) -> int:
    """Where ``text``'s decimal point is, or where it would be when there is none.

    ``"−3.02"`` -> 2, ``"1,536"`` -> 5 (after the last digit), ``"2e6"`` -> 1 (before the
    exponent): the position a display keeps fixed so that a column of numbers stays aligned
    while its digits change.
    """
    point = text.find(".")
    if point < 0:
        point = text.find("e")
    return len(text) if point < 0 else point


class LiveNumber(VMobject):
    """A number whose ``set_value`` is cheap enough to call every frame.

    Looks exactly like ``Text(fmt(value, ...), font=font, font_size=font_size)``
    (same outlines, kerning, baseline, fill and stroke style), and keeps its decimal point (or
    its left or right end, see ``align``) where it was placed while the digits change.

    Parameters
    ----------
    value
        Initial value.
    decimals
        Decimals shown, fixed (``1`` shows as ``1.00`` with the default 2).
    font_size
        As for :class:`~manim.Text`.
    color
        Fill colour; ``None`` for the default (white), as ``Text``.
    font, weight
        As for :class:`~manim.Text`; the font is pinned so numbers match the labels.
    unit, prefix
        Strings drawn after/before the number (``unit=" ms"``, ``prefix="≈"``); their glyphs are
        rendered once at construction.
    show_sign
        Show ``+`` before positive values.
    sci
        ``True`` for scientific notation (``1.2e−14``), ``"auto"`` for tiny/huge values only
        (``|x| < sci_below`` or ``|x| >= sci_at``).
    sci_decimals
        Mantissa decimals in scientific notation; defaults to ``decimals``.
    thousands
        Group digits with commas (``1,536``).
    align
        What stays fixed when the number of characters changes: ``"point"`` the decimal point
        (or where it would be), ``"left"`` the start, ``"right"`` the end of the string.
    extra_glyphs
        Characters to cache now besides the digits (e.g. ``"NaN∞"``), so that no ``Text`` is
        rendered mid-animation when they first appear.
    fill_opacity
        As for :class:`~manim.Text`.
    **kwargs
        Passed to :class:`~manim.VMobject`.

    Examples
    --------
    ::

        t = ValueTracker(0.0)
        n = LiveNumber(0, decimals=3, unit=" s").follow(t).to_edge(UP)
        self.add(n)
        self.play(t.animate.set_value(-1.5), run_time=timing.MOVE)
    """

    def __init__(
        self,
        value: float = 0.0,
        decimals: int = 2,
        font_size: float = DEFAULT_FONT_SIZE,
        color: ParsableManimColor | None = None,
        font: str = DEFAULT_FONT,
        unit: str = "",
        prefix: str = "",
        show_sign: bool = False,
        sci: bool | Literal["auto"] = False,
        thousands: bool = False,
        *,
        sci_decimals: int | None = None,
        sci_below: float = 1e-3,
        sci_at: float = 1e6,
        align: Align = "point",
        weight: str = NORMAL,
        extra_glyphs: str = "",
        fill_opacity: float = 1.0,
        **kwargs: Any,
    ) -> None:
        if align not in ("point", "left", "right"):
            raise ValueError(f"align must be 'point', 'left' or 'right', not {align!r}")
        if font_size <= 0:
            raise ValueError("font_size must be positive")
        self._check_decimals(decimals)
        if sci_decimals is not None:
            self._check_decimals(sci_decimals)
        self._glyph_set = get_glyph_set(font, weight)
        # Same colour handling as Text: None means the default VMobject colour.
        parsed = ManimColor(color) if color is not None else VMobject().color
        super().__init__(
            fill_color=parsed,
            fill_opacity=fill_opacity,
            stroke_width=0,
            # Text's glyphs keep the SVG default stroke colour (white) whatever their fill;
            # copy that so set_stroke(width=...) behaves the same on both.
            stroke_color=ManimColor("#FFFFFF"),
            **kwargs,
        )
        self.color = parsed
        self.font = font
        self.weight = weight
        self.decimals = int(decimals)
        self.unit = unit
        self.prefix = prefix
        self.show_sign = show_sign
        self.sci = sci
        self.sci_decimals = sci_decimals
        self.sci_below = sci_below
        self.sci_at = sci_at
        self.thousands = thousands
        self.align = align
        self._slot_style = dict(
            fill_color=parsed, fill_opacity=fill_opacity, stroke_width=0,
            stroke_color=ManimColor("#FFFFFF"),
        )
        self._pool: list[VMobject] = []
        self._subs: list[VMobject] = []
        self._n_visible = 0
        self._text: str | None = None
        self._value: Any = value
        self._follow_updater: Callable | None = None
        # Frame = anchor position O and the world vectors of one em along x (X) and y (Y).
        k = font_size * EM_PER_FONT_SIZE
        self._frame = (np.zeros(3), np.array([k, 0.0, 0.0]), np.array([0.0, k, 0.0]))
        self._ref: list[tuple[int, int, int]] = []  # (slot index, point index, n points)
        self._ref_world = np.zeros((3, 3))
        self._ref_inv = np.eye(3)
        self._warm_up(extra_glyphs)
        self._render(*self._format(value))
        # Like Text, start centred on the origin (the anchor then stays where this puts it).
        self._translate(ORIGIN - self.get_center())

    # -- formatting ----------------------------------------------------------------------------

    @staticmethod
    def _check_decimals(d: int) -> None:
        if int(d) != d or d < 0:
            raise ValueError(f"decimals must be a non-negative integer, not {d!r}")

    def _format(self, value: Any) -> tuple[str, int]:
        s = fmt(
            value,
            self.decimals,
            sign=self.show_sign,
            sci=self.sci,
            sci_decimals=self.sci_decimals,
            thousands=self.thousands,
            sci_below=self.sci_below,
            sci_at=self.sci_at,
        )
        point = decimal_point_index(s)
        return self.prefix + s + self.unit, len(self.prefix) + point

    # -- public API ----------------------------------------------------------------------------

    def set_value(self, value: float) -> LiveNumber:
        """Show ``value``; keeps the anchor, creates no Text and copies no mobject.

        Parameters
        ----------
        value
            Any real number (float, int, numpy scalar, Decimal).

        Returns
        -------
        LiveNumber
            ``self``.
        """
        self._value = value
        text, point = self._format(value)
        # Same string and glyphs untouched (moving them is fine): nothing to do.
        if text != self._text or not self._intact():
            self._render(text, point)
        return self

    def get_value(self) -> Any:
        """The value last given to :meth:`set_value` (unrounded)."""
        return self._value

    @property
    def value(self) -> Any:
        """Alias of :meth:`get_value`."""
        return self._value

    @property
    def text(self) -> str:
        """The string currently displayed."""
        return self._text or ""

    def set_decimals(self, decimals: int) -> LiveNumber:
        """Change the number of decimals shown; the anchor stays put.

        Parameters
        ----------
        decimals
            Non-negative number of decimals.

        Returns
        -------
        LiveNumber
            ``self``.
        """
        self._check_decimals(decimals)
        self.decimals = int(decimals)
        return self._refresh()

    def set_format(self, **options: Any) -> LiveNumber:
        """Change formatting options (``unit``, ``prefix``, ``show_sign``, ``sci``,
        ``sci_decimals``, ``thousands``, ``sci_below``, ``sci_at``, ``align``) and redraw.

        New characters in ``unit``/``prefix`` are rendered once, here.
        """
        allowed = {"unit", "prefix", "show_sign", "sci", "sci_decimals", "thousands",
                   "sci_below", "sci_at", "align"}
        unknown = set(options) - allowed
        if unknown:
            raise TypeError(f"unknown format options: {sorted(unknown)}")
        if options.get("align", self.align) not in ("point", "left", "right"):
            raise ValueError("align must be 'point', 'left' or 'right'")
        for key, val in options.items():
            setattr(self, key, val)
        self._warm_up()
        return self._refresh()

    def follow(
        self,
        source: Any | Callable[[], float],
        *,
        call_now: bool = True,
        setter: Callable[[LiveNumber, Any], Any] | None = None,
    ) -> LiveNumber:
        """Show ``source``'s value on every frame.

        Parameters
        ----------
        source
            A :class:`~manim.ValueTracker` (anything with ``get_value()``) or a zero-argument
            callable returning the number.
        call_now
            Update immediately, not only from the next frame.
        setter
            How a value is shown, ``setter(self, value)``; defaults to :meth:`set_value`.
            For subclasses with their own setter (e.g. one that also switches the unit), so
            they get the copy guard described below.

        Returns
        -------
        LiveNumber
            ``self``, so ``LiveNumber(0).follow(tracker).next_to(...)`` chains.

        Notes
        -----
        Replaces a previous :meth:`follow`. Like every updater it is paused while an animation
        that suspends updating (``Transform``, ``FadeIn``, ``.animate``) plays on this mobject;
        the number catches up when the animation ends.

        Copies do not follow (``copy()`` keeps the updater but it does nothing on the copy;
        call ``follow`` on the copy if wanted). This is deliberate: animations copy the
        mobject (FadeIn's start, ``.animate``'s target, Transform's start) and manim runs the
        copies' updaters; a copy that changed its number of glyphs mid-animation would no
        longer line up with the mobject and the animation would fail (as it does with
        ``DecimalNumber`` and an updater).
        """
        getter = source.get_value if hasattr(source, "get_value") else source
        if not callable(getter):
            raise TypeError("follow() needs a ValueTracker-like object or a callable")
        self.unfollow()
        owner = weakref.ref(self)
        show = type(self).set_value if setter is None else setter

        def _follow(mob: LiveNumber) -> None:
            if mob is owner():  # not on copies, see Notes
                show(mob, getter())

        self._follow_updater = _follow
        self.add_updater(_follow, call_updater=call_now)
        return self

    def unfollow(self) -> LiveNumber:
        """Remove the updater added by :meth:`follow` (others stay)."""
        if self._follow_updater is not None:
            self.remove_updater(self._follow_updater)
            self._follow_updater = None
        return self

    def get_anchor(self) -> np.ndarray:
        """World position of the anchor: the pen position of the decimal point (``align=
        "point"``), of the start or of the end of the string, on the baseline.

        Returns
        -------
        numpy.ndarray
            A 3D point; it follows every shift/scale/rotation applied to the number.
        """
        return self._current_frame()[0].copy()

    def move_anchor_to(self, point: np.ndarray) -> LiveNumber:
        """Shift so that the anchor is at ``point``.

        Use it to align a column of numbers on their decimal points, or a number's baseline
        with a label's.

        Parameters
        ----------
        point
            Target position of the anchor.

        Returns
        -------
        LiveNumber
            ``self``.
        """
        return self.shift(np.asarray(point, dtype=float) - self.get_anchor())

    @property
    def font_size(self) -> float:
        """Current font size (from the em height, so it follows ``scale``)."""
        _, _, y = self._current_frame()
        return float(np.linalg.norm(y)) / EM_PER_FONT_SIZE

    @font_size.setter
    def font_size(self, size: float) -> None:
        if size <= 0:
            raise ValueError("font_size must be positive")
        self.scale(size / self.font_size, about_point=self.get_anchor())

    # -- internals -----------------------------------------------------------------------------

    def _warm_up(self, extra: str = "") -> None:
        """Cache now every glyph this widget's strings can need, so updates never render.

        Which glyph variant a digit needs depends on the letters of the whole string (see the
        glyph cache notes), so sample strings in every format this widget can produce are
        prepared, not just characters.
        """
        gs = self._glyph_set
        samples = [0, -1234567.5]
        if self.sci is not False:
            samples += [-1.5e-9, 2.5e12]
        for v in samples:
            gs.ensure(self._format(v)[0])
        if extra:
            gs.ensure(extra)
            gs.ensure(self.prefix + extra + self.unit)

    def _refresh(self) -> LiveNumber:
        self._text = None  # force a redraw even if the string happens to be the same
        return self.set_value(self._value)

    def _intact(self) -> bool:
        """Whether the glyphs are still the ones last laid out (not reshaped by a Transform)."""
        if self.submobjects is not self._subs:
            return False
        pool = self._pool
        return all(len(pool[i].points) == n for i, _, n in self._ref)

    def _new_slot(self) -> VMobject:
        return VMobject(**self._slot_style)

    def _translate(self, v: np.ndarray) -> None:
        """Shift glyphs and bookkeeping together (no frame re-solve needed afterwards)."""
        v = np.asarray(v, dtype=float)
        for mob in self.submobjects:
            mob.points = mob.points + v
        o, x, y = self._frame
        self._frame = (o + v, x, y)
        self._ref_world = self._ref_world + v

    def _current_frame(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Recover (anchor, em x vector, em y vector) in world coordinates.

        If the reference points are where this object last put them, the cached frame is
        returned as is (exact, no drift over thousands of updates). Otherwise the glyphs were
        moved/scaled/rotated: the three reference points, whose local coordinates are known,
        determine the affine frame exactly.
        """
        return self._solve_frame()[0]

    def _solve_frame(self) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], bool]:
        if not self._ref:
            return self._frame, True
        subs = self.submobjects
        rows = []
        for slot_i, pt_i, n in self._ref:
            if slot_i >= len(subs) or subs[slot_i] is not self._pool[slot_i]:
                return self._frame, False
            pts = subs[slot_i].points
            if len(pts) != n:  # reshaped by a Transform: the stored indices mean nothing now
                return self._frame, False
            rows.append(pts[pt_i])
        w = np.array(rows)
        if np.array_equal(w, self._ref_world):
            return self._frame, True
        o, x, y = self._ref_inv @ w
        return (o, x, y), True

    def _render(self, text: str, point: int) -> None:
        """Lay ``text`` out in the pool slots, keeping the anchor where it is."""
        gs = self._glyph_set
        plan = gs.layout(text)
        if plan is None:
            # Only reached for glyphs nobody warmed up (e.g. the first NaN): rendered once.
            gs.ensure(text)
            plan = gs.layout(text)
            if plan is None:
                raise RuntimeError(f"could not lay out {text!r} in font {gs.font!r}")
        glyph_list, pens = plan
        (o, ex, ey), valid = self._solve_frame()
        old_center = None
        if not valid and self.family_members_with_points():
            # The glyphs were replaced by something else (e.g. the end of a Transform): keep the
            # em axes and put the new string where the current shape is centred.
            old_center = self.get_center()

        if self.align == "point":
            ax = pens[point]
        elif self.align == "left":
            ax = 0.0
        else:
            ax = pens[-1]

        basis = np.array([ex, ey])  # (2, 3): em coordinates -> world
        pool = self._pool
        used: list[tuple[_Glyph, float]] = []  # (glyph, x offset) per visible slot
        k = 0
        for i, glyph in enumerate(glyph_list):
            if glyph is None:  # space
                continue
            if k == len(pool):
                pool.append(self._new_slot())
            dx = pens[i] - ax
            pts = glyph.em @ basis
            pts += o + dx * ex
            pool[k].set_points(pts)
            used.append((glyph, dx))
            k += 1

        # Slots that come back from hiding may carry a stale style (set_color etc. only reach
        # the visible family): give them the style of a glyph that stayed visible.
        n_before = self._n_visible
        if 0 < n_before < k:
            ref = pool[0]
            for slot in pool[n_before:k]:
                slot.match_style(ref, family=False)
        # A slot leaving the family must also lose its outline: manim's Cairo renderer lists the
        # moving family once when a play starts, so a dropped slot that kept its points would
        # keep being drawn (a stale last digit) until the play ends.
        for slot in pool[k:n_before]:
            if len(slot.points):
                slot.clear_points()
        self.submobjects = pool[:k]  # hidden slots simply leave the family: zero render cost
        self._subs = self.submobjects  # to notice a Transform replacing the list
        self._n_visible = k
        self._text = text
        self._frame = (o, ex, ey)
        self._set_reference_points(used)
        if old_center is not None:
            self._translate(old_center - self.get_center())

    def _set_reference_points(self, used: list[tuple[_Glyph, float]]) -> None:
        """Pick three well-spread glyph points and remember their local coordinates.

        Leftmost point of the first glyph, rightmost of the last, and the highest or lowest
        point (whichever spans the larger triangle): far apart, so the frame solve is well
        conditioned.
        """

        def local(slot_i: int, pt_i: int) -> tuple[float, float]:
            glyph, dx = used[slot_i]
            return glyph.em[pt_i, 0] + dx, glyph.em[pt_i, 1]

        last = len(used) - 1
        a = (0, used[0][0].i_minx)
        b = (last, used[last][0].i_maxx)
        top = max(range(len(used)), key=lambda j: used[j][0].em[used[j][0].i_maxy, 1])
        bot = min(range(len(used)), key=lambda j: used[j][0].em[used[j][0].i_miny, 1])
        la, lb = local(*a), local(*b)
        best, best_det = None, 0.0
        for c in ((top, used[top][0].i_maxy), (bot, used[bot][0].i_miny)):
            lc = local(*c)
            det = (lb[0] - la[0]) * (lc[1] - la[1]) - (lb[1] - la[1]) * (lc[0] - la[0])
            if abs(det) > abs(best_det):
                best, best_det = c, det
        if best is None or abs(best_det) < 1e-6:
            self._ref = []  # degenerate (no real string gets here): rely on the cached frame
            return
        refs = [a, b, best]
        self._ref_inv = np.linalg.inv(np.array([[1.0, *local(*r)] for r in refs]))
        self._ref = [(s, p, len(self._pool[s].points)) for s, p in refs]
        self._ref_world = np.array([self._pool[s].points[p] for s, p in refs])
