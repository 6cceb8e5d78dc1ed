"""A few lines of code, syntax-highlighted in the theme's colours, with a bar that lights one.

Section 24 shows the whole head as four lines of PyTorch and plays each line's step beside
it. :class:`CodePanel` draws the listing with manim's :class:`~manim.Code` (Pygments does
the tokenising) in the pinned mono font, with a Pygments style built from the active theme
(:func:`theme_style`), so the listing reads on the dark and the light background alike.
On top of the token colours, the names of the attention roles take their role colours
(``q`` yellow, ``k`` teal, ``v`` violet, ``w`` weight teal, ``out`` amber): the code and
the pictures use one colour per thing.

Typical use::

    panel = CodePanel(LINES, box=style.left_panel())
    self.add(panel)
    self.play(panel.light(0))      # bar on line 0, the other lines muted
    ...
    self.play(panel.light(None))   # every line at full strength, bar gone
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
from manim import Animation, AnimationGroup, Code, RoundedRectangle, VGroup
from pygments.style import Style
from pygments.token import (
    Comment,
    Error,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Token,
)

from scenes import style
from scenes.layout import Box

#: Fill opacity of the highlight bar: faint enough that every colour of the code keeps
#: WCAG's 4.5:1 on the lit line (the dimmed lines around it mark it as well).
BAR_OPACITY = 0.06
#: Seconds the bar takes to move to a line while the other lines dim.
LIGHT_SECONDS = 0.6


def theme_style(theme: style.Theme | None = None) -> type[Style]:
    """A Pygments style whose colours are the theme's roles.

    Names are in the text colour, operators and punctuation muted, literals (numbers,
    strings) in the amber of thresholds (the divisor's exponent, ``"-inf"``), builtins
    and keywords muted; the background is the theme's panel colour.
    """
    t = theme or style.theme()

    class ThemeStyle(Style):
        background_color = t.panel
        line_number_color = t.muted
        highlight_color = t.panel
        styles = {
            Token: t.fg,
            Text: t.fg,
            Name: t.fg,
            Name.Builtin: t.muted,
            Keyword: t.muted,
            Operator: t.muted,
            Punctuation: t.muted,
            Number: t.amber,
            String: t.amber,
            Comment: f"italic {t.muted}",
            Error: t.fg,
        }

    return ThemeStyle


def role_colors(theme: style.Theme | None = None) -> dict[str, str]:
    """Identifier -> role colour for the names of attention's tensors."""
    t = theme or style.theme()
    return {"q": t.query, "k": t.key, "v": t.value, "w": t.weight, "out": t.amber}


class CodePanel(VGroup):
    """A syntax-highlighted listing with a highlight bar that lights one line at a time.

    Parameters
    ----------
    lines
        The source lines (Python).
    box
        ``(left, right, bottom, top)``: the panel is scaled down (never up) to fit and
        centred in it.
    font_size
        Font size of the code before any fitting.
    names
        Identifier -> colour applied on top of the Pygments colours (whole words only);
        defaults to :func:`role_colors`.
    line_numbers
        Show muted line numbers.

    Attributes
    ----------
    code
        The manim :class:`~manim.Code` mobject.
    lines
        ``code.code_lines``: one group of glyphs per line (spaces are not glyphs).
    bar
        The highlight bar (hidden until :meth:`light`).
    """

    def __init__(self, lines: Sequence[str], box: tuple[float, float, float, float] | None = None,
                 *, font_size: float = style.LABEL_SIZE, names: dict[str, str] | None = None,
                 line_numbers: bool = True):
        t = style.theme()
        self.theme = t
        self.source = list(lines)
        code = Code(
            code_string="\n".join(self.source),
            language="python",
            formatter_style=theme_style(t),
            add_line_numbers=line_numbers,
            background="rectangle",
            background_config={"fill_color": t.panel, "stroke_width": 0,
                               "corner_radius": 0.14, "buff": 0.3},
            paragraph_config={"font": style.MONO, "font_size": font_size,
                              "line_spacing": 0.9},
        )
        self.code = code
        self.lines = code.code_lines
        self._recolor(names if names is not None else role_colors(t))
        #: Each glyph's colour when its line is lit (a line not lit is all in ``muted``).
        self._colours = [[g.get_fill_color() for g in line] for line in self.lines]
        bar = RoundedRectangle(corner_radius=0.06, width=1.0, height=1.0, stroke_width=0,
                               fill_color=t.highlight, fill_opacity=0.0)
        self.bar = bar
        # The bar sits between the background and the glyphs.
        code.submobjects.insert(1, bar)
        super().__init__(code)
        if box is not None:
            box = Box(*box)
            if self.width > box.width or self.height > box.height:
                self.scale(min(box.width / self.width, box.height / self.height))
            self.move_to(box.center)
        self._place_bar(0)
        self.lit: int | None = None

    # ------------------------------------------------------------ colours

    def _recolor(self, names: dict[str, str]) -> None:
        """Give whole-word identifiers their colours (glyph index = non-space char index)."""
        for i, src in enumerate(self.source):
            glyph_of = {}
            k = 0
            for c_i, ch in enumerate(src):
                if not ch.isspace():
                    glyph_of[c_i] = k
                    k += 1
            line = self.lines[i]
            for name, color in names.items():
                for m in re.finditer(rf"(?<![\w.]){re.escape(name)}\b", src):
                    idx = [glyph_of[c] for c in range(m.start(), m.end()) if c in glyph_of]
                    for g in idx:
                        if g < len(line):
                            line[g].set_fill(color)

    # ------------------------------------------------------------ the bar

    def _line_extent(self, i: int) -> tuple[float, float, float, float]:
        bg = self.code.background
        line = self.lines[i]
        pad = style.CLOSE * (self.width / max(self.code.background.width, 1e-9))
        l, r = bg.get_left()[0] + pad, bg.get_right()[0] - pad
        # Line height from the spacing of the lines (robust to descenders).
        ys = [ln.get_center()[1] for ln in self.lines]
        pitch = abs(ys[0] - ys[1]) if len(ys) > 1 else line.height * 1.6
        return l, r, line.get_center()[1], pitch

    def _bar_over(self, bar, i: int):
        """Stretch ``bar`` over line ``i``: the line's glyphs, 92% of the line pitch."""
        l, r, y, pitch = self._line_extent(i)
        bar.stretch_to_fit_width(r - l).stretch_to_fit_height(0.92 * pitch)
        return bar.move_to([(l + r) / 2, y, 0])

    def _place_bar(self, i: int) -> None:
        self._bar_over(self.bar, i)

    def light(self, i: int | None, run_time: float = LIGHT_SECONDS) -> Animation:
        """Move the bar to line ``i`` and mute the other lines; ``None`` lights every line.

        A line not lit steps back to the muted colour rather than fading, so that it still
        reads (4.5:1 on the panel) while the lit line keeps its colours."""
        anims = []
        bar_target = self.bar.copy()
        if i is None:
            bar_target.set_fill(opacity=0.0)
        else:
            self._bar_over(bar_target, i)
            bar_target.set_fill(opacity=BAR_OPACITY)
            if self.lit is None:          # first lighting: the bar appears in place
                self.bar.become(bar_target.copy().set_fill(opacity=0.0))
        anims.append(self.bar.animate.become(bar_target))
        muted = self.theme.muted
        for k, line in enumerate(self.lines):
            on = i is None or k == i
            anims += [glyph.animate.set_fill(colour if on else muted)
                      for glyph, colour in zip(line, self._colours[k])]
        self.lit = i
        return AnimationGroup(*anims, run_time=run_time)

    def line_center(self, i: int) -> np.ndarray:
        """Centre of line ``i``'s glyphs."""
        return self.lines[i].get_center()
