"""The cache key's import scan finds every import statement ``ast.walk`` finds (the oracle:
every node of the tree), in every module of the project and in the nooks an import can hide."""

from __future__ import annotations

import ast
import textwrap

import pytest

from pipeline.cache import _import_statements
from tests.support import ROOT

NOOKS = textwrap.dedent("""
    import a
    def f():
        import b
        class C:
            from c import d
            def g(self):
                with open("x") as h:
                    import e
    if x:
        import f1
    elif y:
        import f2
    else:
        import f3
    for i in range(3):
        import g1
    else:
        import g2
    while False:
        import h1
    try:
        import i1
    except ImportError:
        import i2
    else:
        import i3
    finally:
        import i4
    match x:
        case 1:
            import j1
        case _:
            from . import j2
    async def k():
        async with z:
            import k1
        async for q in z:
            import k2
""")


def _walked(tree) -> list[str]:
    return sorted(ast.dump(n) for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)))


def _found(tree) -> list[str]:
    return sorted(ast.dump(n) for n in _import_statements(tree))


def test_every_nook_an_import_can_be_in():
    tree = ast.parse(NOOKS)
    assert len(_walked(tree)) == 18
    assert _found(tree) == _walked(tree)


@pytest.mark.parametrize("top", ["attn_math", "scenes", "pipeline", "narration", "slides", "studio", "words"])
def test_every_module_of_the_project(top):
    files = sorted((ROOT / top).rglob("*.py"))
    assert files
    for f in files:
        tree = ast.parse(f.read_bytes())
        assert _found(tree) == _walked(tree), f
