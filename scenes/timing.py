"""How long things take on screen, in seconds: the video's tempo in one place.

Scenes write ``run_time=timing.ENTER`` rather than ``run_time=0.8``, so the pace of every
section can be tuned here. The names say what kind of motion takes that long; a scene's own
long moves (a 5-second slider sweep) stay named constants of that scene.
"""

from __future__ import annotations

from .style import BEAT, MOVE, READ

__all__ = ["BEAT", "ENTER", "FADE", "FLASH", "LAST_HOLD", "LAST_HOLD_LONG", "LONG_MOVE", "MOVE",
           "QUICK", "READ", "SNAP"]

#: A near-instant change (a colour snapping, a tick appearing).
SNAP = 0.25
#: A flash or a caption swap.
FLASH = 0.4
#: A short fade or a small move.
QUICK = 0.5
#: A fade of one element.
FADE = 0.6
#: A group of elements entering, or a highlight.
ENTER = 0.8
#: BEAT (1.0, from style): one action, e.g. an Indicate or a panel fading in.
#: MOVE (2.0, from style): a typical slider move.
#: A slow move across a whole range.
LONG_MOVE = 3.0

#: The least a section's last beat holds (``settle``): the cut to the next section comes
#: after a pause, not as the last thing drawn arrives.
LAST_HOLD = 1.5
#: The same, for a section that ends on something more to read (a recap, a card, a list).
LAST_HOLD_LONG = 2.0
