"""Registry of the batch tests: the three fixture sections (tests/fixtures) and two more.

``tests/test_batch.py`` copies tests/fixtures and this folder's files into one temporary
package, so this module sits beside the fixture's own ``registry`` and scenes.
"""

from __future__ import annotations

from scenes.registry import Section

from .registry import _PKG, ROOT
from .registry import SECTIONS as FIXTURE_SECTIONS

__all__ = ["ROOT", "SECTIONS"]

SECTIONS: tuple[Section, ...] = FIXTURE_SECTIONS + (
    Section(4, "slow", f"{_PKG}.s04_slow", "FxSlow", "スロー", "Slow"),
    Section(5, "fragile", f"{_PKG}.s05_fragile", "FxFragile", "フラジャイル", "Fragile"),
)
