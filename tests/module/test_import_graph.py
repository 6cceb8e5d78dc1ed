"""The project's import graph, as grimp reads it from the source (imports inside functions
included): no cycle between modules, nor between the children of any package; the layers
import only downwards; the manim-free packages import no manim."""

from __future__ import annotations

import subprocess
import sys
from collections import defaultdict
from graphlib import CycleError, TopologicalSorter

import grimp
import pytest

from tests.support import ROOT

#: The project's packages, from the top layer down: a package may import the ones below it
#: and never one above (``studio`` is the page's library, which ``cli`` serves). ``scenes`` imports ``narration`` (its scene hook) and ``words``;
#: ``narration`` and ``attn_math`` are independent of each other; ``words`` and ``patches`` (the
#: changes to other libraries, which the scenes, the narration and the pipeline apply) are the bottom.
LAYERS = ("cli", "studio", "batch", "slides", "pipeline", "scenes", "narration | attn_math", "words | patches")
PACKAGES = tuple(p.strip() for layer in LAYERS for p in layer.split("|"))
#: Packages that never import manim, directly or through another package.
MANIM_FREE = ("words", "attn_math", "narration", "pipeline", "slides", "batch", "studio", "cli")


@pytest.fixture(scope="module")
def graph():
    sys.path.insert(0, str(ROOT))
    try:
        return grimp.build_graph(*PACKAGES, cache_dir=None)
    finally:
        sys.path.remove(str(ROOT))


def _cycle(edges: dict[str, set[str]]) -> str | None:
    """A cycle of ``edges`` (node -> the nodes it imports), as ``a -> b -> a``, or None."""
    try:
        TopologicalSorter(edges).prepare()
    except CycleError as e:
        return " -> ".join(reversed(e.args[1]))
    return None


def _imports(graph) -> dict[str, set[str]]:
    return {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}


def _squashed(imports: dict[str, set[str]], parent: str) -> dict[str, set[str]]:
    """The imports between the children of ``parent`` (each child with everything under it)."""
    def child(module: str) -> str | None:
        if not module.startswith(parent + "."):
            return None
        return parent + "." + module[len(parent) + 1:].split(".")[0]

    edges: dict[str, set[str]] = defaultdict(set)
    for importer, imported in imports.items():
        a = child(importer)
        for target in imported:
            b = child(target)
            if a and b and a != b:
                edges[a].add(b)
    return edges


def test_no_module_imports_in_a_cycle(graph):
    cycle = _cycle(_imports(graph))
    assert cycle is None, cycle


def test_no_package_imports_in_a_cycle(graph):
    """Packages (and, inside each package, its modules and subpackages) import one another
    without a cycle."""
    imports = _imports(graph)
    top: dict[str, set[str]] = defaultdict(set)
    for importer, imported in imports.items():
        top[importer.split(".")[0]] |= {m.split(".")[0] for m in imported} - {importer.split(".")[0]}
    assert _cycle(top) is None, _cycle(top)
    packages = {m.rsplit(".", 1)[0] for m in graph.modules if "." in m}
    for parent in sorted(packages):
        cycle = _cycle(_squashed(imports, parent))
        assert cycle is None, f"in {parent}: {cycle}"


def test_layers_import_downwards(graph):
    """The command line is on top and nothing imports it; each library imports only the
    layers below it."""
    layers = [grimp.Layer(*(p.strip() for p in layer.split("|")), independent=True) for layer in LAYERS]
    illegal = graph.find_illegal_dependencies_for_layers(layers=layers)
    assert not illegal, sorted(f"{d.importer} -> {d.imported}: {d.routes}" for d in illegal)


def test_every_module_imports():
    """Every module of every package imports: grimp leaves out an import of a module that does
    not exist, so a refactor's stale import (a module moved away) is caught here."""
    code = ("import importlib, pkgutil, sys, traceback\n"
            f"for name in {PACKAGES!r}:\n"
            "    package = importlib.import_module(name)\n"
            "    for m in pkgutil.walk_packages(package.__path__, name + '.'):\n"
            "        try:\n"
            "            importlib.import_module(m.name)\n"
            "        except Exception as e:\n"
            "            print(f'{m.name}: {type(e).__name__}: {e}')\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout == "", out.stdout


@pytest.mark.parametrize("package", MANIM_FREE)
def test_package_imports_no_manim(package):
    """Importing the package and all its modules loads no manim (a fresh interpreter)."""
    code = (f"import pkgutil, importlib, sys; import {package} as p\n"
            "for m in pkgutil.walk_packages(p.__path__, p.__name__ + '.'): importlib.import_module(m.name)\n"
            "print('manim' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False", out.stderr
