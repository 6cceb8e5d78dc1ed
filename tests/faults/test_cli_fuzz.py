"""The command line fuzzed: every command's own options (read from its click definition,
so a new option is fuzzed too) with hostile values: unicode, empty, control characters,
huge numbers, paths that do not exist, files where folders belong.

Every run must end with exit 0, 1 or 2, print no traceback, and write nothing outside its
``--out`` and the user's cache folder. To stay cheap (in-process, no render), the commands
that render get an ``--out`` that is a file, or a folder under a file: the set-up chain
checks it last, so every other option is checked first, and nothing renders. The registry
is the three fixture sections (tests/fixtures), so a run that succeeds is cheap too
(``script``: the real first section).
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from pathlib import Path

import click
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.faults.harness import ROOT, cases_wanted

sys.path.insert(0, str(ROOT))

from cli.group import COMMANDS, main  # noqa: E402

pytestmark = [pytest.mark.slow]

#: Commands that serve a page until stopped: fuzzed only in ways that end (an unknown option).
SERVING = {"studio", "record"}
#: Commands that render: their --out is always a file (or under one), so nothing renders.
RENDERING = {"render", "stills", "slides", "batch"}
BY_NAME = {c.name: c for c in COMMANDS}
#: Commands the fixture sections cannot serve (their scenes keep no cue log): the real
#: sections, one unless the fuzz names others.
REAL_REGISTRY = {"script"}

NASTY = st.sampled_from(["", " ", "\x00", "\x1b[31m", "\n", "\t", "-", "--", "--out", "0", "-1",
                         "9" * 30, "1e999", "nan", "1,2,,99", "a b", "猫 が 座った", "\u202e", "\udcffx",
                         "../../etc", "/", "/dev/null", "CON", "😀" * 40, "x" * 5000])


def values(world: Path):
    """A hostile value: text, numbers, or a path (missing, a file, a folder, under a file)."""
    file = world / "a-file.txt"
    paths = st.sampled_from([str(file), str(file / "sub"), str(world / "missing" / "x.toml"), str(world),
                             str(world / "empty-dir"), str(world / "bad.toml"), str(world / "bad.csv")])
    text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30)
    numbers = st.integers(min_value=-(10**30), max_value=10**30).map(str)
    return st.one_of(NASTY, text, numbers, paths)


def argv_for(name: str, world: Path):
    """``[name, options...]`` from the command's own options and arguments."""
    cmd = BY_NAME[name]
    opts = [p for p in cmd.params if isinstance(p, click.Option) and "--out" not in p.opts
            and "--section-dir" not in p.opts and "--help" not in p.opts]
    args = [p for p in cmd.params if isinstance(p, click.Argument)]

    @st.composite
    def build(draw):
        argv = [name, "--sections", "1"] if name in REAL_REGISTRY else [name]
        if name in SERVING:   # first: after a drawn "--" it would be an argument, and serve
            argv.append("--no-such-option")
        for p in draw(st.lists(st.sampled_from(opts), max_size=5)) if opts else ():
            argv.append(draw(st.sampled_from(p.opts)))
            if not p.is_flag:
                argv.append(draw(values(world)))
        for _ in args:
            argv.append(draw(values(world)))
        if name in RENDERING:
            argv += ["--out", draw(st.sampled_from([str(world / "a-file.txt"), str(world / "a-file.txt" / "out")]))]
        if draw(st.booleans()) and name not in SERVING:
            argv.append(draw(NASTY))   # a stray argument
        return argv

    return build()


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in folder.rglob("*") if p.is_file()}


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    w = tmp_path_factory.mktemp("cli-fuzz")
    (w / "a-file.txt").write_text("not a folder\n", encoding="utf-8")
    (w / "empty-dir").mkdir()
    (w / "bad.toml").write_text("[[[ not toml\x00", encoding="utf-8")
    (w / "bad.csv").write_text("sentence\n\x1b\x00,,,\n", encoding="utf-8")
    (w / "cache").mkdir()
    return w


def run(argv: list[str]) -> tuple[int, str]:
    """``render.py argv`` in this process: its exit code and what it printed."""
    err, out = io.StringIO(), io.StringIO()
    env = dict(os.environ)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            try:
                main(argv)
                code = 0
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    finally:
        os.environ.clear()
        os.environ.update(env)
    return code, err.getvalue() + out.getvalue()


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_every_command_fuzzed(name, world, monkeypatch):
    monkeypatch.chdir(world / "empty-dir")
    monkeypatch.setenv("XDG_CACHE_HOME", str(world / "cache"))
    if name not in REAL_REGISTRY:   # the three tiny fixture sections: a success stays cheap
        monkeypatch.setenv("ATTN_REGISTRY", "tests.fixtures.registry")
    before = snapshot(world)

    @settings(max_examples=cases_wanted(10), deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(argv=argv_for(name, world))
    def fuzz(argv):
        code, printed = run(argv)
        assert code in (0, 1, 2), (argv, code, printed[-300:])
        assert "Traceback" not in printed, (argv, printed[-600:])
        if code == 2:
            errors = [ln for ln in printed.splitlines() if ln.startswith("render.py: error")]
            assert len(errors) == 1, (argv, printed[-300:])

    fuzz()
    after = snapshot(world)
    written = {k for k in after if after[k] != before.get(k) and not k.startswith("cache/")}
    assert not written, f"written outside --out and the cache: {sorted(written)[:5]}"
