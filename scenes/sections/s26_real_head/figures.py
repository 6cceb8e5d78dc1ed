"""Section 26's figures: what a trained head does with the followed word, read off the real
model (:mod:`attn_math.real_head`) and formatted once.

The model reads the story's tokens as words (BERT's pieces gathered back to words, as BertViz
does), with ``[CLS]`` first and ``[SEP]`` last; the followed word is the story's. Three heads
are singled out:

- the *chosen* head: the one of all 72 whose row gives the toy head's winner the most weight
  (the first in layer-then-head order on an exact tie);
- the *strongest link*: the head and word of the largest weight the followed word gives any
  other word (not itself, not ``[CLS]``/``[SEP]``);
- the *parked* heads: those giving ``[CLS]`` and ``[SEP]`` together more than half of the
  followed word's weight.

Without the model installed every table is empty (the section cannot render, and says what to
install before a run starts). For a sentence the model cannot read
(:attr:`~attn_math.real_head.WordAttention.readable`) the figures are computed all the same
(the weights exist, they mean little); its plan shows only the pieces and a card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

import numpy as np

from attn_math import prose
from attn_math.claims import extremes_as_shown
from attn_math.fmt import fmt
from attn_math.real_head import ModelMissing, WordAttention, latin, word_attention
from attn_math.real_head.wordpiece import UNK
from attn_math.story import Figure, Story, figure_table

__all__ = ["DECIMALS", "PARKED_SHARE", "attention", "caption_context", "chosen_head", "chosen_row",
           "figures", "foreign_words", "parked", "real_labels", "real_tops", "toy_row", "toy_tops",
           "unknown_words"]

#: The decimals every weight of the section is shown with (its bars and its captions).
DECIMALS = 2
#: A head parks the followed word's attention when more than this share of its row goes to
#: ``[CLS]`` and ``[SEP]`` together.
PARKED_SHARE = 0.5


@lru_cache(maxsize=32)
def _attention(tokens: tuple[str, ...], follow: int) -> WordAttention | None:
    try:
        return word_attention(list(tokens), follow)
    except ModelMissing:
        return None


def attention(s: Story) -> WordAttention | None:
    """The real model's attention for the story's sentence, following its followed token
    (None when the model is not installed)."""
    return _attention(tuple(s.tokens), s.follow)


def real_labels(s: Story) -> list[str]:
    """The model's tokens as the screen names them: ``[CLS]``, the story's labels (repeated
    words told apart), ``[SEP]``."""
    return ["[CLS]", *s.labels, "[SEP]"]


def chosen_head(s: Story) -> tuple[int, int]:
    """``(layer, head)``, 0-based: the head whose followed row gives the toy winner the most."""
    return attention(s).best_head_for(s.winner + 1)


def chosen_row(s: Story) -> np.ndarray:
    """The chosen head's row for the followed word: one weight per model token."""
    return attention(s).rows[chosen_head(s)]


def toy_row(s: Story) -> np.ndarray:
    """The toy head's row for the followed token (no mask: an encoder reads both ways)."""
    return s.W[s.follow]


def real_tops(s: Story) -> list[int]:
    """The model tokens the chosen head's row gives its largest weight, as shown."""
    return extremes_as_shown(chosen_row(s), DECIMALS)


def toy_tops(s: Story) -> list[int]:
    """The story tokens the toy row gives its largest weight, as shown."""
    return extremes_as_shown(toy_row(s), DECIMALS)


def parked(s: Story) -> np.ndarray:
    """``(layers, heads)`` booleans: the heads that park the followed word on ``[CLS]``/``[SEP]``."""
    return attention(s).special_weight() > PARKED_SHARE


def foreign_words(s: Story) -> list[int]:
    """Story tokens that are not in Latin script (the model reads English)."""
    return [i for i, t in enumerate(s.tokens) if not latin(t)]


def unknown_words(s: Story) -> list[int]:
    """Story tokens with a piece the vocabulary cannot cut (``[UNK]``)."""
    a = attention(s)
    return [i for i, p in enumerate(a.pieces[1:-1]) if UNK in p]


def _names(labels: Sequence[str], lang: str | None) -> str:
    if lang is None:
        return ", ".join(labels)
    return prose.token_list(list(labels), lang)


def caption_context(s: Story, figs: Mapping[str, Figure], lang: str | None) -> dict[str, str]:
    """The words only this section's captions name: the toy winner, the chosen head's and the
    toy head's tops, the strongest link's word, the cut words and their pieces, the words the
    model cannot read."""
    a = attention(s)
    if a is None:
        return {}
    name = (lambda x: x) if lang is None else (lambda x: prose.token_name(x, lang))   # noqa: E731
    ctx = {"toy_winner": name(s.labels[s.winner]), "model": "all-MiniLM-L6-v2"}
    cut = [i - 1 for i in a.split_words]
    ctx["split_word"] = name(s.labels[cut[0]]) if cut else ""
    for key, idx in (("foreign", foreign_words(s)), ("unknown", unknown_words(s))):
        ctx[key] = _names([s.labels[i] for i in idx], lang)
        ctx[f"{key}_first"] = name(s.labels[idx[0]]) if idx else ""
    labels = real_labels(s)
    ctx["real_top"] = _names([labels[j] for j in real_tops(s)], lang)
    ctx["toy_tops"] = _names([s.labels[j] for j in toy_tops(s)], lang)
    layer, head, word = a.strongest_other()
    ctx["strong_word"] = name(labels[word])
    # On-screen words that name one head or token the scene picks (a grid's layer names, the
    # strongest link's line): the scene passes its own; these fill them for any other reader.
    bl, bh = chosen_head(s)
    ctx.update(layer=str(bl + 1), head=str(bh + 1), word=labels[word], follow_name=s.labels[s.follow])
    return ctx


def figures(s: Story) -> dict[str, Figure]:
    """A real head."""
    a = attention(s)
    if a is None:
        return {}
    pieces = sum(len(p) for p in a.pieces)
    cut = a.split_words
    split = len(a.pieces[cut[0]]) if cut else 0
    foreign, unknown = len(foreign_words(s)), len(unknown_words(s))
    table = [("pieces", pieces, str(pieces)), ("cut_count", len(cut), str(len(cut))),
             ("split_count", split, str(split)), ("foreign_count", foreign, str(foreign)),
             ("unknown_count", unknown, str(unknown))]
    layers, heads = a.rows.shape[:2]
    n_parked = int(parked(s).sum())
    sl, sh, sw = a.strongest_other()
    bl, bh = chosen_head(s)
    row = chosen_row(s)
    top = float(row.max())
    toy = float(toy_row(s)[s.winner])
    strong = float(a.rows[sl, sh, sw])
    best = float(row[s.winner + 1])
    table += [("layers", layers, str(layers)), ("heads", heads, str(heads)),
              ("all_heads", layers * heads, str(layers * heads)), ("parked", n_parked, str(n_parked)),
              ("strong_layer", sl + 1, str(sl + 1)), ("strong_head", sh + 1, str(sh + 1)),
              ("strong_weight", strong, fmt(strong, DECIMALS)),
              ("best_layer", bl + 1, str(bl + 1)), ("best_head", bh + 1, str(bh + 1)),
              ("best_weight", best, fmt(best, DECIMALS)), ("best_top", top, fmt(top, DECIMALS)),
              ("toy_weight", toy, fmt(toy, DECIMALS))]
    return figure_table(*table)
