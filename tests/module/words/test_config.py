"""The configuration variables (``words.config``): a value the scenes do not know is an error,
not the default; each name is spelled in that one module; the scene environment round-trips."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from scenes import style
from tests.support import ROOT
from words import config
from words.config import ConfigError


def _installed_packages() -> tuple[str, ...]:
    """The top-level code packages the wheel installs, as ``setup.py`` lists them (read from
    its source: a package added there is held to these rules without a list kept here)."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    (listing,) = [n.value for n in ast.walk(tree) if isinstance(n, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == "CODE" for t in n.targets)]
    return tuple(pattern.rstrip("*") for pattern in ast.literal_eval(listing))


#: The product (what the wheel installs): tools and benchmarks set up their own processes.
PRODUCT = ("render.py", *_installed_packages())
#: The project's code (tests and fixtures stand in for other projects, benchmarks for users).
CODE = (*PRODUCT, "tools", "bench")


def _read(var: str):
    """The value of ``var`` a process started with this environment reads (its edge)."""
    config.use(None)
    field = next(f for f, v in config.VARIABLES.items() if v.name == var)
    return getattr(config.current(), field)


@pytest.mark.parametrize("var, good, default", [
    ("ATTN_LANG", "en", "ja"),
    ("ATTN_CAPTIONS", "srt", "burned"),
    ("ATTN_THEME", "light", "dark"),
])
def test_attn_variables(monkeypatch, var, good, default):
    monkeypatch.delenv(var, raising=False)
    assert _read(var) == default
    monkeypatch.setenv(var, "")
    assert _read(var) == default
    monkeypatch.setenv(var, good)
    assert _read(var) == good
    for bad in ("english", "Dark", "burnt", " en"):
        monkeypatch.setenv(var, bad)
        with pytest.raises(ConfigError, match=var):
            _read(var)


def test_a_value_set_in_code_is_held_to_the_same_choices():
    with pytest.raises(ConfigError, match="ATTN_LANG"):
        config.Settings(lang="english")
    with pytest.raises(ConfigError, match="ATTN_THEME"):
        config.current().replace(theme="Dark")


def test_the_theme_is_the_settings_one(monkeypatch):
    monkeypatch.setenv("ATTN_THEME", "light")
    config.use(None)
    assert style.theme_name() == "light"
    with config.using(config.current().replace(theme="dark")):
        assert style.theme() is style.THEMES["dark"]
    assert style.theme() is style.THEMES["light"]


def test_every_theme_has_a_palette():
    assert set(style.THEMES) == set(config.THEMES)
    assert all(style.THEMES[name].name == name for name in config.THEMES)


def test_flag_and_locations(monkeypatch):
    for off in ("", "0"):
        monkeypatch.setenv("ATTN_NARRATION", off)
        assert _read("ATTN_NARRATION") is False
    monkeypatch.setenv("ATTN_NARRATION", "1")
    assert _read("ATTN_NARRATION") is True
    monkeypatch.delenv("ATTN_HEAD", raising=False)
    assert _read("ATTN_HEAD") is None
    monkeypatch.setenv("ATTN_HEAD", "/x/head.toml")
    assert _read("ATTN_HEAD") == Path("/x/head.toml")


def test_the_environment_is_read_once(monkeypatch):
    """The settings are built at the edge: a variable set after the first read changes nothing
    in this process (a process it starts is handed the value)."""
    monkeypatch.setenv("ATTN_LANG", "en")
    config.use(None)
    assert config.current().lang == "en"
    monkeypatch.setenv("ATTN_LANG", "ja")
    assert config.current().lang == "en"


def test_scene_env_round_trips(monkeypatch):
    """What the pipeline writes for a worker is what the scene reads back, and nothing of an
    earlier configuration survives."""
    monkeypatch.setenv("ATTN_HEAD", "/stale/head.toml")
    monkeypatch.setenv("ATTN_VOICE_CACHE", "/stale/voice")
    monkeypatch.setenv("ATTN_REGISTRY", "tests.fixtures.registry")
    env = config.scene_env(lang="en", theme="light", captions="srt", narration=True, voice_cache="/v")
    assert env == {"ATTN_LANG": "en", "ATTN_THEME": "light", "ATTN_CAPTIONS": "srt",
                   "ATTN_NARRATION": "1", "ATTN_VOICE_CACHE": "/v"}
    worker = config.current().with_scene(env)
    assert (worker.lang, worker.theme, worker.captions) == ("en", "light", "srt")
    assert worker.narration and worker.voice_cache == Path("/v")
    assert worker.head is None
    assert worker.registry == "tests.fixtures.registry"   # the tooling's switches stay
    assert config.Settings().with_scene(env).environment() == env   # the scene form round-trips
    with config.using(worker):
        assert config.current() is worker
    assert config.current().head == Path("/stale/head.toml")
    # a silent render keeps no voice cache
    assert config.VOICE_CACHE.name not in config.scene_env(lang="ja", voice_cache="/v")


