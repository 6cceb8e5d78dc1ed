"""The one style module: colours per role, fonts, sizes and the layout grid.

Every scene and widget takes its colours from :func:`theme` and its positions
from the zones below, so a colour means the same role in every section and a
second theme (light, for bright lecture rooms) is one table, not an edit per section.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import config

from words import config as settings

from .layout import Box

# ---------------------------------------------------------------- fonts
# Pinned: one family draws Latin and Japanese alike (fonts-noto-cjk), so text
# metrics, and therefore control images, do not depend on fontconfig fallbacks.
FONT = "Noto Sans CJK JP"
MONO = "Noto Sans Mono CJK JP"

# ---------------------------------------------------------------- sizes (manim font_size)
TITLE_SIZE = 34
CAPTION_SIZE = 26
LABEL_SIZE = 24
SMALL_SIZE = 20
NUMBER_SIZE = 26
TINY_SIZE = 16
#: The floor of a crowded widget's words (token names, numbers over bars): 13 px per em at
#: 720p, above the 12 under which a lower-case letter is about 6 px tall.
FLOOR_SIZE = 14


@dataclass(frozen=True)
class Theme:
    """Colours for one theme; each role has one colour everywhere."""

    name: str
    background: str
    fg: str          # ordinary text
    muted: str       # secondary text, axes, grid
    grid: str        # faint grid lines
    panel: str       # caption bar and card backgrounds
    input: str       # the gray input vector
    query: str       # yellow
    key: str         # teal
    value: str       # the third hue (violet)
    weight: str      # teal: softmax weights, the staircase
    amber: str       # thresholds and outputs
    positive: str    # positive scores (light in dark theme: reads in grayscale)
    negative: str    # negative scores (darker and warm): fills of cells and bars
    negative_text: str  # negative numbers as text: reads on the background, and apart
    #                     from ``positive`` in grayscale
    highlight: str   # the followed token's marker
    bad: str         # the wrong code path, the bug


DARK = Theme(
    name="dark",
    background="#000000",
    fg="#ECECEC",
    muted="#8A8F98",
    grid="#2A2F36",
    panel="#15181D",
    input="#A6A6A6",
    query="#FFE14D",
    key="#2EC4B6",
    value="#B388FF",
    weight="#2EC4B6",
    amber="#FF9F1C",
    positive="#8FD3FF",
    # 5.8:1 on the background, 4.9:1 on the panel and 4.8:1 on section 5's positive
    # half-plane: a negative number reads on each
    negative="#D86070",
    negative_text="#D86070",
    highlight="#FFE14D",
    bad="#FF5C5C",
)

LIGHT = Theme(
    name="light",
    background="#FFFFFF",
    fg="#1A1A1A",
    muted="#5F6670",
    grid="#DDE1E6",
    panel="#F1F2F4",
    # Text colours (all but grid, panel and the negative fill) reach WCAG's 4.5:1 on the
    # panel, the darker of the two surfaces under text, on the background, and on the faint
    # tints of section 5's half-planes: the query's amber is darkened (it was 3.8:1 on
    # white), not turned another hue, and the amber of outputs a little (4.4:1 on a tint).
    input="#696969",
    query="#856300",
    key="#0E726A",
    value="#6A3FC8",
    weight="#0E726A",
    amber="#B53D0B",
    positive="#1F5FA8",
    # a fill and outline only (never text): 3.8:1 on white, a mark's 3:1 with room to spare
    negative="#EA4738",
    # a negative number: this maroon is 12:1, and in grayscale (luma 40) sits well below
    # the positive blue (luma 84) and the text (26) is the only darker one
    negative_text="#6E0A0A",
    highlight="#856300",
    bad="#C62828",
)

THEMES = {"dark": DARK, "light": LIGHT}


def theme_name() -> str:
    return settings.current().theme


def theme() -> Theme:
    """The theme of this run's settings (default dark)."""
    return THEMES[theme_name()]


def score_color(x: float) -> str:
    """The sign colour of a score, for fills (cells, bars)."""
    t = theme()
    return t.positive if x >= 0 else t.negative


def score_text_color(x: float, decimals: int | None = None) -> str:
    """The sign colour of a score written as a number (``negative_text`` for negatives).

    With ``decimals``, the sign of the score as displayed at that precision: one that shows
    as 0.00 is neither positive nor negative and takes the plain text colour (a float a hair
    below zero must not flash red)."""
    t = theme()
    if decimals is not None and round(float(x), decimals) == 0:
        return t.fg
    return t.positive if x >= 0 else t.negative_text


#: A negative score's mark (cell, bar, dot) is hollow: an outline this wide (manim stroke
#: width) round a faint tint, where a positive one is solid, so the sign reads without its
#: colour (in grayscale, to a colour-blind viewer) wherever no number carries a minus.
SIGN_OUTLINE = 3.0
#: Fill opacity inside a hollow (negative) mark, as a share of the mark's own opacity.
HOLLOW_TINT = 0.22
#: The outline takes at most this share of a hollow mark's shorter side, so a tiny mark
#: (a score near zero) stays about its size instead of swelling to the outline's width.
OUTLINE_SHARE = 0.25
#: Manim stroke width per frame unit (cairo draws a width of 1 as 0.01 units).
STROKE_PER_UNIT = 100.0


