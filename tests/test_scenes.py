"""Every registered section renders for real, in both languages, and at its last frame:

- the numbers on screen are the story's (read from the mobjects: every live number is a
  story quantity at the precision shown, and the section's figures are on screen verbatim);
- the frame matches its control image, a layout regression check (``pytest --set_test``
  regenerates them).
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from attn_math import core, cost
from attn_math.fmt import fmt
from attn_math.story import Story
from scenes.registry import SECTIONS, load_scene_class
from tests.scene_harness import NUMBER, compare, drawn_texts, render_last_frame, shows

#: Figures each section shows on screen (not only in its caption) at its last frame.
ON_SCREEN = {
    1: [],
    2: ["q_sweep_deg", "v_sweep_deg"],
    3: ["R_follow_winner", "R_follow_self"],
    4: ["S_asym_blend"],
    5: ["shadow_len", "key_len", "shadow_score"],
    6: ["R_max", "R_min"],
    7: ["R_follow_long_end"],
    8: ["proj_cross_tokens", "d_model"],
    9: ["flattest_range"],
    10: ["S_asym_fwd", "S_asym_bwd"],
    11: ["w_follow_max", "w_follow_min", "w_ratio"],
    12: ["w_sum"],
    13: ["floor_score", "w_floor", "w_minus_inf"],
    14: ["spread_real", "d_real"],
    15: ["top_d64", "lead_ratio_d1"],
    16: ["divisor_toy", "divisor_real", "uniform"],
    17: ["discarded", "kept", "computed"],
    18: ["wc_first", "wc_follow_winner"],
    19: ["bug_leak", "bug_leak_correct"],
    20: ["out_follow"],
    21: ["hull_score", "w_hull_pulled", "out_pulled", "v_hull"],
    22: ["out_follow"],
    23: ["context", "long_context", "long_bytes", "token_bytes", "bill_ratio"],
    24: [],   # filled per sentence below: every row's sum and output
    25: ["wc_follow_winner"],
}


def on_screen_figures(story: Story, section: int) -> list[str]:
    names = list(ON_SCREEN[section])
    if section == 24:
        names += [f"{k}_{i}" for i in range(story.n) for k in ("row_sum", "out_causal")]
    return names


def live_quantities(story: Story) -> list[np.ndarray]:
    """Every quantity a live number may end on: the head's arrays and what the scenes read
    at their last frame (slider ends), each from the story or attn_math."""
    s, h, f = story, story.head, story.follow
    pushed = s.push_path()[-1]
    z = s.width_z
    hi = s.fig(15, "width_hi").value
    return [
        s.X, s.Q, s.K, s.V, s.R, s.S, s.W, s.Wc, s.Wbug, s.O, s.Oc, h.W_Q, h.W_K, h.W_V,
        pushed, pushed @ h.W_Q, pushed @ h.W_K, pushed @ h.W_V,          # section 2's end
        np.linalg.norm(s.K, axis=1), s.R / np.linalg.norm(s.K, axis=1),  # section 3's shadows
        s.Q[f] * s.K[s.winner],                                          # section 5's products
        np.array([s.stretch_max]),                                       # section 7's slider
        np.array([cost.dot_products(s.fig(8, "proj_cross_tokens").value)]),
        s.S[f] - s.S[f].max(),                                           # section 13's s − c
        np.array([core.lead_ratio(core.weights_divided(z, hi, 0.0)),     # section 15 at d = 64
                  core.weight_gradient_factor(core.top_weight_unscaled(z, hi))]),
    ]


def story_numbers(story: Story) -> set[str]:
    """Every text a live number may show: the figures' numbers, and the live quantities
    written with 0 to 3 decimals (thousands grouped or not) or in scientific form."""
    out: set[str] = set()
    for figures in story.figures.values():
        for fig in figures.values():
            out.update(NUMBER.findall(fig.text.replace(" ", "")))
    for arr in live_quantities(story):
        for x in np.ravel(arr):
            for d in range(4):
                out.update({fmt(x, d), fmt(x, d, thousands=True)})
            out.add(fmt(x, 1, sci=True))
    return out


def test_every_registered_section_has_its_scene():
    """All 25 sections are registered and each names a scene class that exists: a deleted or
    renamed scene fails here instead of silently dropping out of the tests."""
    assert [s.number for s in SECTIONS] == list(range(1, 26))
    for section in SECTIONS:
        module = importlib.import_module(section.module)
        cls = load_scene_class(section)
        assert cls.__module__ == module.__name__ and cls.SECTION == section.number


def check_numbers(section, scene) -> None:
    numbers, labels = drawn_texts(scene)
    story = scene.story
    missing = [name for name in on_screen_figures(story, section.number)
               if not shows(story.fig(section.number, name).text, numbers, labels)]
    assert not missing, (
        f"{section.stem}: figures not on screen: "
        + ", ".join(f"{m}={story.fig(section.number, m).text!r}" for m in missing)
        + f"; live numbers {numbers}")
    known = story_numbers(story)
    strays = [t for t in numbers for x in NUMBER.findall(t) if x not in known
              and x.lstrip("+") not in known]
    assert not strays, f"{section.stem}: live numbers the story does not know: {strays}"


@pytest.mark.scene
@pytest.mark.parametrize("section", SECTIONS, ids=[s.stem for s in SECTIONS])
def test_last_frame_ja_dark(section, request):
    frame, scene = render_last_frame(section, "ja", "dark")
    assert frame.std() > 5, "the last frame is blank"
    check_numbers(section, scene)
    compare(f"{section.stem}_ja_dark", frame, request.config.getoption("--set_test"))


@pytest.mark.scene
@pytest.mark.parametrize("section", SECTIONS, ids=[s.stem for s in SECTIONS])
def test_last_frame_en_light(section, request):
    frame, scene = render_last_frame(section, "en", "light")
    # A light theme frame is mostly white; it must still hold drawn content.
    assert (frame < 200).any(axis=2).mean() > 0.01, "the last frame is blank"
    check_numbers(section, scene)
    compare(f"{section.stem}_en_light", frame, request.config.getoption("--set_test"))
