"""Every implemented section renders for real, in both languages, and its last frame
matches its control image (``pytest --set_test`` regenerates them)."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from scenes.registry import SECTIONS
from tests.scene_harness import compare, render_last_frame

IMPLEMENTED = [s for s in SECTIONS if importlib.util.find_spec(s.module) is not None]


def test_some_sections_exist():
    assert IMPLEMENTED, "no scene modules found"


@pytest.mark.scene
@pytest.mark.parametrize("section", IMPLEMENTED, ids=[s.stem for s in IMPLEMENTED])
def test_last_frame_ja_dark(section, request):
    frame, scene = render_last_frame(section, "ja", "dark")
    assert frame.std() > 5, "the last frame is blank"
    compare(f"{section.stem}_ja_dark", frame, request.config.getoption("--set_test"))


@pytest.mark.scene
@pytest.mark.parametrize("section", IMPLEMENTED, ids=[s.stem for s in IMPLEMENTED])
def test_last_frame_en_light(section, request):
    frame, scene = render_last_frame(section, "en", "light")
    # A light theme frame is mostly white; it must still hold drawn content.
    assert (frame < 200).any(axis=2).mean() > 0.01, "the last frame is blank"
    compare(f"{section.stem}_en_light", frame, request.config.getoption("--set_test"))