def test_environment_round_trips(tmp_path):
    """What a process hands the processes it starts (its studio render process) is what they
    build back: every field, paths and flags included."""
    settings = config.Settings(lang="en", theme="light", captions="none", head=tmp_path / "h.toml",
                               narration=True, voice="joe", section_dirs=(tmp_path,),
                               registry="tests.fixtures.registry", render_worker="subprocess")
    assert config.Settings.from_environment(settings.environment()) == settings
    assert config.Settings().environment() == {}
    assert config.Settings.from_environment({}) == config.Settings()


def test_voice_recordings_and_captions_file(tmp_path):
    """A voice and recordings reach a narrated render only; a captions file any render, and
    both files are written resolved (a worker may run in another folder)."""
    words, takes = tmp_path / "words.toml", tmp_path / "takes"
    silent = config.scene_env(lang="en", voice="joe", recordings=takes, captions_file=words)
    assert silent == {"ATTN_LANG": "en", "ATTN_CAPTIONS_FILE": str(words.resolve())}
    narrated = config.scene_env(lang="en", narration=True, voice="joe", recordings=takes)
    worker = config.Settings().with_scene(narrated)
    assert worker.voice == "joe" and worker.recordings == takes.resolve()
    assert worker.captions_file is None


def test_section_dirs_round_trip(tmp_path):
    """Folders named on the command line reach the scenes of a worker (or of the caption
    timeline, which clears every scene variable it is not given)."""
    a, b = tmp_path / "a", tmp_path / "b"
    settings = config.Settings(section_dirs=(a, b))
    env = config.scene_env(lang="en", section_dirs=settings.section_dirs)
    assert config.Settings(lang="ja").with_scene(env).section_dirs == (a.resolve(), b.resolve())


def _project_files():
    for part in CODE:
        path = ROOT / part
        yield from ([path] if path.is_file() else sorted(path.rglob("*.py")))


def test_variable_names_are_spelled_once():
    """No module but words/config.py writes an ``ATTN_*`` name in code (docstrings may name
    them), so a variable cannot be read under one name and written under another."""
    name = re.compile(r"ATTN_[A-Z_]+")
    spelled = {}
    for path in _project_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                      if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and n.body and isinstance(n.body[0], ast.Expr)
                      and isinstance(n.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and id(node) not in docstrings and name.search(node.value)):
                spelled.setdefault(str(path.relative_to(ROOT)), []).append(node.value)
    assert set(spelled) == {"words/config.py"}, spelled
    assert len(set(spelled["words/config.py"])) == len(spelled["words/config.py"])


#: What reads or writes the process environment.
ENVIRONMENT = {"environ", "environb", "getenv", "getenvb", "putenv", "unsetenv"}


def test_the_product_is_every_installed_package():
    assert {"attn_math", "scenes", "words", "pipeline", "patches", "studio"} <= set(PRODUCT)


def test_only_the_config_module_touches_the_environment():
    """The run's settings come from one place: no module of the product but words/config.py
    reads or writes ``os.environ`` (a subprocess's environment included)."""
    touched = {}
    for top in PRODUCT:
        base = ROOT / top
        for path in ([base] if base.is_file() else sorted(base.rglob("*.py"))):
            if "__pycache__" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                hit = (isinstance(node, ast.Attribute) and node.attr in ENVIRONMENT
                       and isinstance(node.value, ast.Name) and node.value.id == "os") or (
                    isinstance(node, ast.ImportFrom) and node.module == "os"
                    and any(a.name in ENVIRONMENT for a in node.names))
                if hit:
                    touched.setdefault(str(path.relative_to(ROOT)), []).append(node.lineno)
    assert set(touched) == {"words/config.py"}, touched
