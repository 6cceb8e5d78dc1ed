"""Section 26, a real head (``beats.py`` and the ``figures.py`` it reads): every caption
checked against a second reading of the model.

The numbers come from the independent forward pass of ``tests/support/bert_loop.py`` (float32,
a query row at a time) on the word pieces of the Hugging Face ``tokenizers`` package reading
the shipped ``tokenizer.json``, gathered to words here; the toy row from ``figures --json``.
The captions are those ``render.py script --json`` plans; each is read for what it claims
(a count, a head, a weight, a winner, an agreement) and the claim is checked on the oracle.
A sentence the model cannot read gets its pieces and a card, not the grid.
"""

from __future__ import annotations

import json
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import pytest
from click.testing import CliRunner

from attn_math.real_head.model import model_dir
from tests.support.bert_loop import attention as loop_attention

SENTENCES = [
    "the cat ate and it ran",
    "moon moon",
    "the dog chased the cat because it was hungry",
    "the tokenization of disestablishment confused it",
    "it rained on the quiet town",
    "the quick brown fox jumps over the lazy dog and it barked",
]


def shown(x: float) -> str:
    """``x`` as the screen prints a weight: two decimals, half away from zero."""
    return str(Decimal(repr(float(x))).quantize(Decimal("0.01"), ROUND_HALF_UP))


def run(*args: str) -> str:
    from cli.group import cli

    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def oracle_rows(words: list[str], follow: int) -> np.ndarray:
    """``(layers, heads, words + 2)``: the followed word's row, gathered as BertViz does (its
    pieces' rows averaged, each word's pieces' columns added), from the independent pass."""
    from tokenizers import Tokenizer

    folder = model_dir()
    tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tok.no_padding()          # the shipped file pads every text to 128 pieces
    tok.no_truncation()
    vocab = tok.get_vocab()
    pieces = [tok.encode(w, add_special_tokens=False).tokens for w in words]
    ids = [vocab["[CLS]"], *(vocab[p] for ps in pieces for p in ps), vocab["[SEP]"]]
    maps = loop_attention(ids, folder)
    spans, start = [[0]], 1
    for ps in pieces:
        spans.append(list(range(start, start + len(ps))))
        start += len(ps)
    spans.append([start])
    rows = maps[:, :, spans[follow + 1], :].mean(axis=2)
    return np.stack([rows[:, :, s].sum(axis=-1) for s in spans], axis=-1), sum(len(p) for p in pieces) + 2


#: The section's slots; a caption key is its slot's name or a variant of it (``zoom_shared``);
#: the compare slot's variants have names of their own.
SLOTS = ("pieces", "unreadable", "grid", "parked", "strong", "zoom", "encoder")


def beats(sentence: str) -> dict[str, tuple[str, str]]:
    """The section's captions for ``sentence`` in English: slot -> (caption key, its text as
    one line)."""
    cues = json.loads(run("script", "--json", "--lang", "en", "--sections", "26", "--sentence", sentence))
    out: dict[str, tuple[str, str]] = {}
    for c in cues:
        slot = next((s for s in SLOTS if c["beat"].startswith(s)), "compare")
        key, text = out.get(slot, (c["beat"], ""))
        out[slot] = (key, (text + " " + " ".join(c["text"].split())).strip())
    return out


@pytest.mark.slow
@pytest.mark.parametrize("sentence", SENTENCES)
def test_every_caption_is_true_of_an_independent_forward_pass(sentence):
    story = json.loads(run("figures", "--json", "--sentence", sentence))
    words, f = story["tokens"], story["follow"]
    labels = story["labels"]
    raw = np.array(story["raw_scores"][f])
    toy = np.array(story["weights"][f])
    winner = int(np.argmax(raw))              # the toy head's winner: the top raw score, first on a tie
    rows, n_pieces = oracle_rows(words, f)
    keys = beats(sentence)
    said = {slot: text for slot, (_, text) in keys.items()}
    names = ["[CLS]", *labels, "[SEP]"]
    last = len(names) - 1

    assert f"as {n_pieces} pieces" in said["pieces"]

    parked = int(((rows[:, :, 0] + rows[:, :, -1]) > 0.5).sum())
    if parked == 0:
        assert "In no head" in said["parked"]
    elif parked == 72:
        assert "In all 72 heads" in said["parked"]
    else:
        assert f"In {parked} of the 72 heads" in said["parked"]

    others = [j for j in range(1, last) if j != f + 1]
    sub = rows[:, :, others]
    layer, head, k = np.unravel_index(int(np.argmax(sub)), sub.shape)
    assert (f"layer {layer + 1}, head {head + 1}, “{labels[f]}” → “{names[others[k]]}”, "
            f"{shown(sub[layer, head, k])}") in said["strong"]

    on_winner = rows[:, :, winner + 1]
    layer, head = np.unravel_index(int(np.argmax(on_winner)), on_winner.shape)
    assert f"layer {layer + 1}, head {head + 1} gives “{labels[winner]}” the most: {shown(on_winner[layer, head])}" \
        in said["zoom"]
    toy_tops = [j for j in range(len(toy)) if shown(toy[j]) == shown(toy.max())]
    if len(toy_tops) == 1:
        assert f"“{labels[f]}” gives “{labels[winner]}” the most, {shown(toy[winner])}" in said["zoom"]
    else:
        assert "is shared" in said["zoom"]

    row = rows[layer, head]
    tops = [j for j in range(len(row)) if shown(row[j]) == shown(row.max())]
    compare = said["compare"]
    if len(tops) > 1:
        assert "is shared by" in compare
    elif tops[0] in (0, last):
        assert f"goes to “{names[tops[0]]}”, a token our toy head does not have" in compare
    elif tops[0] - 1 in toy_tops:
        assert f"“{names[tops[0]]}” gets this head’s largest weight" in compare
        assert ("as in our toy head" if len(toy_tops) == 1 else "ties at the top") in compare
    else:
        assert f"goes to “{names[tops[0]]}”" in compare and "disagree" in compare

    if f == len(words) - 1:
        assert "only [SEP] comes after it" in said["encoder"]
    else:
        assert "nothing hides the words after" in said["encoder"]


@pytest.mark.parametrize("sentence, reason", [
    ("猫 が 魚 を 食べた", "are not in Latin script"),
    ("the cat 🦊 it ran", "has no pieces for “🦊”"),
])
def test_a_sentence_the_model_cannot_read_gets_the_card_not_the_grid(sentence, reason):
    said = beats(sentence)
    assert list(said) == ["pieces", "unreadable"]
    card = said["unreadable"][1]
    assert reason in card and "no grid" in card.lower()
