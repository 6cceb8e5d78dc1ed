"""Render a section's last frame in-process at a tiny resolution, and compare it.

Used by the scene tests (the rendering is :mod:`scenes.last_frame`). Rendering is real (manim's Cairo renderer, the pinned
font); with a still as output manim skips the intermediate frames, so a scene
costs about as much as building its mobjects once.
"""

from __future__ import annotations

import atexit
import re
import shutil
import tempfile
from pathlib import Path

import numpy as np

from scenes.last_frame import SIZE

CONTROL_DIR = Path(__file__).resolve().parent.parent / "control"


#: Where manim writes the SVG of each text, for the whole test process (each xdist worker is
#: a process of its own, so no two workers share it). Manim names the file after the text
#: and its style and skips pango when the file is there: with one directory for all renders,
#: a text drawn again in the next section (or the next sentence) is read back instead of
#: laid out again. (``scenes.widgets.text.label`` also keeps the texts it built, in memory.)
TEXT_DIR = tempfile.mkdtemp(prefix="attn-tests-texts-")
atexit.register(shutil.rmtree, TEXT_DIR, ignore_errors=True)


def render_last_frame(section, lang: str = "ja", theme: str = "dark", captions: str = "burned",
                      head: str | None = None, size: tuple[int, int] = SIZE, at_end=None):
    """:func:`scenes.last_frame.render_last_frame` with the tests' shared text folder."""
    from scenes.last_frame import render_last_frame as render

    return render(section, lang, theme, captions, head, size, at_end, text_dir=TEXT_DIR)


def assert_drawn(frame: np.ndarray, theme: str) -> None:
    """Assert the frame holds drawn content, not just its background."""
    if theme == "light":
        # A light frame is mostly white: at least 1 % of it must be darker.
        assert (frame < 200).any(axis=2).mean() > 0.01, "the last frame is blank"
    else:
        assert frame.std() > 5, "the last frame is blank"


def compare(name: str, frame: np.ndarray, update: bool, tol_mean: float = 3.0,
            tol_bad: float = 0.01) -> None:
    """Assert ``frame`` matches ``control/<name>.png`` (or write it when ``update``).

    Tolerant to anti-aliasing noise (cairo and font versions), strict on layout:
    the mean absolute difference must stay under ``tol_mean`` (of 255) and at
    most ``tol_bad`` of the pixels may differ by more than 64.
    """
    from PIL import Image

    path = CONTROL_DIR / f"{name}.png"
    if update or not path.exists():
        if not update:
            raise AssertionError(f"no control image {path.name}: run pytest --set_test")
        CONTROL_DIR.mkdir(exist_ok=True)
        Image.fromarray(frame).save(path)
        return
    ref = np.array(Image.open(path).convert("RGB"))
    assert ref.shape == frame.shape, f"{name}: size {frame.shape} != control {ref.shape}"
    diff = np.abs(ref.astype(int) - frame.astype(int))
    mean = float(diff.mean())
    bad = float((diff.max(axis=2) > 64).mean())
    assert mean <= tol_mean and bad <= tol_bad, (
        f"{name}: frame differs from control (mean {mean:.2f}, {bad:.2%} pixels off); "
        f"if the change is intended, regenerate with pytest --set_test")


# ---------------------------------------------------------------- numbers on screen

#: A number as the formatter writes it: optional sign, digits (with thousands commas),
#: decimals, an exponent. Spaces are gone from ``Text.text``, so "[0.82, 0.81]" reads
#: "[0.82,0.81]" and still splits into two numbers.
NUMBER = re.compile(r"[−+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:e−?\d+)?")


def drawn_texts(scene) -> tuple[list[str], list[str]]:
    """``(live number texts, label texts)`` on screen at the end of ``scene``.

    Read from the mobjects themselves (``LiveNumber.text``, ``Text.text``), in drawing order;
    the caption bar and the section title are left out (captions are checked by their own
    tests, and a caption quoting a figure must not stand in for the number on screen).
    Spaces are dropped, as ``Text.text`` drops them.
    """
    from manim import MarkupText, Text

    from scenes.widgets.chrome import CaptionBar, SectionTitle
    from scenes.widgets.live_number import LiveNumber

    numbers, labels = [], []
    skip: set[int] = set()
    for top in scene.mobjects:
        for mob in top.get_family():
            if id(mob) in skip:
                continue
            if isinstance(mob, (CaptionBar, SectionTitle)):
                skip.update(id(m) for m in mob.get_family())
            elif isinstance(mob, LiveNumber):
                skip.update(id(m) for m in mob.get_family())
                if mob.submobjects and mob.get_fill_opacity() > 0:
                    numbers.append(mob.text.replace(" ", ""))
            elif isinstance(mob, (Text, MarkupText)):
                skip.update(id(m) for m in mob.get_family())
                if mob.get_fill_opacity() > 0:
                    labels.append(mob.text.replace(" ", ""))
    return numbers, labels


def shows(figure_text: str, numbers: list[str], labels: list[str]) -> bool:
    """Whether ``figure_text`` is on screen whole, in a live number (with its prefix or unit:
    ``"112°"``) or a label, not glued to further digits ("0.30" is not found in "0.305" or
    "10.30")."""
    t = figure_text.replace(" ", "")
    pattern = re.compile(rf"(?<![\d.]){re.escape(t)}(?![\d])")
    if any(pattern.search(s) for s in [*numbers, *labels]):
        return True
    # A vector readout draws one live number per component ("[0.82," and "0.81]"): look for
    # the components as consecutive live numbers.
    parts = NUMBER.findall(t)
    drawn = [x for n in numbers for x in NUMBER.findall(n)]
    k = len(parts)
    return k > 1 and any(drawn[i:i + k] == parts for i in range(len(drawn) - k + 1))
