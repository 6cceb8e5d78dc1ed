"""The score matrix as a grid of squares, and the small live readouts beside it.

Sections 8, 9, 10, 17 and 25 (and the small matrix of section 24) draw the
``n x n`` matrix of a head the same way:

- **score mode**: each cell holds a square whose side is proportional to the
  score's size and whose colour and style are its sign (:func:`scenes.style.sign_mark`:
  positive solid, negative hollow), so the picture reads without digits or colour;
- **weight mode**: each cell is shaded in the weight colour by its weight
  (0 to 1), optionally with the weight printed in the cell; the darkest shade leaves the
  printed weight WCAG's 4.5:1 (:data:`.shading.NUMBER_RATIO`).

Rows are queries (labels on the left, query colour), columns are keys (labels on
top, key colour). The grid lays itself out in a box (cell size from the space
available and the number of tokens), so a 12-token sentence fits where a 6-token one
does. Labels stay upright and readable: tokens are drawn as the sentence's names
(:func:`~scenes.widgets.tokens.shown_names`: a long one abbreviated, once for every widget),
and column labels too wide for their cells are staggered into up to :data:`MAX_TIERS` tiers. Panels beside the grid name cells with the
grid's own strings (:attr:`ScoreGrid.row_texts`), so a word has one abbreviation on screen.

Typical use::

    grid = ScoreGrid(story.S, names, box=style.left_panel(), filled=False,
                     corner=f"/ √{story.d}")
    self.add(grid)
    for i in range(story.n):
        self.play(grid.fill_row(i))                 # squares grow, row by row
    hl = grid.row_highlight(row_tracker)            # follows a ValueTracker
    self.play(grid.fold())                          # reflect over the diagonal
    self.play(grid.discard(0, 5))                   # square -> dashed outline

    wmap = ScoreGrid(story.Wc, names, box=..., mode="weight")
    wmap.add_numbers()                              # live numbers in every cell
    wmap.bind(lambda: Wc + t.get_value() * (W - Wc))  # values follow a tracker

Everything that changes on screen (sizes, shades, numbers) is updated in place:
no mobject is rebuilt per frame.

The grid is one class made of parts with one job each: :mod:`.label_tiers` (label sizes
and tiers, the cell size), :mod:`.cells` (where cells are; highlights), :mod:`.shading`
(squares and shades from the values), :mod:`.numbers` (numbers in cells), :mod:`.mask`
(discarded cells, the staircase) and :mod:`.fold` (the transpose); :mod:`.grid` puts them
together.

Beside the grid: :class:`~scenes.widgets.cost_bars.CostBars` (two bars following a callable);
the readouts of a row, a cell or a count (:class:`~scenes.widgets.readouts.RowReadout`,
:class:`~scenes.widgets.readouts.CellReadout`, :class:`~scenes.widgets.readouts.LabeledNumber`)
are in :mod:`scenes.widgets.readouts`.

Callables given to these widgets are stored on mobjects, which manim deep-copies
(``FadeIn``, ``Transform``): pass plain functions or lambdas, not bound methods of
the Scene (a bound method drags the whole scene into the copy, which fails).
"""

from .grid import ScoreGrid
from .label_tiers import MAX_PITCH, MAX_TIERS, opening_pitch
from .mask import dashed_square

__all__ = ["MAX_PITCH", "MAX_TIERS", "ScoreGrid", "dashed_square", "opening_pitch"]
