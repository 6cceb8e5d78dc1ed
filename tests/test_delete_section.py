"""A section is one folder: deleting it (and nothing else) from a copy of the repository
leaves a tool that works with one section fewer.

The copy holds the tracked files of this checkout; one built-in section's folder is removed.
Then nothing of the product (code, assets, docs) still names it, the commands people run
(``list``, ``script``, ``render``, ``slides``) work with the sections left and say so (the
opening card counts them), and the fast tier passes in the copy. A section that left a word,
a figure, a borrow or a test behind anywhere else fails here.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scenes import registry

pytestmark = [pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
#: The section deleted: a section in the middle of the video that no other section borrows
#: from (in a copy without it, as this test makes, there is nothing to delete: skipped).
GONE = next((u for u in registry.SECTIONS if u.number == 12), None)
if GONE is None:
    pytest.skip("section 12 is not in this checkout", allow_module_level=True)


def _tracked(root: Path) -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True).stdout
    return [p for p in out.decode().split("\0") if p]


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    repo = tmp_path_factory.mktemp("without") / "repo"
    for rel in _tracked(ROOT):
        src = ROOT / rel
        if src.is_file():
            dest = repo / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest)
    shutil.rmtree(repo / GONE.folder.relative_to(ROOT))
    # a repository again (some tests ask git what is tracked), the deletion committed
    for args in (["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "gone"]):
        subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)
    return repo


def _run(copy: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(copy)}
    for name in [k for k in env if k.startswith("ATTN_")]:
        del env[name]
    return subprocess.run([sys.executable, *args], cwd=copy, env=env, capture_output=True, text=True,
                          timeout=timeout)


def test_nothing_of_the_product_names_the_deleted_section(copy):
    number, slug = GONE.number, GONE.slug
    names = re.compile(rf"\[s{number:02d}\]|\bs{number:02d}(_n)?\s*=|{re.escape(slug)}|"
                       rf"{re.escape(GONE.folder.name)}|\bby_number\({number}\)|\bfig\({number},")
    product = [p for p in copy.rglob("*") if p.is_file() and p.relative_to(copy).parts[0] != "tests"
               and p.suffix in (".py", ".toml", ".md", ".html", ".js", ".css", ".json", ".txt", ".sh")]
    assert len(product) > 100
    hits = [f"{p.relative_to(copy)}: {line.strip()[:80]}" for p in product
            for line in p.read_text(encoding="utf-8", errors="replace").splitlines() if names.search(line)]
    assert not hits, hits[:5]


def test_the_commands_run_with_one_section_fewer(copy, tmp_path):
    listed = _run(copy, "render.py", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    numbers = [s["number"] for s in json.loads(listed.stdout)]
    assert numbers == [s.number for s in registry.SECTIONS if s.number != GONE.number]
    left = len(numbers)

    for lang, says in (("en", f"{left} sections"), ("ja", f"{left} 節")):
        script = _run(copy, "render.py", "script", "--lang", lang, "--json")
        assert script.returncode == 0, script.stderr
        cues = json.loads(script.stdout)
        assert GONE.number not in {c["section"] for c in cues}
        opening = " ".join(c["text"] for c in cues if c["section"] == 0)
        assert says in opening, opening

    out = tmp_path / "out"
    neighbours = f"{GONE.number - 1},{GONE.number + 1}"
    render = _run(copy, "render.py", "render", "--lang", "en", "--quality", "tiny", "--sections", neighbours,
                  "--out", str(out))
    assert render.returncode == 0, render.stderr[-2000:]
    clips = sorted(p.name for p in (out / "clips").glob("*.mp4"))
    assert len(clips) == 2 and not [c for c in clips if GONE.slug in c], clips

    slides = _run(copy, "render.py", "slides", "--lang", "en", "--quality", "tiny", "--sections", neighbours,
                  "--format", "html", "--out", str(out))
    assert slides.returncode == 0, slides.stderr[-2000:]
    page = (out / "slides" / "index.html").read_text(encoding="utf-8")
    assert GONE.title("en") not in page


def test_the_fast_tier_passes_in_the_copy(copy):
    fast = _run(copy, "-m", "pytest", "-m", "not slow", "-q", "-x", "-n", "2", "-p", "no:cacheprovider",
                timeout=900)
    assert fast.returncode == 0, fast.stdout[-3000:]
