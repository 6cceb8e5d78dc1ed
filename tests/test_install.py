"""The wheel and the sdist, as a user gets them: built with ``python -m build``, the wheel
installed alone into a fresh virtual environment, every command run from a folder that is
not the checkout.

The fresh venv has no pip of its own and no project code: this checkout's pip installs the
wheel into it (``pip --python``) with its dependencies from pip's local cache and index, so
only what the wheel declares and carries is there. Each command's output is checked against
an oracle that does not come from the wheel: the storyboard's figures, the checkout's own
``figures`` and ``script``, PyAV reading the rendered clip, the deck's files on disk.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests.support import ROOT

#: The section the installed package renders (one of the shortest: about 27 s of video).
SECTION = "2"
#: The real head's model as the set-up pins it (one place: scripts/bootstrap.sh).
MODEL_WHEEL = re.search(r'MODEL_WHEEL="([^"]+)"', (ROOT / "scripts" / "bootstrap.sh").read_text())[1]
#: Storyboard figures (SPEC.md F1, F2, F3, F6, F7), as tests/test_figures.py checks them.
STORYBOARD = {("03", "R_follow_winner"): "1.72", ("03", "R_follow_self"): "1.14",
              ("04", "S_asym_fwd"): "0.51", ("06", "R_max"): "3.02", ("06", "R_min"): "\u22120.45"}
#: What the wheel must not carry: the checkout's tests, tools and development files.
NOT_IN_WHEEL = ("tests/", "tools/", "bench/", "scripts/", "docs/", "setup.py", "MANIFEST.in",
                "pyproject.toml", "Makefile", ".ci/")

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("install")]


def _clean_env(**extra: str) -> dict[str, str]:
    """The environment of a user who never saw the checkout: no PYTHONPATH, no ATTN_*."""
    env = {k: v for k, v in os.environ.items()
           if k != "PYTHONPATH" and not k.startswith("ATTN_") and not k.startswith("PYTEST")}
    return {**env, **extra}


@pytest.fixture(scope="module")
def dists(tmp_path_factory) -> tuple[Path, Path]:
    """(wheel, sdist) built from this checkout by ``python -m build`` (sdist, then the
    wheel from the sdist, as PyPI users get them)."""
    out = tmp_path_factory.mktemp("dist")
    p = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    (wheel,), (sdist,) = out.glob("*.whl"), out.glob("*.tar.gz")
    return wheel, sdist


@pytest.fixture(scope="module")
def installed(dists, tmp_path_factory) -> Path:
    """The ``bin`` folder of a fresh venv that holds the wheel and its dependencies only."""
    venv = tmp_path_factory.mktemp("venv") / "v"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    p = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                        "--no-compile", str(dists[0])],
                       capture_output=True, text=True, timeout=900, env=_clean_env())
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    # The real head's model, as the README tells a wheel's user to add it (without its declared
    # dependency, which would pull in torch): section 26 then renders as from the checkout.
    p = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-compile",
                        "--no-deps", MODEL_WHEEL], capture_output=True, text=True, timeout=900, env=_clean_env())
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    return venv / "bin"


@pytest.fixture(scope="module")
def user_dir(tmp_path_factory) -> Path:
    """A folder of the user's, far from the checkout: outputs land in its ./out."""
    return tmp_path_factory.mktemp("lecturer")


def attn(installed: Path, user_dir: Path, *args: str, rc: int = 0, env=None) -> subprocess.CompletedProcess:
    """Run the installed ``attn-explainer`` in ``user_dir`` and check its exit code."""
    p = subprocess.run([str(installed / "attn-explainer"), *args], cwd=user_dir, capture_output=True,
                       text=True, timeout=900, env=_clean_env(**(env or {})))
    assert p.returncode == rc, f"{args}: exit {p.returncode}\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}"
    assert "Traceback" not in p.stderr, p.stderr
    return p


def checkout(*args: str) -> subprocess.CompletedProcess:
    """The same command from this checkout (``python render.py``), the oracle of equality."""
    p = subprocess.run([sys.executable, str(ROOT / "render.py"), *args], capture_output=True,
                       text=True, timeout=900, env=_clean_env(PYTHONPATH=str(ROOT)))
    assert p.returncode == 0, p.stderr
    return p


# ------------------------------------------------------------------ what the archives hold

