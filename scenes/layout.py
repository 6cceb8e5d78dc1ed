"""A rectangle of the frame to lay mobjects out in: :class:`Box` (defined, with every box
operation, in the manim-free :mod:`scenes.geometry`; this module keeps the name scenes
import it by)."""

from __future__ import annotations

from .geometry import Box, fit_width

__all__ = ["Box", "fit_width"]
