"""Widgets drawn from live sources (trackers, callables) and redrawn on every frame.

One piece for a pattern the widgets used to hand-roll (``self._redraw(); self.add_updater(
lambda m: m._redraw())``): a widget implements :meth:`Redrawn.redraw` (read its sources,
move its parts) and calls :meth:`Redrawn.redraw_every_frame` once its parts exist. Its
sources are kept through :func:`live_source`, so that copies of the widget share them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["LiveSource", "Redrawn", "live_source"]


class LiveSource:
    """A callable kept by reference when its mobject is copied.

    Mobject copies (``FadeIn`` makes one) deep-copy attributes; a bound method of the scene
    would drag the whole scene into the copy. The source of live values is shared instead.
    """

    def __init__(self, fn: Callable):
        self.fn = fn

    def __call__(self, *args):
        return self.fn(*args)

    def __deepcopy__(self, memo) -> LiveSource:
        return self

    def __copy__(self) -> LiveSource:
        return self


def live_source(x: Any) -> LiveSource | None:
    """``x`` as a shared :class:`LiveSource`: a callable as it is, a constant as a callable
    that returns it; ``None`` stays ``None`` (no source)."""
    if x is None:
        return None
    return LiveSource(x if callable(x) else (lambda: x))


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
