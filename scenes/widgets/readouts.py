"""Readouts: a name and a live number, one line or a table of lines.

The one place for "what is this number now" beside a picture:

- :class:`Readout`, the line type: a name and a live number on one baseline, the number
  growing to the right from a fixed left end, optionally in the sign colour of what it
  shows. :class:`CellReadout` (``query → key   value``, one matrix entry) is a configuration
  of it: its name is the two tokens and an arrow, with an optional icon; so is
  :class:`LabeledNumber` (a count right-aligned at a given width).
- :class:`ReadoutPanel`, the panel type: rows of ``name  number``, every row on its own
  baseline, the names on one column and the numbers on the next. :class:`RowReadout` (one
  row of a matrix, ``key  value`` per column, live) is a composition of two panels (the
  entries, the summary lines under a rule) with a swapped title and a marker.
- :class:`VectorReadout`: ``name = [a, b]``, a line whose value is a vector (a different
  layout: brackets and commas that never move, each entry in a slot of its own).
- :class:`TotalReadout`: a total shown beside its parts (sections 11, 12, 18), a
  :class:`Readout` with a small note over it saying the parts are rounded, shown only while
  the parts as shown do not add up to the total as shown.

The shadow construction's ``shadow × key length = score``
(:class:`scenes.widgets.shadow.ShadowReadout`) is an equation, not a readout: it stays with
the construction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np
from manim import DOWN, LEFT, ORIGIN, RIGHT, UP, Line, Rectangle, VGroup, VMobject

from attn_math.sums import parts_add_up

from .. import style, timing
from ..layout import Box
from .live_number import LiveNumber
from .redrawn import Redrawn, live_source
from .text import baseline, baseline_drop, label

__all__ = ["WIDE_NUMBER", "CellReadout", "LabeledNumber", "Readout", "ReadoutPanel", "RowReadout",
           "TotalReadout", "VectorReadout", "latin_baseline"]

#: The widest text an entry takes (two decimals, a minus sign): the width of a slot.
WIDE_NUMBER = "\u22120.00"

Vec = Callable[[], Sequence[float]] | Sequence[float]


def latin_baseline(mob, s: str) -> float:
    """Baseline of a one-line label, read from its Latin glyphs when it has any.

    CJK glyphs sit on the ideographic bottom, below the Latin baseline the digits use, so
    they are left out (``text.baseline`` already leaves out glyphs with descenders).
    """
    glyphs = [c for c in s if not c.isspace()]
    latin = [g.get_bottom()[1] for c, g in zip(glyphs, mob.submobjects)
             if c.isascii() and c.isalnum() and c not in "gjpqyQ"]
    return min(latin) if latin else baseline(mob, s)


def _word(s: str, size: float, color: str, x: float, drop: float):
    """The label ``s`` with its left end at ``x`` and its baseline at ``-drop`` (a word of a
    line laid out from its centre, see :func:`baseline_drop`)."""
    mob = label(s, size, color)
    mob.move_to([x + mob.width / 2, 0, 0])
    mob.shift([0, -drop - baseline(mob, s), 0])
    return mob


def _signed(number: LiveNumber) -> None:
    """Updater: ``number`` in the sign colour of what it shows (0.00 in the text colour)."""
    number.set_fill(style.score_text_color(number.get_value(), number.decimals))


class Readout(VGroup):
    """``name`` followed by a live number that shows ``get()`` on every frame.

    The number grows to the right from a fixed left end. ``sample`` is the widest value
    expected: the group is laid out (and sized, for placing it) as if showing it, so a
    readout aligned to the right edge never runs past it. Other keyword arguments go to
    :class:`LiveNumber` (``decimals``, ``sci``, ``sci_below``...).

    Parameters
    ----------
    name
        The text on the left (set in ``name_color``), or a mobject already laid out on
        the baseline ``name_baseline`` (e.g. several words in their own colours).
    get
        Zero-argument callable: the value shown; or a fixed value (shown until the
        caller makes ``number`` follow a source).
    color
        Colour of the number (default: the text colour ``fg``); see ``signed``.
    size
        Font size of the name and the number.
    name_color
        Colour of a text name (default ``fg``).
    sample
        The widest value expected (default: ``get()`` now).
    name_baseline
        The baseline of a mobject ``name`` (a text name's is read from its glyphs).
    gap
        Space between the name's right end and the number.
    width
        Right-align the number instead, its right end this far from the name's left end
        (so a column of lines of one ``width`` lines up on the right); ``gap`` is unused.
    signed
        Colour the number by the sign of what it shows (:func:`scenes.style.score_text_color`
        at its decimals), in place of ``color``.

    Attributes
    ----------
    number
        The :class:`LiveNumber` (the name is the first submobject, see :meth:`line`;
        manim's ``Mobject.__init__`` sets ``name`` to a string).
    sample_width
        Width of the line while showing ``sample``.
    """

    def __init__(self, name: str | VMobject, get: Callable[[], float], color: str | None = None,
                 size: float = style.NUMBER_SIZE, name_color: str | None = None,
                 sample: float | None = None, *, name_baseline: float | None = None,
                 gap: float = style.NEAR, width: float | None = None, signed: bool = False,
                 **number_kw):
        t = style.theme()
        if isinstance(name, str):
            self.name = label(name, size, name_color or t.fg)
            line = latin_baseline(self.name, name)
        else:
            self.name, line = name, name_baseline
        source = live_source(get)
        first = source() if sample is None else sample
        self.number = LiveNumber(first, font_size=size, color=color or t.fg,
                                 align="left" if width is None else "right", **number_kw)
        x = (self.name.get_right()[0] + gap if width is None
             else self.name.get_left()[0] + width)
        self.number.move_anchor_to(np.array([x, line, 0.0]))
        super().__init__(self.name, self.number)
        self.sample_width = self.width
        self.number.follow(source)
        if signed:
            self.number.add_updater(_signed, call_updater=True)

    def line(self) -> VGroup:
        """The name and the number: the line that is placed (a subclass may add parts
        around it, as :class:`TotalReadout`'s note)."""
        return VGroup(*self.submobjects[:2])   # (``self.name`` is manim's name string after init)

    def place_right(self, point: np.ndarray) -> Readout:
        """Put the right end of the line's widest expected string at ``point`` (same
        height); anything added around the line moves with it."""
        line = self.line()
        self.shift(point - np.array([line.get_left()[0] + self.sample_width, line.get_y(), 0.0]))
        return self


class TotalReadout(Redrawn, Readout):
    """A total shown beside its parts (11's ``Σ``, 12's and 18's ``Σ w``), with a note over
    it while the parts as shown do not add up to it.

    Each number on screen is rounded right, yet rounded parts need not add up to the rounded
    total: a row of weights sums to exactly 1, and eight of them at two decimals may add to
    1.02 under "Σ w = 1.00". The parts keep their nearest rounding and the total its value;
    a small muted note ("parts rounded") tells the viewer who adds them why they miss. It is
    decided on every frame from the values shown (:func:`attn_math.sums.parts_add_up`), so
    it comes and goes as the parts move, and is never shown while they add up.

    Parameters
    ----------
    name, get
        The total's name and its live value, as for :class:`Readout`.
    parts
        Zero-argument callable: the parts shown now (the values their numbers show).
    note
        The note's words (a ``ui_`` entry of the section's caption table).
    parts_decimals
        The decimals the parts are shown with.
    decimals
        The total's decimals.
    **kw
        Other :class:`Readout` arguments (``color``, ``sample``...).

    Attributes
    ----------
    note
        The note's text, right-aligned over the line (fill opacity 0 while the parts add up).
        Over it, not under: a total sits on the top header line of a row of bars, and what
        lies under it (the numbers over the bars, section 12's score row) takes the room
        down to the line, while over it the frame is free below the title band.
    """

    #: Space between the line's highest ink and the note (more than the probe's MIN_GAP).
    NOTE_GAP = 0.1
    #: The note's font size: the project's small size (a line of secondary text).
    NOTE_SIZE = style.SMALL_SIZE
    #: Seconds the note takes to come or go. While the parts move, whether they add up can
    #: change many times a second (95 times in the default sentence's 5.5 s drag of section
    #: 12 at 60 fps): shown as is, the note would strobe; it eases toward what the values
    #: say at this pace instead, and holds exactly that once they rest (a beat settles for
    #: longer).
    NOTE_FADE = timing.QUICK

    def __init__(self, name: str | VMobject, get: Callable[[], float], parts: Vec, note: str,
                 *, parts_decimals: int, decimals: int, **kw):
        super().__init__(name, get, decimals=decimals, **kw)
        self.total_fn = live_source(get)
        self.parts_fn = live_source(parts)
        self.parts_decimals = int(parts_decimals)
        self.note = label(note, self.NOTE_SIZE, style.theme().muted)
        self.note.fade_time = self.NOTE_FADE
        self.add(self.note)
        self._place_note()
        self.note.set_fill(opacity=self._note_wanted())
        self.redraw_every_frame()

    def _place_note(self) -> None:
        line = self.line()
        right = line.get_left()[0] + self.sample_width
        self.note.move_to(np.array([right, line.get_top()[1] + self.NOTE_GAP, 0.0]),
                          aligned_edge=DOWN + RIGHT)

    def parts_add_up(self) -> bool:
        """Whether the parts as shown now add up to the total as shown now."""
        return parts_add_up(np.asarray(self.parts_fn(), float), self.parts_decimals,
                            self.number.decimals, total=float(self.total_fn()))

    def _note_wanted(self) -> float:
        return 0.0 if self.parts_add_up() else 1.0

    def redraw(self) -> None:
        # The note eases toward the opacity the values ask for (a time-based updater, only
        # while it differs: a wait with nothing to ease stays one still frame).
        note = self.note
        note.wanted = self._note_wanted()
        easing = _ease_note in note.get_updaters()
        if _opacity(note) != note.wanted and not easing:
            note.add_updater(_ease_note)
        elif _opacity(note) == note.wanted and easing:
            note.remove_updater(_ease_note)

    def finish_easing(self) -> None:
        """End the note's easing where it is going (called by
        :meth:`scenes.base.SectionScene.wait` before every wait: the values rest during a
        wait, and an easing held into it would time the wait differently in a render and in
        the caption-timing run)."""
        note = self.note
        if _ease_note in note.get_updaters():
            note.remove_updater(_ease_note)
            note.set_fill(opacity=note.wanted)


def _opacity(mob: VMobject) -> float:
    return float(np.max(mob.get_fill_opacity()))


def _ease_note(note: VMobject, dt: float) -> None:
    """Updater: move ``note``'s opacity toward ``note.wanted`` by ``dt / note.fade_time``."""
    now, step = _opacity(note), dt / note.fade_time
    gap = note.wanted - now
    note.set_fill(opacity=note.wanted if abs(gap) <= step else now + np.sign(gap) * step)


class CellReadout(Readout):
    """One matrix entry as a line ``query → key   value`` (query and key in their role colours).

    A :class:`Readout` whose name is three words on one baseline (and an optional icon).

    Parameters
    ----------
    query, key
        Token labels of the row and the column.
    get_value
        Callable returning the entry; the live number follows it on every frame.
    icon
        Optional small mobject drawn left of the line (e.g. a copy of the frame that marks
        the cell on the grid), so the line and the cell read as one.
    decimals, size
        Number format and font size (see :meth:`fit_size` for a line that must fit a panel).
    signed_colors
        Colour the number by its sign (scores); else ``color`` (default ``theme.fg``).
    """

    #: Gaps (frame units): after the icon, between query, arrow and key.
    ICON_GAP, WORD_GAP = 0.2, 0.12

    @classmethod
    def fit_size(cls, pairs: Iterable[tuple[str, str]], width: float, *,
                 size: float = style.LABEL_SIZE, icon_width: float = 0.0, decimals: int = 2,
                 number_gap: float = 0.45, min_size: float = style.TINY_SIZE) -> float:
        """The font size (at most ``size``, at least ``min_size``) at which the line of every
        ``(query, key)`` pair fits ``width``, so that lines shown together share one size."""
        fixed = (icon_width + cls.ICON_GAP if icon_width else 0.0) + 3 * cls.WORD_GAP + number_gap
        number = label("\u22120." + "0" * decimals, size).width
        words = max(label(q, size).width + label("→", size).width + label(k, size).width
                    for q, k in pairs)
        room = width - fixed
        if words + number <= room:
            return float(size)
        return float(max(min_size, size * room / (words + number)))

    def __init__(self, query: str, key: str, get_value: Callable[[], float], *,
                 icon: VMobject | None = None, decimals: int = 2,
                 size: float = style.LABEL_SIZE, signed_colors: bool = True,
                 color: str | None = None, number_gap: float = 0.45):
        t = style.theme()
        drop = baseline_drop(size)
        x = 0.0
        words = VGroup()
        if icon is not None:
            icon.move_to([icon.width / 2, 0, 0])
            x = icon.width + self.ICON_GAP
            words.add(icon)
        for s, colour in ((query, t.query), ("→", t.muted), (key, t.key)):
            mob = _word(s, size, colour, x, drop)
            x += mob.width + self.WORD_GAP
            words.add(mob)
        super().__init__(words, get_value, color, size, name_baseline=-drop,
                         gap=self.WORD_GAP + number_gap, signed=signed_colors,
                         decimals=decimals)


class LabeledNumber(Readout):
    """``name ........ value`` on one line, the value a live number right-aligned at ``width``.

    A :class:`Readout` of a count (section 8's dot products, section 17's cells): the
    numbers of a column of these line up on the right.

    Parameters
    ----------
    name
        The text on the left (already localised by the caller).
    value
        Initial value; bind with ``.number.follow(tracker_or_callable)``.
    width
        Distance from the name's left edge to the number's right end (so a column of
        these lines up on the right).
    decimals, thousands
        Passed to :class:`LiveNumber` (``thousands`` groups digits: ``1,000,000``).
    """

    def __init__(self, name: str, value: float = 0.0, *, width: float = 4.0, decimals: int = 0,
                 thousands: bool = True, size: float = style.LABEL_SIZE,
                 name_color: str | None = None, color: str | None = None):
        t = style.theme()
        drop = baseline_drop(size)
        super().__init__(_word(name, size, name_color or t.muted, 0.0, drop), value, color,
                         size, name_baseline=-drop, width=width, decimals=decimals,
                         thousands=thousands)


class ReadoutPanel(VGroup):
    """Rows of ``name  number``: the names on one column, the numbers on the next.

    Every row sits on one text baseline (names and digits alike), so the panel reads as a
    table while the numbers change width. Row 0's baseline is at y = 0, its name column
    ends (or, with ``names_align=LEFT``, starts) at x = 0.

    Parameters
    ----------
    rows
        ``(name, number)`` pairs; ``number`` is a :class:`LiveNumber` (anchored on the row's
        baseline, ``gap`` right of x = 0) or any other mobject.
    size
        Font size of the names.
    row_gap
        Vertical distance between baselines, in frame units.
    color
        Colour of the names (default: muted).
    gap
        x of the numbers' anchors (their left ends, unless ``number_align`` says otherwise).
    names_align
        ``RIGHT``: the names are right-aligned, ending at x = 0; ``LEFT``: left-aligned,
        starting there.
    number_align
        The ``align`` each :class:`LiveNumber` is set to (``"left"``: its left end stays
        fixed while its digits change), or ``None`` to keep the number's own (``"point"``
        lines a column up on the decimal point).

    Attributes
    ----------
    names, numbers
        The name texts and the number mobjects, in row order.
    """

    def __init__(self, rows: Sequence[tuple[str, VMobject]], size: float = style.LABEL_SIZE,
                 row_gap: float = 0.5, color: str | None = None, gap: float = 0.18, *,
                 names_align: np.ndarray = RIGHT, number_align: str | None = "left"):
        t = style.theme()
        names, numbers = [], []
        for i, (name, num) in enumerate(rows):
            y = -i * row_gap
            txt = label(name, size, color or t.muted)
            txt.move_to(ORIGIN, aligned_edge=names_align)
            txt.shift((y - baseline(txt, name)) * UP)
            if isinstance(num, LiveNumber):
                if number_align is not None:
                    num.set_format(align=number_align)
                num.move_anchor_to(np.array([gap, y, 0]))
            else:
                num.move_to([gap, y, 0], aligned_edge=LEFT)
            names.append(txt)
            numbers.append(num)
        super().__init__(*names, *numbers)
        self.names, self.numbers = names, numbers

    def row(self, i: int) -> VGroup:
        """Name and number of row ``i`` (e.g. to highlight or fade it)."""
        return VGroup(self.names[i], self.numbers[i])

    def place_under(self, mob: VMobject, box, buff: float = style.ROW) -> ReadoutPanel:
        """Put the panel ``buff`` under ``mob`` with its name column ending at the middle of
        ``box`` (left, right, bottom, top), so names and numbers share the box's width."""
        box = Box(*box)
        self.next_to(mob, DOWN, buff=buff)
        self.shift((box.l + 0.5 * box.width - self.names[0].get_right()[0]) * RIGHT)
        return self


class RowReadout(Redrawn, VGroup):
    """One row of a matrix as a column of lines ``key label   value``, values live.

    A composition of :class:`ReadoutPanel` tables: the entries (names left-aligned in the
    key colour, values on their decimal points), and the summary lines under a rule; above
    them a title swapped by opacity, and a marker on one entry.

    Parameters
    ----------
    col_labels
        Labels of the columns (one line each, in the key colour).
    get_row
        Callable returning the row's values (length ``len(col_labels)``); read every frame.
    box
        ``(left, right, bottom, top)`` the readout fits in (top-aligned, horizontally centred).
    title
        Optional callable returning an index into ``titles``: which title to show (e.g. the
        highlighted query). Titles are rendered once and swapped by opacity.
    titles
        Title strings (e.g. ``["row the", "row cat", ...]``), in the query colour.
    extra
        ``[(name, callable), ...]``: summary lines under a rule (e.g. ``max − min``).
    decimals
        Decimals of every value.
    signed_colors
        Colour each value by its sign (scores); otherwise values use ``value_color``.
    mark
        Optional callable returning a column index to mark (e.g. the row's largest), or None.
    """

    def __init__(self, col_labels: Sequence[str], get_row: Callable[[], np.ndarray], box: Box,
                 *, title: Callable[[], int] | None = None, titles: Sequence[str] = (),
                 extra: Sequence[tuple[str, Callable[[], float]]] = (), decimals: int = 2,
                 signed_colors: bool = True, value_color: str | None = None,
                 mark: Callable[[], int | None] | None = None, size: float | None = None):
        t = style.theme()
        l, r, b, top = box
        k = len(col_labels)
        n_lines = k + len(extra) + (1.4 if titles else 0) + (0.5 if extra else 0)
        line_h = min(0.5, (top - b) / max(n_lines, 1))
        size = size or float(min(style.LABEL_SIZE, max(style.TINY_SIZE, line_h * 48)))
        self.get_row = live_source(get_row)
        self.signed, self.value_color = signed_colors, value_color or t.fg
        name_w = max([label(s, size).width for s in [*col_labels, *(e for e, _ in extra)]])
        num_w = label("−0." + "0" * decimals, size).width
        width = name_w + 0.35 + num_w
        x_left = (l + r) / 2 - width / 2
        # The values line up on their decimal points, a decimal part's width from the right.
        point = width - label("." + "0" * decimals, size).width
        drop = baseline_drop(size)
        y = top
        self.titles = VGroup()
        if titles:
            for s in titles:
                tm = label(s, size, t.query)
                tm.move_to([(l + r) / 2, y - line_h * 0.5, 0])
                self.titles.add(tm)
            y -= line_h * 1.4
        values = [LiveNumber(0.0, decimals=decimals, font_size=size, color=self.value_color)
                  for _ in col_labels]
        self.entries = ReadoutPanel(list(zip(col_labels, values)), size, line_h, t.key,
                                    point, names_align=LEFT, number_align=None)
        self.entries.shift(np.array([x_left, y - line_h / 2 - drop, 0.0]))
        self.rows = list(zip(self.entries.names, self.entries.numbers))
        y -= line_h * k
        parts = [self.titles, self.entries]
        self.summary = None
        if extra:
            y -= line_h * 0.25
            parts.append(Line([x_left, y, 0], [x_left + width, y, 0]).set_stroke(t.muted, 1.5))
            y -= line_h * 0.25
            self._extra_fns = [live_source(fn) for _, fn in extra]
            self.summary = ReadoutPanel(
                [(s, LiveNumber(fn(), decimals=decimals, font_size=size, color=t.fg))
                 for s, fn in extra], size, line_h, t.muted, point, names_align=LEFT,
                number_align=None)
            self.summary.shift(np.array([x_left, y - line_h / 2 - drop, 0.0]))
            parts.append(self.summary)
        self.marker = None
        if mark is not None:
            self.marker = Rectangle(width=width + 0.2, height=line_h * 0.95,
                                    stroke_color=t.amber, stroke_width=2.5, fill_opacity=0)
            parts.append(self.marker)
        super().__init__(*parts)
        self._title_fn, self._mark_fn = live_source(title), live_source(mark)
        self._x_mid = x_left + width / 2
        self.redraw_every_frame()

    def redraw(self) -> None:
        row = np.asarray(self.get_row(), float)
        for (_, val), v in zip(self.rows, row):
            val.set_value(v)
            if self.signed:
                _signed(val)
        if self.summary is not None:
            for val, fn in zip(self.summary.numbers, self._extra_fns):
                val.set_value(fn())
        if self._title_fn is not None and len(self.titles):
            k = self._title_fn()
            for idx, tm in enumerate(self.titles):
                tm.set_opacity(1.0 if idx == k else 0.0)
        if self.marker is not None:
            j = self._mark_fn()
            if j is None:
                self.marker.set_stroke(opacity=0)
            else:
                self.marker.set_stroke(opacity=1)
                self.marker.move_to([self._x_mid, self.rows[j][0].get_center()[1], 0])


class VectorReadout(VGroup):
    """``name = [a, b]`` whose numbers follow a vector on every frame.

    Not a :class:`Readout`: the value is a vector, laid out in brackets with a fixed slot
    per entry and commas that never move, so a readout of a moving vector does not jitter.

    Parameters
    ----------
    name
        The symbol on the left (a mobject, or a string set in ``name_color``).
    get
        Zero-argument callable returning the vector shown, or a fixed vector (then the
        readout has no updater, and a still frame costs nothing to hold).
    color
        Colour of the brackets (and of the name unless ``name_color`` is given).
    size
        Font size.
    number_color
        Colour of the numbers (default: the text colour ``fg``).
    name_color
        Colour of the name, when it differs from the brackets'.
    equals
        Put a muted ``=`` between the name and the bracket; ``False`` when the name already
        ends with one (so that a column of readouts can right-align their names).

    Attributes
    ----------
    numbers
        The :class:`LiveNumber` entries, in order.
    brackets
        The two brackets (to recolour them with the numbers).
    """

    def __init__(self, name, get: Vec, color: str, size: float = style.SMALL_SIZE,
                 number_color: str | None = None, *, name_color: str | None = None,
                 equals: bool = True):
        t = style.theme()
        fixed = None if callable(get) else np.asarray(get, float)
        if fixed is not None:
            def get():
                return fixed
        sym = label(name, size, name_color or color) if isinstance(name, str) else name
        parts = [sym]
        left = sym
        if equals:
            eq = label("=", size, t.muted)
            eq.next_to(sym, RIGHT, buff=style.CLOSE)
            parts.append(eq)
            left = eq
        # A name that ends in its own "=" keeps the wider gap such names always had.
        lb = label("[", size, color).next_to(left, RIGHT, buff=style.CLOSE if equals else 0.2)
        slot = label(WIDE_NUMBER, size).width
        v = np.asarray(get(), float)
        nums, commas = [], []
        x = lb.get_right()[0] + 0.05
        base = baseline(lb, "[")
        for k in range(len(v)):
            n = LiveNumber(v[k], decimals=2, font_size=size, color=number_color or t.fg,
                           align="right")
            x += slot
            n.move_anchor_to(np.array([x, base, 0.0]))
            nums.append(n)
            if k < len(v) - 1:
                comma = label(",", size, t.muted)
                comma.move_to(np.array([x + 0.06, 0, 0]))
                comma.shift((base - comma.get_bottom()[1]) * UP + 0.02 * DOWN)
                commas.append(comma)
                x += 0.17
        rb = label("]", size, color)
        rb.move_to(np.array([x + 0.06 + rb.width / 2, lb.get_center()[1], 0]))
        # Drawing order: name, =, [, then numbers and commas alternating, ].
        body = [m for pair in zip(nums, [*commas, None]) for m in pair if m is not None]
        super().__init__(*parts, lb, *body, rb)
        self.numbers = nums
        self.brackets = VGroup(lb, rb)
        self.get = get
        if fixed is None:
            for k, n in enumerate(nums):
                n.follow(lambda k=k: float(get()[k]))
