"""``OUT/transcript.html``: the whole script, section by section, with each still and its alt text.

The three fixture sections render at the hidden ``tiny`` quality in Japanese. The page is
parsed by html5lib in strict mode (any parse error fails, as a validator would report it),
checked for what a screen-reader user needs (language, title, headings in order, an alt text
on every image, nothing loaded from outside the file), then read by headless Chromium with
its styles removed: the text comes in reading order without CSS. Expected texts come from
the fixture caption tables.
"""

from __future__ import annotations

import base64
import io
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.support import FIXTURES, ROOT, TESTS

ARTIFACTS = TESTS / "_artifacts" / "transcript"
sys.path.insert(0, str(ROOT))

PKG = "fxtranscript"
KEYS = ["s01", "s02", "s03"]
TITLES = ["アルファ", "ベータ", "ガンマ"]

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("transcript")]


def table() -> dict:
    with open(FIXTURES / "assets" / "captions" / "ja.toml", "rb") as f:
        return tomllib.load(f)


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    base = tmp_path_factory.mktemp("transcript")
    shutil.copytree(FIXTURES, base / PKG, ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "ATTN_REGISTRY": f"{PKG}.registry",
           "PYTHONPATH": os.pathsep.join([str(base), str(ROOT)])}
    for k in ("ATTN_LANG", "ATTN_THEME", "ATTN_CAPTIONS", "ATTN_HEAD", "ATTN_FIXTURE_FAIL"):
        env.pop(k, None)
    p = subprocess.run([sys.executable, str(ROOT / "render.py"), "--quality", "tiny", "--lang", "ja",
                        "--jobs", "2", "--out", str(base / "out")], env=env, capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    return base / "out"


def parsed(page: Path):
    import html5lib

    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    return parser.parse(page.read_bytes())   # raises on the first parse error


def test_transcript_is_valid_and_self_contained(out):
    page = out / "transcript.html"
    doc = parsed(page)
    assert doc.get("lang") == "ja"
    assert doc.find("head/title").text == "セルフアテンション：書き起こし"
    assert [e.tag for e in doc.iter() if e.tag in ("script", "link", "iframe", "object")] == []
    refs = [e.get(a) for e in doc.iter() for a in ("src", "href") if e.get(a) is not None]
    assert refs and all(r.startswith(("data:", "#")) for r in refs), refs


def test_sections_have_headings_stills_with_alt_text_and_the_script(out):
    from PIL import Image

    doc = parsed(out / "transcript.html")
    t = table()
    sections = doc.findall(".//main/section")
    assert len(sections) == 3
    for section, key, title in zip(sections, KEYS, TITLES):
        assert re.fullmatch(rf"\d\d\. {title}", section.find("h2").text)
        (img,) = section.findall(".//img")
        assert img.get("alt") == f"{title}。{t['summaries'][key]}"
        png = base64.b64decode(img.get("src").split(",", 1)[1])
        with Image.open(io.BytesIO(png)) as still:
            assert still.size == (int(img.get("width")), int(img.get("height")))
            assert still.convert("L").getextrema()[1] > 40     # a drawn frame, not a blank one
        said = ["".join(p.itertext()) for p in section.findall("p")]
        assert [re.sub(r"^\d+:\d\d ", "", s) for s in said] == t[key]["lines"]
        assert all(p.find("time").get("datetime").startswith("PT") for p in section.findall("p"))


def test_transcript_reads_in_order_without_css(out):
    from tests.support.browser import offline_chromium

    with offline_chromium() as d:
        d.get((out / "transcript.html").as_uri())
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        d.save_screenshot(str(ARTIFACTS / "transcript.png"))
        text = d.execute_script("document.querySelectorAll('style, link').forEach(e => e.remove());"
                                "return document.body.innerText")
        d.save_screenshot(str(ARTIFACTS / "transcript-no-css.png"))
    t = table()
    at = text.index(f"03. {TITLES[2]}") + 1               # past the list of sections
    for i, (key, title) in enumerate(zip(KEYS, TITLES), 1):
        for words in (f"{i:02d}. {title}", *t[key]["lines"]):   # heading, then the script
            found = text.find(words, at)
            assert found >= 0, (words, text[at:])
            at = found + len(words)


def test_an_unchanged_run_leaves_the_transcript_alone(out):
    page = out / "transcript.html"
    before = page.stat().st_mtime_ns
    env = {**os.environ, "ATTN_REGISTRY": f"{PKG}.registry",
           "PYTHONPATH": os.pathsep.join([str(out.parent), str(ROOT)])}
    p = subprocess.run([sys.executable, str(ROOT / "render.py"), "--quality", "tiny", "--lang", "ja",
                        "--out", str(out)], env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0 and "0 rendered, 3 cached" in p.stderr, p.stderr
    assert page.stat().st_mtime_ns == before
