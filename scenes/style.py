"""The one style module: colours per role, fonts, sizes and the layout grid.

Every scene and widget takes its colours from :func:`theme` and its positions
from the zones below, so a colour means the same role in every section and a
second theme (light, for bright lecture rooms) is one table, not an edit per section.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import config

from . import env
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
    negative="#D1495B",
    negative_text="#D1495B",
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
    input="#6E6E6E",
    query="#A67C00",
    key="#0F7C74",
    value="#6A3FC8",
    weight="#0F7C74",
    amber="#C2410C",
    positive="#1F5FA8",
    negative="#F28B82",
    # the fill's pink is 2:1 on white; this maroon is 13:1, and in grayscale (luma 40)
    # sits well below the positive blue (luma 84) and the text (26) is the only darker one
    negative_text="#6E0A0A",
    highlight="#A67C00",
    bad="#C62828",
)

THEMES = {"dark": DARK, "light": LIGHT}


def theme_name() -> str:
    return env.choice("ATTN_THEME", tuple(THEMES), "dark")


def theme() -> Theme:
    """The theme chosen by ``ATTN_THEME`` (default dark)."""
    return THEMES[theme_name()]


def score_color(x: float) -> str:
    """The sign colour of a score, for fills (cells, bars)."""
    t = theme()
    return t.positive if x >= 0 else t.negative


def score_text_color(x: float) -> str:
    """The sign colour of a score written as a number (``negative_text`` for negatives)."""
    t = theme()
    return t.positive if x >= 0 else t.negative_text


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
