"""Gaps come from the spacing scale (``scenes.style``: HAIR .. FAR), never a number typed
where the gap is set: every ``buff`` of the scenes and widgets, given to a call or as a
parameter's default, is a name (or 0, touching)."""

from __future__ import annotations

import ast

from scenes import style
from tests.support import ROOT

#: The scale's steps, in scene units.
STEPS = {style.HAIR, style.NUDGE, style.SNUG, style.TIGHT, style.CLOSE, style.NEAR, style.GAP, style.ROW,
         style.SPACED, style.APART, style.FAR}


def _typed_buffs() -> list[str]:
    found = []
    for path in sorted((ROOT / "scenes").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        values = []
        for node in ast.walk(tree):
            if isinstance(node, ast.keyword) and node.arg == "buff":
                values.append(node.value)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                args = node.args
                positional = args.posonlyargs + args.args
                values += [d for a, d in zip(positional[len(positional) - len(args.defaults):], args.defaults)
                           if a.arg == "buff"]
                values += [d for a, d in zip(args.kwonlyargs, args.kw_defaults) if a.arg == "buff" and d]
            elif isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Attribute) and t.attr == "buff" for t in node.targets):
                values.append(node.value)
        for v in values:
            if isinstance(v, ast.Constant) and isinstance(v.value, (int, float)) and v.value != 0:
                found.append(f"{path.relative_to(ROOT)}:{v.lineno} buff={v.value}")
    return found


def test_every_buff_is_a_step_of_the_scale_by_name():
    assert not _typed_buffs()


def test_the_scale_is_increasing_and_distinct():
    ordered = [style.HAIR, style.NUDGE, style.SNUG, style.TIGHT, style.CLOSE, style.NEAR, style.GAP, style.ROW,
               style.SPACED, style.APART, style.FAR]
    assert ordered == sorted(set(ordered)) and set(ordered) == STEPS
