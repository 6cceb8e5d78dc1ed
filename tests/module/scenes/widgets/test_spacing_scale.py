"""Every ``buff`` in the scenes is a step of the spacing scale, by name (scenes/style.py).

A ``buff`` is the gap manim leaves between two things (``next_to``, ``arrange``, a code
panel's background) and the kit's own helpers take one the same way (``place_beside``,
``tip_label_away``, a grid's label tiers). The scale's steps (``HAIR`` .. ``FAR``) are the
gaps the frames are laid out with; a literal such as ``0.14`` beside ``NEAR`` (0.15) is a
gap nobody chose. The source is read with :mod:`ast`: a number that is a distance term of
a ``buff=`` argument, a ``buff`` parameter's default, a ``"buff"`` entry of a config
mapping or a value assigned to a ``*buff`` name must be 0 (touching, as an arrow from its
origin) and is otherwise written as the step's name. Factors (``style.GAP / 2``,
``0.5 * em``) are not distances and are not read.
"""

from __future__ import annotations

import ast
from pathlib import Path

from scenes import style
from tests.support import ROOT

SCENES = ROOT / "scenes"

#: The spacing scale, read from the style module (frame units).
STEPS = {style.HAIR, style.NUDGE, style.SNUG, style.TIGHT, style.CLOSE, style.NEAR, style.GAP,
         style.ROW, style.SPACED, style.APART, style.FAR}


def _distance_terms(node: ast.expr) -> list[ast.Constant]:
    """The numbers that are added up to the distance ``node`` stands for (not its factors)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) \
            and not isinstance(node.value, bool):
        return [node]
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        return _distance_terms(node.left) + _distance_terms(node.right)
    if isinstance(node, ast.UnaryOp):
        return _distance_terms(node.operand)
    if isinstance(node, ast.IfExp):
        return _distance_terms(node.body) + _distance_terms(node.orelse)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id in ("max", "min"):
        return [c for a in node.args for c in _distance_terms(a)]
    return []


def _is_buff(name: str | None) -> bool:
    return name is not None and "buff" in name.lower()


def _target_name(target: ast.expr) -> str | None:
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, ast.Attribute):
        return target.attr
    return None


def buff_numbers(source: str) -> list[tuple[int, float]]:
    """(line, value) of every number written as (a term of) a buff in ``source``."""
    values: list[ast.expr] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.keyword) and _is_buff(node.arg):
            values.append(node.value)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            a = node.args
            positional = a.posonlyargs + a.args
            pairs = list(zip(positional[len(positional) - len(a.defaults):], a.defaults))
            pairs += [(arg, d) for arg, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None]
            values += [d for arg, d in pairs if _is_buff(arg.arg)]
        elif isinstance(node, ast.Dict):
            values += [v for k, v in zip(node.keys, node.values)
                       if isinstance(k, ast.Constant) and isinstance(k.value, str)
                       and _is_buff(k.value)]
        elif isinstance(node, ast.Assign):
            if any(_is_buff(_target_name(t)) for t in node.targets):
                values.append(node.value)
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            if _is_buff(_target_name(node.target)):
                values.append(node.value)
    return sorted((c.lineno, float(c.value)) for v in values for c in _distance_terms(v))


def _scene_files() -> list[Path]:
    files = sorted(SCENES.rglob("*.py"))
    assert len(files) > 50, f"the scenes package was not found under {SCENES}"
    return files


def _where(path: Path, line: int, value: float) -> str:
    return f"{path.relative_to(ROOT)}:{line}: {value:g}"


def test_the_reader_finds_every_kind_of_buff():
    """The checker itself: each way of writing a gap is read, factors are not."""
    source = (
        "def f(m, buff=0.14, *, label_buff: float = 0.3):\n"
        "    m.next_to(m, buff=0.03)\n"
        "    m.next_to(m, buff=style.CLOSE if m else 0.2)\n"
        "    m.next_to(m, buff=style.GAP / 2)\n"
        "    m.next_to(m, buff=style.NUDGE + 0.07)\n"
        "    cfg = {'buff': 0.25}\n"
        "    self.buff = 0.14\n"
        "    m.next_to(m, buff=0)\n"
    )
    assert buff_numbers(source) == [
        (1, 0.14), (1, 0.3), (2, 0.03), (3, 0.2), (5, 0.07), (6, 0.25), (7, 0.14), (8, 0.0)]


def test_no_buff_in_the_scenes_is_off_the_scale():
    """No gap between two things is a number the scale does not have (0.14, 0.03, ...)."""
    off = [_where(p, line, v) for p in _scene_files()
           for line, v in buff_numbers(p.read_text(encoding="utf-8"))
           if v != 0 and v not in STEPS]
    assert not off, "buff off the spacing scale (take the nearest step of scenes/style.py):\n" \
        + "\n".join(off)


def test_every_buff_in_the_scenes_names_its_step():
    """A gap on the scale is written as its name (``style.NEAR``), so the scale can be read
    and changed in one place."""
    written = [_where(p, line, v) for p in _scene_files()
               for line, v in buff_numbers(p.read_text(encoding="utf-8"))
               if v in STEPS]
    assert not written, "buff written as a number (use the step's name):\n" + "\n".join(written)


def test_the_scale_is_increasing_and_distinct():
    ordered = [style.HAIR, style.NUDGE, style.SNUG, style.TIGHT, style.CLOSE, style.NEAR, style.GAP,
               style.ROW, style.SPACED, style.APART, style.FAR]
    assert ordered == sorted(set(ordered)) and set(ordered) == STEPS
