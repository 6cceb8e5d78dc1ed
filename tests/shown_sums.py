"""A total shown beside its parts is the sum of the parts as shown (section 19's leak).

Each number on screen is rounded right, yet rounded parts need not add up to the rounded
total: two leaked weights of 0.0395 show 0.040 and 0.040 under "Σ = 0.079", and a viewer adds
them. The sections that show a total beside its parts (11's Σ over the staircase, 12's Σ w,
18's Σ w, 19's leak) are read while the layout probe renders them (``tests/test_layout.py``
for its sentences, ``tests/test_scenes.py`` for the default one: no render of its own): at the
end of every beat the visible bars' numbers, parsed from their text, must add up to the
total's text. Live numbers during a move are not read (only settled frames are). The rule
itself is tested without rendering in ``tests/test_sums.py``.
"""

from __future__ import annotations

from decimal import Decimal

from attn_math import MINUS
from tests.layout_probe import VISIBLE_OPACITY

#: Section -> the scene attribute holding its total's readout.
TOTALS = {11: "total", 12: "total", 18: "total", 19: "leak"}

#: ``(section, sentence) -> why``: rows whose parts, at the storyboard's two decimals, add up
#: to no total coarser than the one shown (a weight row sums to exactly 1, yet 8-12 weights at
#: 2 decimals add to 0.99-1.03; section 11's exp stage of the default sentence adds to 11.24
#: under 11.25). Making them agree needs more decimals under every bar or parts rounded to
#: add up (largest remainder); both change what the storyboard shows, so the cases are listed.
#: Strict: a listed case whose parts add up fails until it is struck off.
_ROW = "the parts at 2 decimals add to no total at 2 or 1 decimals"
SUMS_KNOWN: dict[tuple[int, str], str] = {
    (11, "default"): "exp stage: 1.24 + 3.37 + 1.70 + 1.32 + 2.24 + 1.37 = 11.24 under Σ = 11.25",
    **{(11, name): _ROW for name in ("twelve", "twelve_longest", "longest", "repeated", "japanese",
                                        "no_pronoun")},
    **{(12, name): _ROW for name in ("twelve", "twelve_longest", "repeated", "japanese",
                                        "no_pronoun")},
    **{(18, name): _ROW for name in ("twelve", "twelve_longest", "japanese", "emoji",
                                        "no_pronoun")},
}


def _number(text: str) -> Decimal:
    return Decimal(text.replace(MINUS, "-"))


def _visible(m) -> bool:
    return m.get_fill_opacity() > VISIBLE_OPACITY


def shown_sums(scene, section: int) -> tuple[list[str], str] | None:
    """The parts and the total as drawn now (texts), or ``None`` while no total is shown."""
    total = getattr(scene, TOTALS[section], None)
    if total is None or total not in scene.mobjects or not _visible(total.number):
        return None
    numbers = list(scene.bars.numbers)
    if section == 19:      # the leak sums the future's weights only
        numbers = [m for m, future in zip(numbers, scene.future) if future]
    return [m.text for m in numbers if _visible(m)], total.number.text


class SumReader:
    """An ``on_moment`` hook for :func:`tests.layout_probe.probe_section` that reads the parts
    and the total at every beat's end, for a section that shows a total (else it does nothing)."""

    def __init__(self, section: int):
        self.section = section
        self.seen: list[tuple[str, list[str], str]] = []

    def __call__(self, scene, where: str) -> None:
        if self.section in TOTALS:
            shown = shown_sums(scene, self.section)
            if shown is not None:
                self.seen.append((where, *shown))

    def check(self, sentence: str) -> None:
        """Fail where the parts shown do not add up to the total shown; for a case in
        :data:`SUMS_KNOWN`, fail instead once they do (it must be struck off)."""
        if self.section not in TOTALS:
            return
        assert self.seen, "the total was never shown"
        wrong = [(where, parts, total) for where, parts, total in self.seen
                 if sum((_number(p) for p in parts), Decimal(0)) != _number(total)]
        why = SUMS_KNOWN.get((self.section, sentence))
        if why is None:
            assert not wrong, f"the parts shown do not add up to the total shown: {wrong}"
        else:
            assert wrong, f"({self.section}, {sentence!r}) adds up now: strike it off SUMS_KNOWN"
