"""Section 21's beat plan: the caption each of its slots shows, in order, for a story.

Each variant declares in :data:`VARIANTS` the condition under which it is true, on the
figures as displayed (:mod:`attn_math.claims`); the plan shows the first that holds.
"""

from __future__ import annotations

import numpy as np

from attn_math import core
from attn_math.beats import Beat, Figures, variant_beats
from attn_math.claims import ALWAYS, Alike, Both, Differ, Fact, Not, Prints, Variants
from attn_math.story import Story
from scenes.geometry import is_vertex
from scenes.sections.s21_inside_the_hull.derived import hull

__all__ = ["VARIANTS", "plan", "hull_token_is_corner", "values_coincide", "values_on_a_line"]


def hull_token_is_corner(s: Story) -> bool:
    """Whether the hull token's value is a corner of the values' hull."""
    return is_vertex(core.convex_hull(s.V), s.V[hull(s).hull_token])


def values_coincide(s: Story) -> bool:
    """Whether every value is the same vector (one repeated word): the hull is one point."""
    scale = max(1.0, float(np.abs(s.V).max()))
    return bool(np.ptp(s.V, axis=0).max() <= 1e-9 * scale)


def values_on_a_line(s: Story) -> bool:
    """Whether the values span a segment: on one line, not all one point (two tokens, or
    two distinct words): the hull has no corners but its two ends."""
    if values_coincide(s):
        return False
    centred = s.V - s.V.mean(axis=0)
    sv = np.linalg.svd(centred, compute_uv=False)
    return bool(sv[-1] <= 1e-9 * max(1.0, float(sv[0])))


POINT = Fact("every value is the same vector", values_coincide)
SEGMENT = Fact("the values lie on one line, not all one point", values_on_a_line)

VARIANTS: Variants = {
    "convex": (("convex_point", POINT), ("convex_segment", SEGMENT),
               ("convex", Both(Not(POINT), Not(SEGMENT)))),
    "pull": (("pull_still", POINT),
             ("pull_end", Both(SEGMENT, Fact("the hull token's value is an end of the segment",
                                             hull_token_is_corner))),
             ("pull", Fact("the hull token's value is a corner of the hull", hull_token_is_corner)),
             ("pull_inner", ALWAYS)),
    "halt": (("halt_point_rounded", Both(POINT, Prints("w_hull_pulled", "1.000"))),
             ("halt_point", POINT),
             ("halt_rounded", Both(Prints("w_hull_pulled", "1.000"), Alike("out_pulled", "v_hull"))),
             ("halt", Differ("out_pulled", "v_hull")),
             ("halt_same", Alike("out_pulled", "v_hull"))),
    "average": (("average_point", POINT), ("average_segment", SEGMENT),
                ("average", Both(Not(POINT), Not(SEGMENT)))),
}


def plan(s: Story, figs: Figures) -> list[Beat]:
    """The beats this section says for story ``s`` (``figs``: the figures it shows), in order."""
    return variant_beats(s, figs, VARIANTS, "convex", "pull", "halt", "average", "mlp")
