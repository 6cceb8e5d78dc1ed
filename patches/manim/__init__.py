"""Every change the project makes to manim (Community Edition 0.22.0), one module per concern.

A package rather than one module: the four concerns share no code and each comes with its
own test and its own measure, and together they are about 600 lines (the Text build alone
is 280), past what reads well as one file.

=======================  ==================================================  ===============
module                   replaces or wraps                                   applied
=======================  ==================================================  ===============
:mod:`.copies`           ``Mobject.__deepcopy__``, ``ManimColor`` copies     at start-up
:mod:`.text`             ``SVGMobject.generate_mobject`` as ``Text`` has it  at start-up
:mod:`.encoder`          ``VideoSegmentEncoder.write_frame``                 at start-up
:mod:`.renderer`         ``CairoRenderer`` methods (and one of ``Scene``)    in a block
=======================  ==================================================  ===============

What each buys, measured, and the digest of each upstream definition are in the table of
:mod:`patches`. :func:`install` applies the ones every scene needs; the renderer's two are
context managers, for the length of a still, a layout probe or the caption timing pass.
"""

from __future__ import annotations

__all__ = ["install"]


def install() -> None:
    """Apply the permanent patches (idempotent): mobject and colour copies, Text's glyphs,
    the encoder's frames."""
    from . import copies, encoder, text

    copies.install()
    text.install()
    encoder.install()
