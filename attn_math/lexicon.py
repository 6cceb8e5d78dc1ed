"""A small word-class table, and deterministic vectors for words the head has never seen.

A custom sentence keeps the default head's W_Q, W_K, W_V; its tokens need 2-D
inputs. Each word gets the default sentence's input of the same word class
(determiner, noun, verb, conjunction, pronoun) plus a small offset drawn from a
hash of the word, so the picture keeps its sense (a pronoun's query still leans
toward the nouns) and the same word lands on the same vector on every machine.
"""

from __future__ import annotations

import hashlib

import numpy as np

DETERMINER, NOUN, VERB, CONJUNCTION, PRONOUN, OTHER, UNKNOWN = (
    "determiner", "noun", "verb", "conjunction", "pronoun", "other", "unknown",
)

_WORDS = {
    NOUN: """cat cats dog dogs fish ball balls bird birds house houses teacher teachers river
        rivers tree trees car cars book books man men woman women child children boy girl
        mat park city garden road sun moon 猫 犬 魚 鳥 家 先生 川 木 車 本 東京 公園 ボール""",
    DETERMINER: """the a an this that these those my your his her its our their some any
        every each no この その あの どの""",
    CONJUNCTION: """and or but so yet nor because while then when if as of to in on at
        with from by for into onto over under after before と や か が を に で へ から まで は も の
        そして しかし だから でも""",
    PRONOUN: """it he she they him her them we us you i me itself himself herself themselves
        this that それ これ あれ 彼 彼女 彼ら 私 僕 あなた それら""",
    VERB: """ate eat eats ran run runs chased chase chases rolled roll rolls sat sit sits saw see
        sees was is are were be been had has have did do does went go goes took take takes
        made make makes said say says got get gets came come comes found find finds gave give
        gives slept sleep sleeps jumped jump jumps barked bark barks fell fall falls
        食べた 走った 追った 転がった 見た 座った 寝た 行った 来た 言った した 落ちた
        食べる 走る 見る 行く 来る する""".replace("\n", " "),
}
# Words that read as pronouns but are determiners here ("this cat") are resolved by
# order: the determiner entry wins only when followed by a noun, which we cannot know;
# keep it simple and let the pronoun entry win for "this"/"that"/"her".
_CLASS_OF: dict[str, str] = {}
for cls in (NOUN, DETERMINER, CONJUNCTION, VERB, PRONOUN):
    for w in _WORDS[cls].split():
        _CLASS_OF[w] = cls


def word_class(word: str) -> str:
    """The word class of ``word`` (case-insensitive) as the lexicon knows it, else
    :data:`UNKNOWN`.

    Only listed words have a class: a caption may claim a word is a noun or a pronoun
    only from this answer, so a guess would be a false claim.
    """
    return _CLASS_OF.get(word.strip().lower(), UNKNOWN)


def input_class(word: str) -> str:
    """The class whose default input ``word`` is placed near: its :func:`word_class`, and
    for an unknown word ``verb`` when it looks inflected (``-ed``, ``-ing``), else ``noun``.

    This is a placement, not a claim: content words dominate open vocabulary, and a
    noun-like input keeps the followed pronoun's query with somewhere to lean.
    """
    cls = word_class(word)
    if cls != UNKNOWN:
        return cls
    w = word.strip().lower()
    if w.endswith(("ed", "ing")) and len(w) > 4:
        return VERB
    return NOUN


def is_pronoun(word: str) -> bool:
    """Whether the lexicon knows ``word`` as a pronoun."""
    return word_class(word) == PRONOUN


def word_offset(word: str, scale: float) -> np.ndarray:
    """A deterministic 2-D offset for ``word``: from its SHA-256, length at most ``scale``."""
    h = hashlib.sha256(word.strip().lower().encode("utf-8")).digest()
    a = int.from_bytes(h[:4], "big") / 2**32 * 2 * np.pi
    r = (0.35 + 0.65 * int.from_bytes(h[4:8], "big") / 2**32) * scale
    return np.array([r * np.cos(a), r * np.sin(a)])


def vector_for(word: str, anchors: dict[str, np.ndarray], scale: float = 0.18) -> np.ndarray:
    """The 2-D input for ``word``: its class's anchor plus a small hashed offset.

    ``anchors`` maps word classes to the default sentence's inputs. (Words of
    the default sentence itself keep their own inputs: see ``head.sentence_head``.)
    """
    cls = input_class(word)
    base = np.asarray(anchors.get(cls, anchors[NOUN]), float)
    return base + word_offset(word, scale * max(1.0, float(np.linalg.norm(base))) * 0.5)
