"""What the tests share: paths, the sentences they try, hypothesis strategies, the scene
harness (renders a section's last frame), the layout probe, the shown-sums reader, the
text-contrast measure of a frame and the offline browser. Test modules import from here, never from one another."""

from __future__ import annotations

from pathlib import Path

#: The tests' folder and the project's root.
TESTS = Path(__file__).resolve().parent.parent
ROOT = TESTS.parent
#: The fixture project (three tiny sections) and the test data.
FIXTURES = TESTS / "fixtures"
DATA = TESTS / "data"

__all__ = ["DATA", "FIXTURES", "ROOT", "TESTS"]
