"""``attn-explainer doctor``: each check hides its piece for real and sees the right line and
exit code. Fonts are hidden by a fontconfig file whose only font folder lacks them, programs
by an empty ``PATH``, cairo by a ``cairo`` module that fails to load its library as a
missing ``libcairo`` does, the voice and reveal.js by pointing their folders at nothing,
the scheduler by an address where none listens.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from cli import doctor
from cli.doctor import CHECKS, Context, report, run_checks
from tests.support import ROOT
from words import config

PLATFORMS = ("Debian/Ubuntu: ", "Fedora: ", "macOS: ", "Windows: ")


def run_doctor(*args: str, env: dict[str, str] | None = None, drop=("PYTHONPATH",)) -> subprocess.CompletedProcess:
    full = {k: v for k, v in os.environ.items() if k not in drop and not k.startswith("ATTN_")}
    full.update(env or {})
    return subprocess.run([sys.executable, str(ROOT / "render.py"), "doctor", *args], env=full,
                          capture_output=True, text=True, timeout=300, cwd=ROOT)


def line_of(stdout: str, name: str) -> str:
    (line,) = [ln for ln in stdout.splitlines() if ln.split(maxsplit=1)[-1].startswith(name)]
    return line


def check(name: str):
    (c,) = [c for c in CHECKS if c.name == name]
    return c


def test_every_check_has_a_fix_for_every_platform():
    assert len({c.name for c in CHECKS}) == len(CHECKS)
    for c in CHECKS:
        fix = c.fix.line()
        assert [p in fix for p in PLATFORMS] == [True] * 4, c.name
        assert all(v.strip() for v in (c.fix.debian, c.fix.fedora, c.fix.macos, c.fix.windows)), c.name


@pytest.mark.slow
def test_this_machine_is_ready():
    """The test machine has everything (bootstrap.sh --test): every line ok, exit 0."""
    p = run_doctor()
    assert p.returncode == 0, p.stdout + p.stderr
    assert not [ln for ln in p.stdout.splitlines() if ln.startswith("missing")], p.stdout
    assert p.stdout.splitlines()[-1] == "rendering is ready"
    assert p.stdout.splitlines()[-2].startswith("ready: render, stills, slides, script")


@pytest.mark.slow
def test_a_font_fontconfig_cannot_find(tmp_path):
    """A fontconfig file whose only folder holds Noto Sans CJK but not Symbola."""
    noto = subprocess.run(["fc-match", "-f", "%{file}", "Noto Sans CJK JP"], capture_output=True,
                          text=True, check=True).stdout
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    (fonts / Path(noto).name).symlink_to(noto)
    conf = tmp_path / "fonts.conf"
    conf.write_text(f"<?xml version='1.0'?>\n<fontconfig><dir>{fonts}</dir>"
                    f"<cachedir>{tmp_path / 'cache'}</cachedir></fontconfig>\n")
    p = run_doctor(env={"FONTCONFIG_FILE": str(conf)})
    assert p.returncode == 1, p.stdout + p.stderr
    line = line_of(p.stdout, "font Symbola")
    assert line.startswith("missing") and "fonts-symbola" in line and "gdouros-symbola-fonts" in line
    assert line_of(p.stdout, "font Noto Sans CJK JP").startswith("ok")
    assert line_of(p.stdout, "font Noto Sans Mono CJK JP").startswith("ok")
    assert p.stdout.splitlines()[-1] == "rendering is NOT ready"


@pytest.mark.slow
def test_cairo_that_does_not_load(tmp_path):
    """pycairo shadowed by a module that fails as a missing libcairo makes it fail."""
    shim = tmp_path / "shim" / "cairo"
    shim.mkdir(parents=True)
    (shim / "__init__.py").write_text(
        'raise ImportError("libcairo.so.2: cannot open shared object file: No such file or directory")\n')
    p = run_doctor(env={"PYTHONPATH": str(shim.parent)})
    assert p.returncode == 1, p.stdout + p.stderr
    line = line_of(p.stdout, "cairo and pango")
    assert line.startswith("missing") and "libcairo.so.2" in line
    assert "libcairo2-dev libpango1.0-dev" in line and "cairo-devel pango-devel" in line
    assert "brew install cairo pkg-config" in line
    assert "Traceback" not in p.stderr


@pytest.mark.slow
def test_an_empty_path():
    """No programs at all: the English voice, LibreOffice and Chromium are missing; rendering
    is still ready (fonts are then asked of pango), and so is Japanese narration (Kokoro runs
    in-process, no program on PATH)."""
    p = run_doctor(env={"PATH": ""})
    assert p.returncode == 0, p.stdout + p.stderr
    assert line_of(p.stdout, "Japanese voice").startswith("ok"), line_of(p.stdout, "Japanese voice")
    for name, fix in (("English voice", "festival festvox-us-slt-hts"),
                      ("LibreOffice", "libreoffice-impress"), ("Chromium and its driver", "chromium-driver")):
        line = line_of(p.stdout, name)
        assert line.startswith("missing") and fix in line, line
    assert line_of(p.stdout, "font Symbola").startswith("ok")
    not_ready = [ln for ln in p.stdout.splitlines() if ln.startswith("not ready: ")]
    assert not_ready and "--narration --lang en (no English voice (festival + slt))" in not_ready[0]
    ready = [ln for ln in p.stdout.splitlines() if ln.startswith("ready: ")]
    assert ready and "render" in ready[0] and "--narration --lang ja" in ready[0]
    assert "--narration --lang en" not in ready[0]


def test_the_japanese_voice_is_the_default_a_render_would_pick(monkeypatch):
    """doctor reports the voice ``render --narration`` speaks with: Kokoro's jf_alpha when it
    is installed, Mei (with a note) when only Mei is, and what installs a voice when neither
    is. Kokoro is made missing by asking for a distribution that does not exist."""
    from narration import voices

    name = "Japanese voice (Kokoro jf_alpha, else Open JTalk + Mei)"
    (ja,) = run_checks(Context(), [check(name)])
    assert ja.ok and ja.found.startswith("kokoro jf_alpha") and "instead" not in ja.found
    monkeypatch.setattr(voices, "KOKORO_NEEDS", (*voices.KOKORO_NEEDS, "no-such-distribution-x"))
    (ja,) = run_checks(Context(), [check(name)])
    assert ja.ok and "mei" in ja.found and "speaking with mei_normal instead" in ja.found
    with config.using(config.current().replace(voice_dir=Path("/nonexistent"))):
        (ja,) = run_checks(Context(), [check(name)])
    assert not ja.ok and "pyopenjtalk-plus" in ja.missing and "/nonexistent" in ja.missing


def test_reveal_missing_or_of_another_version(monkeypatch, tmp_path):
    monkeypatch.setenv("ATTN_REVEAL_DIR", str(tmp_path / "none"))
    (r,) = run_checks(Context(), [check("reveal.js")])
    assert not r.ok and "ATTN_REVEAL_DIR" in r.missing
    old = tmp_path / "old"
    shutil.copytree(ROOT / "slides" / "vendor" / "reveal.js", old)
    (old / "package.json").write_text('{"version": "5.0.0"}')
    with config.using(config.current().replace(reveal_dir=old)):
        (r,) = run_checks(Context(), [check("reveal.js")])
    assert not r.ok and "version 5.0.0 found" in r.missing
    with config.using(config.current().replace(reveal_dir=None)):
        (r,) = run_checks(Context(), [check("reveal.js")])
    assert r.ok


def test_the_handout_font_where_the_handout_looks(monkeypatch, tmp_path):
    from slides import style

    monkeypatch.setattr(style, "CJK_FONT_FILES", (str(tmp_path / "NotoSansCJK-Regular.ttc"),))
    (r,) = run_checks(Context(), [check("PDF handout font")])
    assert not r.ok and "NotoSansCJK-Regular.ttc" in r.missing and "fonts-noto-cjk" in r.line()
    monkeypatch.undo()
    (r,) = run_checks(Context(), [check("PDF handout font")])
    assert r.ok


@pytest.mark.slow
def test_the_scheduler_only_when_asked_and_reachable_or_not():
    assert all(r.check.name != "Dask scheduler" for r in run_checks(Context(), [check("Dask scheduler")]))
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    (r,) = run_checks(Context(scheduler=f"tcp://127.0.0.1:{port}"), [check("Dask scheduler")])
    assert not r.ok and f"127.0.0.1:{port}" in r.missing
    assert report([r])[1] == 1
    from distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as c:
        (r,) = run_checks(Context(scheduler=c.scheduler_address), [check("Dask scheduler")])
    assert r.ok and "1 worker" in r.found
    assert report([r])[1] == 0


def test_report_exit_code_follows_what_render_needs():
    def result(name, ok):
        return doctor.Result(check(name), found="x" if ok else None, missing=None if ok else "gone")

    lines, code = report([result("font Symbola", True), result("LibreOffice", False)])
    assert code == 0 and lines[-1] == "rendering is ready"
    assert lines[-3:-1] == ["ready: render, stills, slides", "not ready: the slide tests (pptx to pdf) (no LibreOffice)"]
    lines, code = report([result("font Symbola", False), result("LibreOffice", True)])
    assert code == 1 and lines[-1] == "rendering is NOT ready"
