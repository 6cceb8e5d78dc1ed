"""``heads``: what a real trained transformer does with the followed word of your sentence."""

from __future__ import annotations

import json
from pathlib import Path

import click

from .options import example_options

__all__ = ["heads"]


@click.command("heads")
@click.option("--json", "as_json", is_flag=True,
              help='One JSON object: {"model", "tokens" ([CLS], the words, [SEP]), "follow" (index in '
                   'tokens), "attention" (per layer, per head: the followed word\'s weight per token)}.')
@click.option("--out", "out_file", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Write the 72 heads' rows as one picture (a PNG: 6 layers x 12 heads).")
@example_options
def heads(as_json, out_file, example):
    """The followed word's attention in every head of all-MiniLM-L6-v2 (a trained BERT
    encoder shipped with the set-up), gathered to your sentence's words."""
    from attn_math import default_head
    from attn_math.fmt import fmt
    from pipeline.heads import heads_of, write_picture
    from pipeline.options import BadInput

    if out_file is not None and out_file.suffix.lower() != ".png":
        raise BadInput(f"--out: {out_file} is not a .png file")
    head = example.resolve() or default_head()
    att = heads_of(head)
    if out_file is not None:
        write_picture(att, out_file)
    if as_json:
        click.echo(json.dumps(att.to_json(), ensure_ascii=False))
        return 0
    if out_file is None:
        click.echo(f"model:    {att.model}")
        click.echo("tokens:   " + " ".join(att.tokens))
        click.echo("pieces:   " + " ".join(p for ps in att.pieces for p in ps))
        click.echo(f"follow:   {att.tokens[att.follow]} (token {att.follow})")
        if not att.readable:
            click.echo("note:     the model cannot read this sentence (not Latin script, or pieces "
                       "outside its vocabulary: [UNK]); its weights mean little")
        top = att.top_word()
        for layer in range(top.shape[0]):
            click.echo(f"layer {layer + 1}: " + "  ".join(
                f"{att.tokens[top[layer, h]]} {fmt(att.rows[layer, h, top[layer, h]], 2)}" for h in range(top.shape[1])))
    else:
        click.echo(f"wrote {out_file}")
    return 0
