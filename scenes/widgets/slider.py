"""An on-screen slider: track, knob and value, the knob driven by a ValueTracker."""

from __future__ import annotations

import numpy as np
from manim import LEFT, RIGHT, Circle, Line, ValueTracker, VGroup

from attn_math.fmt import round_half_away

from .. import style
from .text import label

__all__ = ["CountTracker", "Slider", "rows_at"]


def rows_at(rows, k: float):
    """``rows`` read at a fractional index ``k`` (clipped to the rows): linear between the two
    rows around it, so a slider over positions, stages or modes moves a row smoothly
    (``rows_at([a, b], 0.25)`` is ``0.75 a + 0.25 b``)."""
    k = float(np.clip(k, 0, len(rows) - 1))
    i = min(int(k), len(rows) - 2)
    a = k - i
    return (1 - a) * rows[i] + a * rows[i + 1]

class CountTracker(ValueTracker):
    """The tracker of a slider over a count (a head width, a token count).

    The value moves smoothly, so bars and markers glide between whole numbers; readouts
    show :meth:`count`, the value rounded to a whole number (a width of 37.4 reads 37).
    """

    def count(self) -> int:
        """The value as a whole number, as the readouts show it.

        Rounded half away from zero like every number :func:`attn_math.fmt.fmt` prints
        (``round()`` would round 2.5 to 2 while a readout of the value prints 3).
        """
        return int(round_half_away(self.get_value(), 0))


class Slider(VGroup):
    """A horizontal slider whose knob moves with ``tracker``.

    Parameters
    ----------
    tracker
        The ValueTracker this slider shows (animate the tracker, not the knob).
    lo, hi
        The track's range. ``log=True`` spaces it logarithmically.
    name
        Text on the left of the track.
    width
        Track length in frame units.
    readout
        Optional mobject with ``set_value`` (a LiveNumber) placed right of the
        track; it is bound to the tracker here. ``transform`` maps the tracker's
        value to what the readout shows.
    """

    def __init__(self, tracker: ValueTracker, lo: float, hi: float, name: str = "",
                 width: float = 4.0, log: bool = False, readout=None, transform=None,
                 color: str | None = None, size: float = style.SMALL_SIZE):
        t = style.theme()
        self.tracker, self.lo, self.hi, self.log = tracker, lo, hi, log
        start, end = np.array([-width / 2, 0, 0]), np.array([width / 2, 0, 0])
        track = Line(start, end, color=t.muted, stroke_width=4)
        self.track = track
        fill = Line(start, start + 1e-4 * RIGHT, color=color or t.amber, stroke_width=6)
        knob = Circle(radius=0.11, color=color or t.amber, fill_opacity=1, stroke_width=0)
        parts = [track, fill, knob]
        self.name = None
        if name:
            self.name = label(name, size, t.fg).next_to(track, LEFT, buff=style.NUDGE + style.GAP)
            parts.append(self.name)
        self.readout = readout
        if readout is not None:
            readout.next_to(track, RIGHT, buff=style.ROW)
            parts.append(readout)
        super().__init__(*parts)
        self.fill, self.knob = fill, knob
        f = transform or (lambda x: x)

        def follow(_):
            x = self.position(tracker.get_value())
            knob.move_to(x)
            fill.put_start_and_end_on(track.get_start(), x + 1e-4 * RIGHT)
            if readout is not None:
                readout.set_value(f(tracker.get_value()))

        self._follow = follow
        follow(None)
        knob.add_updater(follow)

    def fraction(self, value: float) -> float:
        if self.log:
            a = (np.log(value) - np.log(self.lo)) / (np.log(self.hi) - np.log(self.lo))
        else:
            a = (value - self.lo) / (self.hi - self.lo)
        return float(np.clip(a, 0.0, 1.0))

    def position(self, value: float) -> np.ndarray:
        """Screen point on the track for ``value``."""
        s, e = self.track.get_start(), self.track.get_end()
        return s + self.fraction(value) * (e - s)