def test_wheel_holds_the_code_and_data_and_no_development_file(dists):
    names = zipfile.ZipFile(dists[0]).namelist()
    stray = [n for n in names if n.startswith(NOT_IN_WHEEL)]
    assert not stray, stray
    for data in ("attn_explainer_assets/head.toml", "attn_explainer_assets/example_spec.toml",
                 "attn_explainer_assets/captions/ja.toml", "attn_explainer_assets/captions/en.toml",
                 "attn_explainer_assets/spoken/ja.toml", "attn_explainer_assets/spoken/en.toml",
                 "slides/vendor/reveal.js/LICENSE", "slides/vendor/reveal.js/dist/reveal.js",
                 "studio/page/index.html", "studio/page/studio.js", "studio/page/studio.css"):
        assert data in names, data
    # every section's own words (its folder's captions/ and spoken/) are in the wheel
    words = subprocess.run(["git", "ls-files", "scenes/sections/*/captions/*.toml", "scenes/sections/*/spoken/*.toml"],
                           cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    assert len(words) >= 2 * 27 and not set(words) - set(names), sorted(set(words) - set(names))[:3]
    # every module of the project's packages in the checkout is in the wheel
    tops = ("attn_math", "scenes", "pipeline", "slides", "batch", "narration", "studio", "patches")
    tracked = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    code = {f for f in tracked if f.split("/")[0] in tops} | {"render.py"}
    assert code and not code - set(names), sorted(code - set(names))
    assert "assets/head.toml" not in names   # the data installs under its own name only


def test_sdist_holds_the_tests_and_the_assets(dists):
    with tarfile.open(dists[1]) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    tracked = subprocess.run(["git", "ls-files", "tests", "assets"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.split()
    assert tracked and not set(tracked) - names, sorted(set(tracked) - names)
    for f in ("pyproject.toml", "setup.py", "README.md", "LICENSE", "scripts/bootstrap.sh"):
        assert f in names, f
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


# ------------------------------------------------------------------ every command, anywhere

def test_version_and_code_come_from_the_wheel(installed, user_dir):
    from importlib.metadata import version

    p = attn(installed, user_dir, "--version")
    assert p.stdout.split()[-1] == version("attn-explainer")
    where = subprocess.run([str(installed / "python"), "-c",
                            "import attn_math, attn_explainer_assets as a; print(attn_math.__file__); "
                            "print(a.assets_dir())"],
                           cwd=user_dir, capture_output=True, text=True, env=_clean_env(), check=True)
    for line in where.stdout.split():
        assert Path(line).is_relative_to(installed.parent), line
        assert not Path(line).is_relative_to(ROOT), line


def test_the_studio_serves_its_page_from_the_wheel_and_stops_on_ctrl_c(installed, user_dir):
    import signal
    import urllib.request

    p = subprocess.Popen([str(installed / "attn-explainer"), "studio", "--no-browser", "--out", "studio-out"],
                         cwd=user_dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_clean_env())
    try:
        assert p.stdout is not None
        url = p.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:"), url
        for path in ("", "static/studio.js", "static/studio.css"):
            with urllib.request.urlopen(url + path, timeout=60) as r:
                assert r.status == 200 and r.read()
        req = urllib.request.Request(url + "api/preview", data=json.dumps({"lang": "en"}).encode(), method="POST")
        with urllib.request.urlopen(req, timeout=120) as r:
            assert len(json.loads(r.read())["script"]) > 100
    finally:
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=60)
    assert p.returncode == 0 and "Traceback" not in err and "studio stopped" in err, err


def test_list(installed, user_dir):
    rows = json.loads(attn(installed, user_dir, "list", "--json").stdout)
    assert len(rows) >= 25 and all(r["implemented"] for r in rows)
    assert rows == json.loads(checkout("list", "--json").stdout)


def test_figures_are_the_storyboards(installed, user_dir):
    data = json.loads(attn(installed, user_dir, "figures", "--json").stdout)
    for (section, name), text in STORYBOARD.items():
        assert data["story"]["sections"][section][name]["text"] == text, (section, name)
    assert data == json.loads(checkout("figures", "--json").stdout)


def test_script_and_render_of_one_section_at_preview(installed, user_dir):
    """``script`` says what ``render`` then shows: the rendered subtitles (read with srt) are
    the script's cues, and the video (read with PyAV) is 480p and outlasts the last cue."""
    import av
    import srt

    cues = json.loads(attn(installed, user_dir, "script", "--sections", SECTION, "--quality", "preview",
                           "--json").stdout)
    attn(installed, user_dir, "render", "--sections", SECTION, "--quality", "preview", "--jobs", "1")
    out = user_dir / "out"
    subs = list(srt.parse((out / "explainer.srt").read_text(encoding="utf-8")))
    assert cues and [" ".join(s.content.split()) for s in subs] == [" ".join(c["text"].split()) for c in cues]
    assert all(abs(s.start.total_seconds() - c["start"]) < 0.07 for s, c in zip(subs, cues))
    with av.open(str(out / "explainer.mp4")) as f:
        stream = f.streams.video[0]
        assert (stream.codec_context.width, stream.codec_context.height) == (854, 480)
        seconds = float(f.duration) / av.time_base
    assert cues[-1]["end"] <= seconds + 0.1
    assert sorted(p.name for p in (out / "clips").iterdir())[0].startswith(f"{int(SECTION):02d}-")


def test_slides_html_of_one_section(installed, user_dir):
    attn(installed, user_dir, "slides", "--format", "html", "--sections", SECTION, "--quality", "preview",
         "--jobs", "1")
    deck = user_dir / "out" / "slides"
    page = (deck / "index.html").read_text(encoding="utf-8")
    assert "reveal.js/dist/reveal.js" in page and "media/" in page
    for f in ("LICENSE", "dist/reveal.js", "dist/reveal.css", "dist/theme/black.css", "dist/plugin/notes.js"):
        assert (deck / "reveal.js" / f).read_bytes() == (ROOT / "slides" / "vendor" / "reveal.js" / f).read_bytes()


HASH_PROBE = """
import json, sys
from pipeline.cache import Hasher, section_hash
from pipeline.kinds import CLIP
from pipeline.options import Options
from pipeline.registry import load_registry, scene_file
registry = load_registry()
hasher = Hasher(registry)
section = registry.sections[int(sys.argv[1]) - 1]
source = scene_file(section)
print(json.dumps({"root": str(hasher.root), "assets": str(hasher.assets),
                  "files": [str(f) for f in hasher.code_closure(source)],
                  "key": section_hash(section, Options(quality="preview"), CLIP, hasher, source)}))
"""


def test_the_cache_key_hashes_the_installed_project_files(installed, user_dir):
    """The section cache works from the wheel: its key covers the installed project's files
    (a changed one changes it) and no other distribution's code in site-packages."""
    def probe() -> dict:
        p = subprocess.run([str(installed / "python"), "-c", HASH_PROBE, SECTION], cwd=user_dir,
                           capture_output=True, text=True, env=_clean_env(), timeout=300)
        assert p.returncode == 0, p.stderr
        return json.loads(p.stdout)

    before = probe()
    site = Path(before["root"])
    assert site.name == "site-packages" and site.is_relative_to(installed.parent)
    assert Path(before["assets"]) == site / "attn_explainer_assets"
    tops = {Path(f).relative_to(site).parts[0] for f in before["files"]}
    project = {"attn_math", "scenes", "words", "cli", "pipeline", "slides", "batch", "narration",
               "patches", "attn_explainer_assets"}
    assert {"scenes", "attn_math"} <= tops <= project, tops  # never manim's, numpy's, ...
    core = site / "attn_math" / "core.py"
    text = core.read_text(encoding="utf-8")
    core.write_text(text + "\n# an installed file changed\n", encoding="utf-8")
    try:
        assert probe()["key"] != before["key"]
    finally:
        core.write_text(text, encoding="utf-8")
    assert probe()["key"] == before["key"]


def test_doctor_says_rendering_is_ready(installed, user_dir):
    p = attn(installed, user_dir, "doctor")
    assert p.stdout.splitlines()[-1] == "rendering is ready"
    assert "ok       cairo and pango" in p.stdout


def test_missing_files_are_one_line_and_exit_2(installed, user_dir):
    p = attn(installed, user_dir, "figures", "--head", "missing.toml", rc=2)
    assert len(p.stderr.strip().splitlines()) == 1 and "missing.toml" in p.stderr
    # a wheel whose data went missing: a broken install is named, not a traceback
    site = next((installed.parent / "lib").glob("python*/site-packages"))
    head = site / "attn_explainer_assets" / "head.toml"
    head.rename(head.with_suffix(".away"))
    try:
        p = attn(installed, user_dir, "figures", rc=2)
        assert len(p.stderr.strip().splitlines()) == 1 and "head.toml" in p.stderr, p.stderr
    finally:
        head.with_suffix(".away").rename(head)
