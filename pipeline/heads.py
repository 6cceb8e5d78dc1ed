"""``render.py heads``: the followed word's row in all 72 heads of the real model, as data or
as one picture (a 6 x 12 grid of small bar rows: BertViz's model view for one word).

The numbers come from :mod:`attn_math.real_head`; this module only lays them out. The picture
is drawn with Pillow (no manim: a still that needs no scene), written to a temporary name and
renamed when complete.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from attn_math.head import Head
from attn_math.real_head import ModelMissing, WordAttention, word_attention

from .files import tmp_name
from .options import BadInput

__all__ = ["heads_of", "write_picture"]

#: The picture's size and palette (the video's dark theme).
_CELL_W, _CELL_H, _MARGIN, _LABEL_W = 150, 62, 24, 90
_BG, _FG, _MUTED, _BAR, _SPECIAL, _FOLLOWED = "#0b0d10", "#e8eaed", "#8a9099", "#3fc7c7", "#5b6270", "#f5c542"


def heads_of(head: Head) -> WordAttention:
    """The real model's attention for ``head``'s sentence, following its followed token
    (:class:`BadInput` naming what to install when the model is not there)."""
    try:
        return word_attention(list(head.tokens), head.follow)
    except ModelMissing as e:
        raise BadInput(str(e)) from None


def _font(size: int):
    from PIL import ImageFont

    fc = shutil.which("fc-match")
    if fc is not None:
        path = subprocess.run([fc, "-f", "%{file}", "Noto Sans CJK JP"], capture_output=True, text=True,
                              timeout=30).stdout.strip()
        if path:
            return ImageFont.truetype(path, size)
    return ImageFont.load_default(size)


def write_picture(att: WordAttention, dest: Path) -> Path:
    """The 6 x 12 grid of the followed word's rows as a PNG at ``dest``: one cell per head,
    one bar per token (``[CLS]``/``[SEP]`` grey, the followed word's own bar gold), layers
    and heads numbered from 1."""
    from PIL import Image, ImageDraw

    rows = att.rows
    layers, heads, n = rows.shape
    width = _MARGIN * 2 + _LABEL_W + heads * _CELL_W
    height = _MARGIN * 3 + 70 + layers * _CELL_H + 40
    img = Image.new("RGB", (width, height), _BG)
    draw = ImageDraw.Draw(img)
    title, small, tiny = _font(28), _font(18), _font(14)
    words = " ".join(att.tokens[1:-1])
    draw.text((_MARGIN, _MARGIN), f"{att.model}: “{att.tokens[att.follow]}” in “{words}”", font=title, fill=_FG)
    draw.text((_MARGIN, _MARGIN + 40), "each cell: one head’s row for the followed word; bars: "
              + ", ".join(att.tokens), font=tiny, fill=_MUTED)
    top = _MARGIN * 2 + 70
    for h in range(heads):
        draw.text((_MARGIN + _LABEL_W + h * _CELL_W + _CELL_W // 2 - 20, top - 26), f"head {h + 1}",
                  font=tiny, fill=_MUTED)
    for layer in range(layers):
        y0 = top + layer * _CELL_H
        draw.text((_MARGIN, y0 + _CELL_H // 2 - 12), f"layer {layer + 1}", font=small, fill=_MUTED)
        for h in range(heads):
            x0 = _MARGIN + _LABEL_W + h * _CELL_W
            draw.rectangle((x0 + 4, y0 + 4, x0 + _CELL_W - 4, y0 + _CELL_H - 4), outline="#2a2f36")
            bar_w = (_CELL_W - 16) / n
            for j in range(n):
                colour = _SPECIAL if j in (0, n - 1) else _FOLLOWED if j == att.follow else _BAR
                tall = float(rows[layer, h, j]) * (_CELL_H - 14)
                x = x0 + 8 + j * bar_w
                draw.rectangle((x + 1, y0 + _CELL_H - 8 - tall, x + bar_w - 1, y0 + _CELL_H - 8), fill=colour)
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = tmp_name(dest)
    img.save(tmp, format="PNG")
    Path(tmp).replace(dest)
    return dest
