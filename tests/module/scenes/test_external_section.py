"""A section written outside the repository: one folder, given with ``--section-dir``.

A section after the built-in ones (scene, figures, beat plan, caption tables with its title
and summary, spoken variants, in both languages) is written into a temporary folder;
``render``, ``script``, ``slides`` and ``list`` run with it, its alt text and narration use
its own words, and the repository is left as it was. The expected words come from the tables written here,
the clip is read back by PyAV, the deck's page by its HTML.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import av
import pytest

from tests.support import ROOT

# One xdist worker: the module's folder and its renders are shared by its tests.
pytestmark = pytest.mark.xdist_group("external_section")

UNIT = "s27_count_the_keys"
NUMBER = 27
SLUG = "count-the-keys"
TITLES = {"en": "Count the keys", "ja": "キーを数える"}
CAPTIONS = {
    "en": {"intro": "Every query meets {n_keys} keys.", "count": "One key per token."},
    "ja": {"intro": "どのクエリも {n_keys} 個のキーに出会う。", "count": "トークン 1 つにキー 1 つ。"},
}
SUMMARIES = {"en": "A query meets as many keys as the sentence has tokens.",
             "ja": "クエリが出会うキーの数は、文のトークンの数。"}
SPOKEN = {"en": {"count": "One key for every token."}, "ja": {"count": "トークンひとつに、キーひとつ。"}}

SCENE = '''"""Count the keys: one number, the sentence's length, from the story."""

from manim import FadeIn

from scenes import style, timing
from scenes.base import SectionScene
from scenes.widgets.text import label


class CountTheKeys(SectionScene):
    def construct(self):
        self.open()
        self.say("intro")
        count = label(self.fig("n_keys").text, style.TITLE_SIZE, self.theme.key)
        count.move_to(style.content_center())
        self.play(FadeIn(count), run_time=timing.FADE)
        self.say("count")
        self.settle(timing.LAST_HOLD)
'''

FIGURES = '''"""The one number this section shows."""

from attn_math.story import Figure, Story, figure_table


def figures(s: Story) -> dict[str, Figure]:
    return figure_table(("n_keys", s.n, str(s.n)))
'''

BEATS = '''"""Two beats, always the same."""

from attn_math.beats import Beat, Figures, fixed
from attn_math.story import Story


def plan(s: Story, figs: Figures) -> list[Beat]:
    return fixed("intro", "count")
