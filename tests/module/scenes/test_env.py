"""The scene configuration variables: a value the scenes do not know is an error, not the default."""

from __future__ import annotations

import pytest

from scenes import captions, style
from scenes.env import ConfigError


@pytest.mark.parametrize("var, read, good, default", [
    ("ATTN_LANG", captions.lang, "en", "ja"),
    ("ATTN_CAPTIONS", captions.mode, "srt", "burned"),
    ("ATTN_THEME", style.theme_name, "light", "dark"),
])
def test_attn_variables(monkeypatch, var, read, good, default):
    monkeypatch.delenv(var, raising=False)
    assert read() == default
    monkeypatch.setenv(var, "")
    assert read() == default
    monkeypatch.setenv(var, good)
    assert read() == good
    for bad in ("english", "Dark", "burnt", " en"):
        monkeypatch.setenv(var, bad)
        with pytest.raises(ConfigError, match=var):
            read()
