"""The 72 heads as one picture (``pipeline.heads.write_picture``, through ``render.py heads
--out``): a PNG wider than tall, and nothing else left beside it."""

from __future__ import annotations

from click.testing import CliRunner


def test_the_picture_is_a_png(tmp_path):
    from PIL import Image

    from cli.group import cli

    out = tmp_path / "heads.png"
    result = CliRunner().invoke(cli, ["heads", "--out", str(out), "--sentence", "the dog saw it"])
    assert result.exit_code == 0, result.output
    with Image.open(out) as img:
        assert img.format == "PNG" and img.width > img.height > 200
    assert [p.name for p in tmp_path.iterdir()] == ["heads.png"]