def sign_mark(mob, x: float, opacity: float = 1.0, *, hollow: float = 1.0,
              color: str | None = None):
    """Draw ``mob`` (a cell, bar or dot standing for the score ``x``) in its sign's style:
    a positive score solid in ``positive``, a negative one hollow, outlined in ``negative``
    round a :data:`HOLLOW_TINT` fill. Returns ``mob``.

    ``hollow`` (0 to 1) eases a negative mark between solid and hollow, for a chart whose
    bars stop being scores (section 11's exponentials); ``color`` replaces the sign colour.
    Call it after the mark's points are set (the outline is sized to the mark).
    """
    color = color if color is not None else score_color(x)
    if x >= 0 or hollow <= 0:
        mob.set_fill(color, opacity=opacity)
        return mob.set_stroke(color, width=0, opacity=opacity)
    short = min(mob.width, mob.height)
    width = hollow * min(SIGN_OUTLINE, OUTLINE_SHARE * short * STROKE_PER_UNIT)
    mob.set_fill(color, opacity=opacity * (1.0 - (1.0 - HOLLOW_TINT) * hollow))
    return mob.set_stroke(color, width=width, opacity=opacity)


# ---------------------------------------------------------------- layout (frame units)
# 16:9, 8 units tall. Zones are where widgets go; scenes place by zone, not by
# hand-typed coordinates.
#: The safe area: nothing is drawn within this fraction of the frame's width (height) of
#: each edge (television's action-safe margin; projectors crop and overscan too).
SAFE_MARGIN = 0.05


def frame_width() -> float:
    return float(config.frame_width)


def frame_height() -> float:
    return float(config.frame_height)


def safe_left() -> float:
    return -frame_width() * (0.5 - SAFE_MARGIN)


def safe_right() -> float:
    return frame_width() * (0.5 - SAFE_MARGIN)


def safe_top() -> float:
    return frame_height() * (0.5 - SAFE_MARGIN)


def safe_bottom() -> float:
    return -frame_height() * (0.5 - SAFE_MARGIN)


def safe_box() -> Box:
    """(left, right, bottom, top) of the safe area: every text stays inside it."""
    return Box(safe_left(), safe_right(), safe_bottom(), safe_top())


# ---------------------------------------------------------------- spacing (frame units)
# The spacing scale: every gap between two things on screen is one of these steps (or a
# sum of two, written out where a step does not fit). Like manim's SMALL_BUFF and
# MED_SMALL_BUFF, they are plain numbers, chosen from the gaps the sections were laid out
# with, so naming them changed no frame; the comment says what each step is for.
HAIR = 0.02     # a clearance that must exist but is not seen (overlap tolerances)
NUDGE = 0.05    # a tag just off the point, tick or line it names
SNUG = 0.08     # a label beside its own mark; a small lift within a line
TIGHT = 0.1     # a frame round text, pieces of one line, the drift of an entering fade
CLOSE = 0.12    # lines of a compact list; a note right under what it explains
NEAR = 0.15     # a thing beside or under what it belongs to (a vector under its chip)
GAP = 0.2       # parts of one block; the content area from the title and the caption bar
ROW = 0.3       # rows of a panel; a tag beside the curve or block it names
SPACED = 0.45   # blocks of one panel, one under the other
APART = 0.6     # blocks or panels side by side, or a block set apart from the one above
FAR = 0.9       # a readout set well apart from the control it reads

TITLE_HEIGHT = 0.6        # the title line at the top
CAPTION_HEIGHT = 1.05     # the caption bar at the bottom (two lines)


def content_top() -> float:
    return safe_top() - TITLE_HEIGHT - GAP


def content_bottom() -> float:
    return safe_bottom() + CAPTION_HEIGHT + GAP


def content_box() -> Box:
    """(left, right, bottom, top) of the area between title and caption bar."""
    return Box(safe_left(), safe_right(), content_bottom(), content_top())


def content_center() -> np.ndarray:
    return content_box().center


def left_panel() -> Box:
    """The left 58% of the content area (e.g. a plane); the rest is the side panel."""
    box = content_box()
    return Box(box.l, box.l + 0.58 * box.width, box.b, box.t)


def right_panel() -> Box:
    """The right 40% of the content area, a little apart from :func:`left_panel`."""
    box = content_box()
    return Box(box.l + 0.60 * box.width, box.r, box.b, box.t)


# ---------------------------------------------------------------- timing (seconds)
BEAT = 1.0        # a short pause between actions
READ = 2.5        # time to read a caption of average length
MOVE = 2.0        # a typical slider move
TRANSITION = 0.5  # every clip ends with a fade of this length (scenes.base), the same each time
