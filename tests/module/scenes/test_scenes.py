"""Every registered section and card renders for real, in both languages:

- the numbers on screen are the story's (read from the mobjects: every live number is a
  story quantity at the precision shown, at the end of every beat (ja, dark) and at the last
  frame; the section's figures are on screen verbatim at its last frame);
- the last frame matches its control image, a layout regression check (``pytest --set_test``
  regenerates them);
- (ja, dark, the default sentence) every beat is readable (:mod:`tests.support.layout_probe`; the
  other sentences are in ``test_layout``): the same render serves all three checks;
- every text of the last frame reaches WCAG's 4.5:1 against what is drawn under it, in both
  themes (:mod:`tests.support.text_contrast`, measured on the scene the test rendered).
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from attn_math import core, cost
from attn_math.fmt import fmt
from attn_math.story import Story
from scenes.registry import CARDS, SECTIONS, by_number, load_scene_class, load_story, of_scene
from scenes.sections.s02_move_the_input.derived import push_path
from scenes.sections.s07_long_key_trap.derived import long_key_trap
from tests.support.layout_probe import assert_readable, probe_section
from tests.support.scene_harness import NUMBER, assert_drawn, compare, drawn_texts, render_last_frame, shows
from tests.support.shown_sums import SumReader
from tests.support.text_contrast import measure, too_faint

pytestmark = pytest.mark.slow

ALL = SECTIONS + CARDS

#: Figures each section shows on screen (not only in its caption) at its last frame.
ON_SCREEN = {
    0: [],
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
    26: ["best_weight", "best_top", "toy_weight"],   # bar numbers of the zoomed head and the toy row
    99: [],
}

#: Sections whose texts are known to lie on an arrow's shaft or head with the default
#: sentence (ja, dark), ``section -> which label on which arrow``: a strict xfail on those
#: problems only (:func:`tests.support.layout_probe.assert_readable`), like ``test_layout.KNOWN``.
ON_ARROWS_KNOWN: dict[int, str] = {}

#: Beats (of the default sentence) that end with a live number on its way: a slider or a
#: sweep stopped between its ends while the caption is read, showing a value between two
#: story quantities that the story has no name for. Every other beat's end is checked.
IN_MOTION = {
    5: {"sweep", "zero", "negative"},   # the query swept round the key
    7: {"rising", "overtakes", "every_row"},  # the key stretched, the scores rising with it
    9: {"walk"},                        # the reading walking along a row
    12: {"drag"},                       # one score dragged
    21: {"pull"},                       # the score pulled up toward the hull's corner
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
    pushed = push_path(s)[-1]
    z = s.width_z
    hi = s.fig(15, "width_hi").value
    return [
        s.X, s.Q, s.K, s.V, s.R, s.S, s.W, s.Wc, s.Wbug, s.O, s.Oc, h.W_Q, h.W_K, h.W_V,
        pushed, pushed @ h.W_Q, pushed @ h.W_K, pushed @ h.W_V,          # section 2's end
        np.linalg.norm(s.K, axis=1), s.R / np.linalg.norm(s.K, axis=1),  # section 3's shadows
        s.Q[f] * s.K[s.winner],                                          # section 5's products
        np.array([long_key_trap(s).stretch_max, s.fig(7, "stretch_hi").value]),         # section 7's slider
        np.array([cost.dot_products(s.fig(8, "proj_cross_tokens").value)]),
        np.exp(s.S[f]), np.array([np.exp(s.S[f]).sum()]),                # section 11's e^s
        s.S[f] - s.S[f].max(),                                           # section 13's s − c
        np.array([s.fig(13, "floor_score").value]),                      # section 13's slider
        np.asarray(s.fig(14, "widths").value, float),                    # 14-16: width slider
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
    """Every section folder and both cards are registered and each names a scene class that
    exists: a deleted or renamed scene fails here (and in every test parametrized over the
    registry) instead of silently dropping out of the tests."""
    assert [s.number for s in SECTIONS] == sorted(s.number for s in SECTIONS)
    assert len({s.slug for s in SECTIONS + CARDS}) == len(SECTIONS + CARDS)
    assert [c.number for c in CARDS] == [0, 99]
    for section in ALL:
        module = importlib.import_module(section.module)
        cls = load_scene_class(section)
        assert cls.__module__ == module.__name__ and of_scene(cls) == section


def stray_numbers(story: Story, numbers: list[str]) -> list[str]:
    """The live numbers (texts) that show a number the story does not know."""
    known = story_numbers(story)
    return [t for t in numbers for x in NUMBER.findall(t)
            if x not in known and x.lstrip("+") not in known]


def check_numbers(section, scene) -> None:
    """Assert the section's figures are on screen and every live number is the story's."""
    numbers, labels = drawn_texts(scene)
    story = scene.story
    missing = [name for name in on_screen_figures(story, section.number)
               if not shows(story.fig(section.number, name).text, numbers, labels)]
    assert not missing, (
        f"{section.stem}: figures not on screen: "
        + ", ".join(f"{m}={story.fig(section.number, m).text!r}" for m in missing)
        + f"; live numbers {numbers}")
    strays = stray_numbers(story, numbers)
    assert not strays, f"{section.stem}: live numbers the story does not know: {strays}"


def assert_text_contrast(section, scene) -> None:
    """Assert every text on ``scene``'s last frame reaches 4.5:1 on what is under it."""
    measures, unmeasured = measure(scene)
    assert measures, f"{section.stem}: no text measured on the last frame"
    assert not unmeasured, f"{section.stem}: texts too thin to measure: {unmeasured}"
    faint = too_faint(measures)
    assert not faint, f"{section.stem}: texts under WCAG's 4.5:1: " + "; ".join(faint)


