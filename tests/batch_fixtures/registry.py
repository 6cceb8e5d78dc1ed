"""Registry of the batch tests: the three fixture sections (tests/fixtures) and two more.

``tests/test_batch.py`` copies tests/fixtures and this folder's files into one temporary
package, so the sections below import as ``<package>.sNN_...`` like the fixture's own.
"""

from __future__ import annotations

from pathlib import Path

from scenes.registry import Section

ROOT = Path(__file__).resolve().parent
_PKG = __name__.rpartition(".")[0]

SECTIONS: tuple[Section, ...] = (
    Section(1, "alpha", f"{_PKG}.s01_alpha", "FxAlpha", "アルファ", "Alpha"),
    Section(2, "beta", f"{_PKG}.s02_beta", "FxBeta", "ベータ", "Beta"),
    Section(3, "gamma", f"{_PKG}.s03_gamma", "FxGamma", "ガンマ", "Gamma"),
    Section(4, "slow", f"{_PKG}.s04_slow", "FxSlow", "スロー", "Slow"),
    Section(5, "fragile", f"{_PKG}.s05_fragile", "FxFragile", "フラジャイル", "Fragile"),
)
