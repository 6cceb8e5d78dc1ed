"""A total shown beside its parts is the sum of the parts as shown, or says they are rounded.

Each number on screen is rounded right, yet rounded parts need not add up to the rounded
total: two leaked weights of 0.0395 show 0.040 and 0.040 under "Σ = 0.079", and a viewer adds
them. Section 19 coarsens its total until they agree ("Σ = 0.08"); a row of weights that sums
to exactly 1 may show 8-12 weights adding to 0.99-1.03 at the storyboard's two decimals under
"Σ w = 1.00", and no total agrees with them. The parts keep their nearest rounding and the
total its value; the total's readout then shows a note ("parts rounded",
:class:`scenes.widgets.readouts.TotalReadout`). The sections that show a total beside its
parts (11's Σ over the staircase, 12's Σ w, 18's Σ w, 19's leak) are read while the layout
probe renders them (``tests/test_layout.py`` for its sentences, ``tests/test_scenes.py`` for
the default one: no render of its own): at the end of every beat the visible bars' numbers,
parsed from their text, are added and compared with the total's text; where they do not add
up the note must be visible, where they do it must not be. Live numbers during a move are not
read (only settled frames are). The rule itself is tested without rendering in
``tests/test_sums.py``.
"""

from __future__ import annotations

from decimal import Decimal

from attn_math import MINUS
from tests.support.layout_probe import VISIBLE_OPACITY

#: Section -> the scene attribute holding its total's readout.
TOTALS = {11: "total", 12: "total", 18: "total", 19: "leak"}


def _number(text: str) -> Decimal:
    return Decimal(text.replace(MINUS, "-"))


def _visible(m) -> bool:
    return m.get_fill_opacity() > VISIBLE_OPACITY


def shown_sums(scene, section: int) -> tuple[list[str], str, bool] | None:
    """The parts and the total as drawn now (texts) and whether the note that the parts are
    rounded is visible (a readout without a note shows none), or ``None`` while no total is
    shown."""
    total = getattr(scene, TOTALS[section], None)
    if total is None or total not in scene.mobjects or not _visible(total.number):
        return None
    numbers = list(scene.bars.numbers)
    if section == 19:      # the leak sums the future's weights only
        numbers = [m for m, future in zip(numbers, scene.future) if future]
    note = getattr(total, "note", None)
    noted = note is not None and any(_visible(m) for m in note.get_family() if m.has_points())
    return [m.text for m in numbers if _visible(m)], total.number.text, noted


def adds_up(parts: list[str], total: str) -> bool:
    """Whether the parts' texts add up, digit for digit, to the total's text."""
    return sum((_number(p) for p in parts), Decimal(0)) == _number(total)


class SumReader:
    """An ``on_moment`` hook for :func:`tests.support.layout_probe.probe_section` that reads the parts,
    the total and the note at every beat's end, for a section that shows a total (else it
    does nothing)."""

    def __init__(self, section: int):
        self.section = section
        self.seen: list[tuple[str, list[str], str, bool]] = []

    def __call__(self, scene, where: str) -> None:
        if self.section in TOTALS:
            shown = shown_sums(scene, self.section)
            if shown is not None:
                self.seen.append((where, *shown))

    def check(self, sentence: str) -> None:
        """Fail where the parts shown do not add up to the total shown and no note says they
        are rounded, and where they add up and the note is shown all the same."""
        if self.section not in TOTALS:
            return
        assert self.seen, "the total was never shown"
        unnoted = [(where, parts, total) for where, parts, total, noted in self.seen
                   if not noted and not adds_up(parts, total)]
        assert not unnoted, (f"{sentence}: the parts shown do not add up to the total shown, "
                             f"and no note says they are rounded: {unnoted}")
        needless = [(where, parts, total) for where, parts, total, noted in self.seen
                    if noted and adds_up(parts, total)]
        assert not needless, (f"{sentence}: the note that the parts are rounded is shown, yet "
                              f"they add up to the total shown: {needless}")