'''


def write_section(base: Path, unit: str = UNIT) -> Path:
    folder = base / unit
    (folder / "captions").mkdir(parents=True)
    (folder / "__init__.py").write_text('SCENE = "CountTheKeys"\n', encoding="utf-8")
    (folder / "scene.py").write_text(SCENE, encoding="utf-8")
    (folder / "figures.py").write_text(FIGURES, encoding="utf-8")
    (folder / "beats.py").write_text(BEATS, encoding="utf-8")
    key = "s" + unit[1:3]
    (folder / "spoken").mkdir()
    for lang, beats in CAPTIONS.items():
        lines = [f'[titles]\n{key} = "{TITLES[lang]}"\n', f'[summaries]\n{key} = "{SUMMARIES[lang]}"\n',
                 f"[{key}]"]
        lines += [f'{name} = "{text}"' for name, text in beats.items()]
        (folder / "captions" / f"{lang}.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
        spoken = [f"[{key}]", *(f'{name} = "{text}"' for name, text in SPOKEN[lang].items())]
        (folder / "spoken" / f"{lang}.toml").write_text("\n".join(spoken) + "\n", encoding="utf-8")
    return base


def render_py(*args: str, timeout: int = 900) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATTN_")}
    return subprocess.run([sys.executable, str(ROOT / "render.py"), *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def repo_state() -> str:
    return subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="module")
def outside(tmp_path_factory):
    return write_section(tmp_path_factory.mktemp("outside"))


@pytest.fixture(scope="module")
def before():
    return repo_state()


def test_list_adds_the_section_after_the_others(outside, before):
    p = render_py("list", "--json", "--section-dir", str(outside))
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)
    numbers = [r["number"] for r in rows]
    assert numbers == sorted(numbers) and numbers[-1] == NUMBER
    last = rows[-1]
    assert last["slug"] == SLUG and last["title_en"] == TITLES["en"] and last["title_ja"] == TITLES["ja"]
    assert Path(last["file"]) == outside / UNIT / "scene.py"
    assert repo_state() == before


@pytest.mark.slow
def test_script_says_its_captions_with_its_figure(outside, before):
    p = render_py("script", "--json", "--lang", "en", "--sections", SLUG, "--section-dir", str(outside))
    assert p.returncode == 0, p.stderr
    cues = json.loads(p.stdout)
    n_tokens = len(json.loads(render_py("figures", "--json").stdout)["tokens"])
    want = [CAPTIONS["en"]["intro"].format(n_keys=n_tokens), CAPTIONS["en"]["count"]]
    assert [" ".join(c["text"].split()) for c in cues] == want
    assert cues[0]["start"] < cues[1]["start"] < cues[1]["end"]
    assert repo_state() == before


@pytest.mark.slow
def test_render_makes_its_clip(outside, before, tmp_path):
    out = tmp_path / "out"
    p = render_py("render", "--quality", "tiny", "--sections", f"3,{NUMBER}", "--lang", "ja", "--jobs", "2",
                  "--out", str(out), "--section-dir", str(outside))
    assert p.returncode == 0, p.stdout + p.stderr
    clip = out / "clips" / f"{NUMBER}-{SLUG}.mp4"
    with av.open(str(clip)) as container:
        stream = container.streams.video[0]
        frames = sum(1 for _ in container.decode(stream))
    assert frames > 5
    srt = (out / "clips" / f"{NUMBER}-{SLUG}.srt").read_text(encoding="utf-8")
    assert CAPTIONS["ja"]["count"] in srt
    with av.open(str(out / "explainer.mp4")) as joined:
        titles = [c["metadata"].get("title") for c in joined.chapters()]
    assert titles[-1] == TITLES["ja"]
    assert repo_state() == before


@pytest.mark.slow
def test_slides_show_it(outside, before, tmp_path):
    out = tmp_path / "out"
    p = render_py("slides", "--quality", "tiny", "--sections", str(NUMBER), "--lang", "en", "--format", "html",
                  "--out", str(out), "--section-dir", str(outside))
    assert p.returncode == 0, p.stdout + p.stderr
    page = (out / "slides" / "index.html").read_text(encoding="utf-8")
    assert TITLES["en"] in page and CAPTIONS["en"]["count"] in page
    # its own summary is the text alternative of its video
    alt = re.search(rf'<p class="visually-hidden" id="summary-{NUMBER}">([^<]*)</p>', page)
    assert alt and alt[1].startswith(TITLES["en"]) and alt[1].endswith(SUMMARIES["en"]), alt
    assert repo_state() == before


@pytest.mark.slow
def test_changing_its_files_renders_it_again(outside, tmp_path):
    """The cache key covers the outside folder: an edited caption table renders the clip again."""
    copy, out = write_section(tmp_path / "copy"), tmp_path / "out"
    args = ("stills", "--quality", "tiny", "--sections", str(NUMBER), "--out", str(out), "--section-dir", str(copy))

    def status() -> str:
        assert render_py(*args).returncode == 0
        manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
        return manifest["last_run"]["status"][f"{NUMBER}-{SLUG}"]

    assert status() == "rendered"
    assert status() == "cached"
    table = copy / UNIT / "captions" / "ja.toml"
    table.write_text(table.read_text(encoding="utf-8").replace("1 つ", "ひとつ"), encoding="utf-8")
    assert status() == "rendered"


@pytest.mark.slow
def test_the_manim_cli_renders_its_scene_file(outside, tmp_path):
    """The plain manim CLI finds an outside section by its file, as it does a built-in one."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATTN_")}
    env["ATTN_SECTION_DIRS"] = str(outside)
    manim = Path(sys.executable).with_name("manim")
    p = subprocess.run([str(manim), "-ql", "--dry_run", "--media_dir", str(tmp_path),
                        str(outside / UNIT / "scene.py"), "CountTheKeys"],
                       env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0 and "Rendered CountTheKeys" in p.stdout + p.stderr, p.stdout + p.stderr


def test_a_taken_number_is_bad_input(tmp_path, before):
    clash = write_section(tmp_path, unit="s03_count_the_keys")
    p = render_py("list", "--section-dir", str(clash))
    assert p.returncode == 2
    assert len(p.stderr.strip().splitlines()) == 1 and "numbered 03" in p.stderr, p.stderr
    assert repo_state() == before


def test_section_parts_import_without_manim():
    """Every unit's package, figures and beat plan import without manim."""
    code = (
        "import importlib, sys\n"
        "from scenes.registry import SECTIONS, CARDS\n"
        "for s in SECTIONS + CARDS:\n"
        "    for part in ('', '.figures', '.beats'):\n"
        "        if part == '' or importlib.util.find_spec(s.package + part):\n"
        "            importlib.import_module(s.package + part)\n"
        "print(len(SECTIONS + CARDS), 'manim' in sys.modules)\n")
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    count, manim_loaded = p.stdout.split()
    assert int(count) > 2 and manim_loaded == "False"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_its_narration_speaks_its_own_spoken_variants(outside, lang):
    """The lines a narrated run synthesises (the list the render gives the voice) take the
    section's own spoken variant for the beat that has one, and its caption for the other."""
    code = (
        "import json, sys\n"
        "from pipeline.speech import section_lines\n"
        "from scenes.registry import by_number, load_story\n"
        f"lines = section_lines(by_number({NUMBER}), load_story(), {lang!r})\n"
        "print(json.dumps({l.id: l.spoken for l in lines}, ensure_ascii=False))\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATTN_")}
    env["ATTN_SECTION_DIRS"] = str(outside)
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    lines = json.loads(p.stdout)
    assert lines[f"{NUMBER}-count-1"] == SPOKEN[lang]["count"]
    assert lines[f"{NUMBER}-intro-1"] != SPOKEN[lang]["count"]


@pytest.mark.parametrize("words, says", [
    ('[s05]\nintro = "not mine"\n', "[s05] is not this section's table"),
    ('[titles]\ns05 = "not mine"\n', "[titles] s05 is not this section's entry"),
    ('[summaries]\ns27 = "mine"\ns03 = "not mine"\n', "[summaries] s03 is not this section's entry"),
])
def test_words_of_another_section_are_bad_input(tmp_path, before, words, says):
    """An outside section's caption file may not change a built-in section's words."""
    base = write_section(tmp_path)
    (base / UNIT / "captions" / "en.toml").write_text(words, encoding="utf-8")
    p = render_py("list", "--section-dir", str(base))
    assert p.returncode == 2, p.stdout + p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and says in p.stderr, p.stderr
    assert "Traceback" not in p.stderr
    assert repo_state() == before


def test_a_folder_that_is_not_a_section_brings_no_words(tmp_path):
    """The folder rule is one: a ``sNN_slug`` folder without ``__init__.py`` is no section for
    the registry, and its caption table is read by no one."""
    base = write_section(tmp_path)
    (base / UNIT / "__init__.py").unlink()
    (base / UNIT / "captions" / "en.toml").write_text('[s05]\nshadow = "not mine"\n', encoding="utf-8")
    code = ("from words import captions; from scenes.registry import SECTIONS\n"
            f"print(captions.table('en')['s05']['shadow'] != 'not mine', {NUMBER} in [s.number for s in SECTIONS])\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATTN_")}
    env["ATTN_SECTION_DIRS"] = str(base)
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["True", "False"]
