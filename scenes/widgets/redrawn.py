"""Widgets drawn from live sources (trackers, callables) and redrawn on every frame.

One piece for a pattern the widgets used to hand-roll (``self._redraw(); self.add_updater(
lambda m: m._redraw())``): a widget implements :meth:`Redrawn.redraw` (read its sources,
move its parts) and calls :meth:`Redrawn.redraw_every_frame` once its parts exist.
"""

from __future__ import annotations


def _redraw(mob: Redrawn) -> None:
    # A module-level function, not a lambda or a bound method: copies of the widget (made by
    # animations) get the same updater, which redraws the copy itself.
    mob.redraw()


class Redrawn:
    """Mixin for a :class:`~manim.Mobject` whose look follows live sources."""

    def redraw(self) -> None:
        """Read the sources and update the parts (called on every frame)."""
        raise NotImplementedError

    def redraw_every_frame(self) -> Redrawn:
        """Draw now, and add the updater that redraws on every frame; returns ``self``."""
        self.redraw()
        self.add_updater(_redraw)
        return self
