"""A still drawn only at the scene's end is manim's own last frame: the oracle is the same
render with every play's frames drawn, as manim draws them unpatched."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from PIL import Image

pytestmark = pytest.mark.slow


def _still(tmp_path, kind, name: str) -> np.ndarray:
    from pipeline.build import Build
    from pipeline.run_setup import Example, set_up_run
    from pipeline.worker import render_section

    run = set_up_run(sections_spec="3,11", example=Example(sentence="the cat sat on the mat"),
                     out_dir=tmp_path / name, lang="en", quality="tiny")
    build = Build(run.registry, run.sections, run.opts, run.paths, kind=kind, force=True)
    frames = []
    for job in build.plan():
        render_section(job.render)
        with Image.open(run.paths.store / job.render.stem / f"{job.hash}.png") as png:
            frames.append(np.asarray(png.convert("RGB")))
    return np.stack(frames)


def test_a_still_drawn_once_is_the_frame_manim_draws_after_every_play(tmp_path, monkeypatch):
    from pipeline import kinds

    monkeypatch.chdir(tmp_path)   # the worker moves into the project root: undone afterwards
    assert kinds.STILL.drawing is not kinds.CLIP.drawing   # the still does skip drawing
    once = _still(tmp_path, kinds.STILL, "once")
    every = dataclasses.replace(kinds.STILL, drawing=kinds.CLIP.drawing)
    monkeypatch.setitem(kinds.KINDS, kinds.STILL.name, every)
    drawn = _still(tmp_path, every, "every")
    assert once.std() > 0   # a frame with something on it
    np.testing.assert_array_equal(once, drawn)
