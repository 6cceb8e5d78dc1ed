"""scenes.widgets.tokens.one_cut: widgets of one frame show one abbreviation of a word."""

from __future__ import annotations

import numpy as np
import pytest

from scenes import style
from scenes.layout import Box
from scenes.widgets.score_columns import ScoreColumns, ScoreSquares
from scenes.widgets.score_grid import ScoreGrid
from scenes.widgets.text import TOKEN_CELLS, screen_labels
from scenes.widgets.tokens import TokenStrip, one_cut

#: Section 7's crowded case (the contact sheets' sentence): the columns cut the long word
#: to 12 cells, the small score map shorter.
LONG = ["the₁", "old", "dog", "chased", "the₂", "supercalifragilistic", "ball", "and",
        "then", "it", "rolled", "away"]
SHORT = ["the", "cat", "ate", "and", "it", "ran"]


def boxes(n: int) -> tuple[Box, Box]:
    """Section 7's two panels: the score map on the left, the columns on the right."""
    box = style.content_box()
    cols_w = float(np.clip(0.56 * n, 0.4 * box.width, 0.55 * box.width))
    return (Box(box.l, box.r - cols_w - 0.3, box.b, box.t),
            Box(box.r - cols_w, box.r, box.b, box.b + 0.5 * box.height))


def columns(names, box):
    return ScoreColumns(names, lambda: np.zeros(len(names)), box, -1.0, 1.0)


def squares(names, box):
    n = len(names)
    return ScoreSquares(names, lambda: np.zeros((n, n)), box, 1.0)


def test_the_two_widgets_alone_abbreviate_the_long_word_differently():
    left, right = boxes(len(LONG))
    names = screen_labels(LONG)
    assert columns(names, right).labels.shown[5] != squares(names, left).texts[5]


@pytest.mark.parametrize("tokens", [LONG, SHORT], ids=["long", "short"])
def test_widgets_made_through_one_cut_draw_the_same_names(tokens):
    left, right = boxes(len(tokens))
    names, (cols, grid) = one_cut(tokens, lambda x: columns(x, right),
                                  lambda x: squares(x, left))
    assert cols.labels.shown == grid.texts == names


def test_the_shared_cut_is_the_shortest_one_needed():
    left, right = boxes(len(LONG))
    alone = squares(screen_labels(LONG), left).texts
    names, _ = one_cut(LONG, lambda x: columns(x, right), lambda x: squares(x, left))
    assert names[5] == alone[5] and names[5] != screen_labels(LONG)[5]


def test_no_cut_needed_builds_each_widget_once_from_whole_names():
    calls = []

    def strip(names):
        calls.append(names)
        return TokenStrip(names)

    names, (made,) = one_cut(SHORT, strip)
    assert calls == [SHORT] and names == SHORT and made.cut == TOKEN_CELLS


def test_a_grid_and_a_strip_share_a_cut():
    names, (grid, strip) = one_cut(
        LONG, lambda x: ScoreGrid(np.zeros((12, 12)), x, box=Box(-1.5, 1.5, -1.5, 1.5)),
        lambda x: TokenStrip(x, width=8.0))
    assert grid.row_texts == grid.col_texts == strip.shown == names
