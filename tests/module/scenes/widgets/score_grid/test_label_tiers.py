"""How a score grid lays out its token labels (``scenes.widgets.score_grid.label_tiers``):
a crowded grid whose column labels had to turn keeps its row labels apart."""

from __future__ import annotations

import numpy as np

from scenes import style
from scenes.widgets.score_grid import ScoreGrid


def test_a_crowded_grid_with_turned_labels_keeps_its_rows_apart():
    """Eleven rows, an emoji under a 'y' (the sweep's seed 5): the row labels' boxes keep the
    probe's clearance, whatever the column labels had to do."""
    from scenes.widgets.placement import LABEL_GAP

    names = ["this", "ubfdlphm", "🐈", "🐁", "teacher₁", "teacher₂", "yzcet", "🚀", "cat",
             "先生", "ball"]
    grid = ScoreGrid(np.zeros((11, 11)), names, box=style.left_panel(), corner="/ √2")
    rows = list(grid.row_labels)
    gaps = [a.get_bottom()[1] - b.get_top()[1] for a, b in zip(rows, rows[1:])]
    assert min(gaps) >= LABEL_GAP - 0.01, gaps
