"""Token names: a word of up to 12 half-width cells is never cut, and every widget draws the
names :func:`scenes.widgets.tokens.shown_names` gives, one abbreviation per word."""

from __future__ import annotations

import numpy as np
import pytest

from scenes import style
from scenes.layout import Box
from scenes.widgets.columns import line_up_labels
from scenes.widgets.score_columns import ScoreColumns, ScoreSquares
from scenes.widgets.score_grid import ScoreGrid
from scenes.widgets.text import ELLIPSIS, TOKEN_CELLS, cells, screen_label
from scenes.widgets.tokens import LONG_CUTS, READABLE_SIZE, TokenStrip, shown_names
from scenes.widgets.weights import RowLayout, WeightBars

#: Twelve tokens, one of the longest accepted length (the contact sheets' sentence).
LONG = ["the₁", "old", "dog", "chased", "the₂", "supercalifragilistic", "ball", "and",
        "then", "it", "rolled", "away"]
SHORT = ["the", "cat", "ate", "and", "it", "ran"]
#: Words of exactly 12 cells: the widest never cut.
TWELVE_CELLS = ["abcdefghijkl", "先生先生先生", "teacher₁", "🐈🐈🐈🐈🐈🐈"]


def boxes(n: int) -> tuple[Box, Box]:
    """Section 7's two panels: the score map on the left, the columns on the right."""
    box = style.content_box()
    cols_w = float(np.clip(0.56 * n, 0.4 * box.width, 0.55 * box.width))
    return (Box(box.l, box.r - cols_w - 0.3, box.b, box.t),
            Box(box.r - cols_w, box.r, box.b, box.b + 0.5 * box.height))


@pytest.mark.parametrize("word", TWELVE_CELLS)
@pytest.mark.parametrize("cut", LONG_CUTS)
def test_a_word_of_twelve_cells_is_never_cut(word, cut):
    assert screen_label(word, cut) == word


def test_a_longer_word_is_cut_with_its_subscript_kept():
    cut = screen_label("supercalifragilistic₂", 7)
    assert cut.endswith(ELLIPSIS + "₂") and sum(map(cells, cut)) == 7
    assert screen_label(screen_label("supercalifragilistic")) == screen_label("supercalifragilistic")


def test_a_dense_sentence_cuts_only_its_long_word_and_a_short_one_keeps_it_longer():
    dense = shown_names(LONG, WeightBars.name_room(len(LONG)))
    assert [a for a, b in zip(dense, LONG) if a != b] == [dense[5]]
    assert sum(map(cells, dense[5])) < TOKEN_CELLS
    few = ["the", "supercalifragilistic", "cat", "chased", "it"]
    roomy = shown_names(few, WeightBars.name_room(len(few)))
    assert roomy[0] == "the" and sum(map(cells, roomy[1])) > sum(map(cells, dense[5]))


@pytest.mark.parametrize("tokens", [LONG, SHORT], ids=["long", "short"])
def test_every_widget_draws_the_names_given(tokens):
    names = shown_names(tokens, WeightBars.name_room(len(tokens)))
    n = len(names)
    left, right = boxes(n)
    cols = ScoreColumns(names, lambda: np.zeros(n), right, -1.0, 1.0)
    squares = ScoreSquares(names, lambda: np.zeros((n, n)), left, 1.0)
    grid = ScoreGrid(np.zeros((n, n)), names, box=Box(-1.5, 1.5, -1.5, 1.5))
    strip = TokenStrip(names, width=8.0)
    assert cols.labels.shown == squares.texts == grid.row_texts == grid.col_texts == strip.shown
    assert strip.shown == names
    drawn = [m.text.replace("\ufe0e", "") for m in grid.row_labels]
    assert drawn == [x.replace(" ", "") for x in names]


def test_twelve_chips_under_columns_shrink_their_words_no_lower_than_the_floor():
    names = shown_names(LONG, WeightBars.name_room(len(LONG)))
    bars = WeightBars(names, lambda: np.full(len(names), 1 / len(names)), RowLayout.make())
    assert bars.strip.shown == names
    assert READABLE_SIZE - 0.5 <= bars.strip.font_size < style.LABEL_SIZE
    chips = [bars.strip.box(j) for j in range(len(names))]
    for chip, word in zip(chips, (bars.strip.text(j) for j in range(len(names)))):
        assert word.width <= chip.width


def test_names_under_twelve_columns_wrap_before_they_shrink_below_the_floor():
    xs = np.linspace(-3.0, 3.0, len(LONG))
    group = line_up_labels(LONG, list(xs), (-3.3, 3.3), style.SMALL_SIZE)
    assert group.shown == LONG and group.rows == 2
    assert min(m.font_size for m in group) >= READABLE_SIZE - 0.01


def test_one_word_repeated_on_one_point_is_named_once_with_its_subscripts():
    from scenes.widgets.mixing import merged_labels

    points = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 1.0], [1.0, 1.0], [2.0, 0.0]])
    groups = merged_labels(points, ["beyypbx…₁", "beyypbx…₂", "cat", "dog", "it"])
    assert [s for _, s in groups] == ["beyypbx…₁,₂", "cat dog", "it"]