@pytest.mark.parametrize("section", ALL, ids=lambda s: s.stem)
def test_the_manim_cli_can_load_every_scene_file(section):
    """``manim render scenes/sections/sNN_slug/scene.py`` loads the file by its path, outside
    its package: a relative import there fails (the pipeline imports it as a package module
    and would not notice). The file is loaded here the way manim's CLI loads it."""
    import importlib.util
    import sys

    name = f"cli_loaded_{section.stem.replace('-', '_')}"
    spec = importlib.util.spec_from_file_location(name, section.scene_file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
        assert of_scene(getattr(module, section.scene)) == section
    finally:
        sys.modules.pop(name, None)


def test_beats_in_motion_are_beats_of_their_section():
    """An exemption names a beat the default sentence's plan has (a renamed or removed
    beat must not leave a stale exemption behind)."""
    story = load_story()
    for number, names in IN_MOTION.items():
        slots = {b.slot for b in by_number(number).plan(story)}
        assert names <= slots, (number, names - slots)


def test_a_wrong_digit_fails_the_number_check():
    """The check reads what is drawn: a figure off by one in its last digit, or missing, fails."""
    from types import SimpleNamespace

    from scenes.widgets.live_number import LiveNumber

    story = load_story()
    section = SECTIONS[2]                     # section 3: R_follow_winner and R_follow_self
    right = [story.fig(3, n).value for n in ON_SCREEN[3]]

    def scene(values):
        return SimpleNamespace(story=story, mobjects=[LiveNumber(v) for v in values])

    check_numbers(section, scene(right))
    with pytest.raises(AssertionError, match="not on screen"):
        check_numbers(section, scene(right[:1]))
    with pytest.raises(AssertionError, match="not on screen"):
        check_numbers(section, scene([right[0] + 0.01, right[1]]))
    with pytest.raises(AssertionError, match="does not know"):
        check_numbers(section, scene([*right, right[0] + 0.01]))


@pytest.mark.scene
@pytest.mark.parametrize("section", ALL, ids=[s.stem for s in ALL])
def test_default_sentence_ja_dark(section, request):
    """One render: every beat readable, every beat's live numbers the story's, the last
    frame's figures on screen and the frame as its control image."""
    strays: dict[str, list[str]] = {}
    sums = SumReader(section.number)

    def numbers_at(scene, where):
        sums(scene, where)
        beat = where.removeprefix("end of ").removesuffix(" settled")
        if beat not in IN_MOTION.get(section.number, ()):
            found = stray_numbers(scene.story, drawn_texts(scene)[0])
            if found:
                strays[where] = found

    probe = probe_section(section, "ja", "dark", on_moment=numbers_at)
    assert probe.moments >= 2, "the probe saw no beat"
    assert not strays, f"{section.stem}: live numbers the story does not know: {strays}"
    sums.check("default")
    assert_drawn(probe.frame, "dark")
    check_numbers(section, probe.scene)
    compare(f"{section.stem}_ja_dark", probe.frame, request.config.getoption("--set_test"))
    assert_text_contrast(section, probe.scene)
    # last: a section known to put a text on an arrow xfails here, its other checks done
    assert_readable(probe, ON_ARROWS_KNOWN.get(section.number))


@pytest.mark.scene
@pytest.mark.parametrize("section", ALL, ids=[s.stem for s in ALL])
def test_last_frame_en_light(section, request):
    frame, scene = render_last_frame(section, "en", "light")
    assert_drawn(frame, "light")
    check_numbers(section, scene)
    compare(f"{section.stem}_en_light", frame, request.config.getoption("--set_test"))
    assert_text_contrast(section, scene)
