"""Random sentences a lecturer might type: a hypothesis strategy and a seeded generator.

Both draw from one recipe (:func:`build`), so a failing seed of ``bench/sweep.py`` and a
failing hypothesis example are the same kind of sentence:

- 2 to 12 tokens (:data:`attn_math.head.MIN_TOKENS` .. :data:`~attn_math.head.MAX_TOKENS`);
- words of the lexicon's classes (determiners, nouns, verbs, conjunctions, pronouns, in
  English and Japanese), unknown words (lower-case letters, up to
  :data:`~attn_math.head.MAX_TOKEN_CHARS` characters), Japanese content words and emoji;
- repeats: one word repeated throughout, or a word used twice;
- the followed token anywhere (first, last, middle), or the tool's default.

The claim sweep draws from a wider recipe (:func:`build_for_claims`, :func:`claim_sentences`,
:func:`seeded_for_claims`): the sentences above, or one of the small and degenerate cases a
lecturer reaches for first: two tokens (one word twice among them), a Japanese sentence with
a repeated particle, a sentence whose content words are adjectives and verbs the lexicon may
not know, the followed token first. (:func:`build` itself stays as it is: the layout sweep's
seeds name its sentences.)

Every sentence is one the command line accepts (``--sentence`` split on white space,
``--follow`` a 0-based position): :func:`build` checks it with
:func:`attn_math.head.sentence_head`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from hypothesis import strategies as st

from attn_math import lexicon
from attn_math.head import MAX_TOKEN_CHARS, MAX_TOKENS, MIN_TOKENS, Head, sentence_head

__all__ = ["Sentence", "sentences", "seeded", "build", "look_of", "WORDS_BY_CLASS",
           "build_for_claims", "claim_sentences", "seeded_for_claims", "CLAIM_KINDS"]

#: Words of each lexicon class, in the order the lexicon lists them.
WORDS_BY_CLASS: dict[str, tuple[str, ...]] = {
    cls: tuple(w for w, c in lexicon._CLASS_OF.items() if c == cls)
    for cls in (lexicon.DETERMINER, lexicon.NOUN, lexicon.VERB, lexicon.CONJUNCTION, lexicon.PRONOUN)
}
#: Nouns: a fixed list (the layout sweep's seeds name sentences drawn from it), all of them
#: nouns the lexicon knows.
WORDS_BY_CLASS[lexicon.NOUN] = ("cat", "dog", "ball", "fish", "bird", "house", "teacher", "river",
                                "猫", "犬", "魚", "東京", "先生")
#: Emoji drawn as text (Symbola), as a lecturer pastes them into a sentence.
EMOJI = ("🐈", "🐁", "🍎", "🚀", "🐶", "🌧", "☕")
#: Letters of unknown words (ASCII, so the spec file needs no escaping).
LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: Kinds of sentence: how the words are chosen.
KINDS = ("mixed", "one_word", "word_twice", "english", "japanese")
#: The caption languages and themes the layout sweep cycles through, seed by seed.
LANGS = ("ja", "en")
THEMES = ("dark", "light")
#: Where the followed token sits.
FOLLOWS = ("default", "first", "last", "middle")


class Chooser(Protocol):
    """What :func:`build` draws with: a hypothesis ``draw`` or a :class:`random.Random`."""

    def integer(self, lo: int, hi: int) -> int: ...
    def choice(self, options: Sequence): ...


@dataclass(frozen=True)
class Sentence:
    """A sentence as typed (``text``) and the followed token (``follow``, ``None``: the default)."""

    tokens: tuple[str, ...]
    follow: int | None

    @property
    def text(self) -> str:
        return " ".join(self.tokens)

    def head(self) -> Head:
        return sentence_head(list(self.tokens), follow=self.follow)

    def spec_toml(self) -> str:
        """A spec file for ``--spec`` / ``ATTN_HEAD`` (tokens hold no quote or backslash)."""
        follow = "" if self.follow is None else f"follow = {self.follow}\n"
        return f'sentence = "{self.text}"\n{follow}'

    def __str__(self) -> str:
        return self.text + ("" if self.follow is None else f"  [follow {self.follow}]")


def _unknown_word(c: Chooser) -> str:
    n = c.choice((1, 3, 5, 8, 9, 12, 13, 16, MAX_TOKEN_CHARS))
    return "".join(c.choice(LETTERS) for _ in range(n))


def _word(c: Chooser, pool: str) -> str:
    where = c.choice(("lexicon", "lexicon", "lexicon", "unknown", "emoji") if pool == "mixed"
                     else ("lexicon",))
    if where == "unknown":
        return _unknown_word(c)
    if where == "emoji":
        return c.choice(EMOJI)
    cls = c.choice(tuple(WORDS_BY_CLASS))
    words = WORDS_BY_CLASS[cls]
    if pool == "english":
        words = tuple(w for w in words if w.isascii()) or words
    elif pool == "japanese":
        words = tuple(w for w in words if not w.isascii()) or words
    return c.choice(words)


def build(c: Chooser) -> Sentence:
    """One sentence drawn with ``c`` (see the module docstring)."""
    n = c.integer(MIN_TOKENS, MAX_TOKENS)
    kind = c.choice(KINDS)
    if kind == "one_word":
        tokens = [_word(c, "mixed")] * n
    else:
        pool = kind if kind in ("english", "japanese") else "mixed"
        tokens = [_word(c, pool) for _ in range(n)]
        if kind == "word_twice":
            i, j = c.integer(0, n - 1), c.integer(0, n - 1)
            tokens[j] = tokens[i]
    where = c.choice(FOLLOWS)
    follow = {"default": None, "first": 0, "last": n - 1}.get(where)
    if where == "middle":
        follow = c.integer(0, n - 1)
    sentence = Sentence(tuple(tokens), follow)
    sentence.head()           # the tool accepts it, or this raises
    return sentence


class _Random:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def integer(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def choice(self, options: Sequence):
        return self.rng.choice(list(options))


class _Draw:
    def __init__(self, draw: Callable):
        self.draw = draw

    def integer(self, lo: int, hi: int) -> int:
        return self.draw(st.integers(lo, hi))

    def choice(self, options: Sequence):
        return self.draw(st.sampled_from(list(options)))


def look_of(seed: int) -> tuple[str, str]:
    """The caption language and theme the sentence of ``seed`` is probed in (``ja``/``en``
    alternate, then ``dark``/``light``)."""
    return LANGS[seed % 2], THEMES[(seed // 2) % 2]


def seeded(seed: int) -> Sentence:
    """The sentence of ``seed`` (the same on every machine: :class:`random.Random`)."""
    return build(_Random(seed))


@st.composite
def sentences(draw) -> Sentence:
    """A hypothesis strategy over the sentences :func:`build` makes (shrinks toward short
    sentences of the first lexicon words)."""
    return build(_Draw(draw))


# ---------------------------------------------------------------- the claim sweep's wider recipe

#: Adjectives and verb forms the lexicon does not list: a winner of no known class.
CONTENT_WORDS = ("late", "cold", "red", "happy", "quiet", "tall", "broke", "sang", "melts",
                 "高い", "赤い", "静か", "焼き", "配っ", "並べた", "読んだ")
#: Japanese content words and particles for a sentence with a repeated particle.
JA_CONTENT = ("母", "姉", "猫", "犬", "魚", "皿", "台所", "庭", "本", "焼き", "並べた", "食べた", "高い")
JA_PARTICLES = ("が", "を", "に", "で", "は", "の", "と")
#: The kinds of :func:`build_for_claims`: ``classic`` is :func:`build`'s recipe.
CLAIM_KINDS = ("classic", "classic", "two_tokens", "ja_particles", "content_words", "follow_first")


def _two_tokens(c: Chooser) -> Sentence:
    first = _word(c, "mixed")
    second = first if c.choice((True, False, False)) else _word(c, "mixed")
    return Sentence((first, second), c.choice((None, 0, 1)))


def _ja_particles(c: Chooser) -> Sentence:
    n = c.integer(4, MAX_TOKENS)
    particle = c.choice(JA_PARTICLES)
    tokens = [c.choice(JA_CONTENT) if i % 2 == 0 else c.choice(JA_PARTICLES) for i in range(n)]
    odd = [i for i in range(1, n, 2)]
    for i in (c.choice(odd[: len(odd) // 2 or 1]), c.choice(odd[len(odd) // 2:] or odd)):
        tokens[i] = particle            # the same particle twice (at least)
    return Sentence(tuple(tokens), c.choice((None, None, 0, n - 1)))


def _content_words(c: Chooser) -> Sentence:
    n = c.integer(MIN_TOKENS, MAX_TOKENS)
    pools = (CONTENT_WORDS, CONTENT_WORDS, WORDS_BY_CLASS[lexicon.PRONOUN],
             WORDS_BY_CLASS[lexicon.DETERMINER], WORDS_BY_CLASS[lexicon.VERB])
    tokens = [c.choice(c.choice(pools)) for _ in range(n)]
    return Sentence(tuple(tokens), c.choice((None, None, 0)))


def build_for_claims(c: Chooser) -> Sentence:
    """One sentence of the claim sweep: :func:`build`'s, or one of :data:`CLAIM_KINDS`."""
    kind = c.choice(CLAIM_KINDS)
    if kind == "classic":
        sentence = build(c)
    elif kind == "follow_first":
        sentence = Sentence(build(c).tokens, 0)
    else:
        sentence = {"two_tokens": _two_tokens, "ja_particles": _ja_particles,
                    "content_words": _content_words}[kind](c)
    sentence.head()           # the tool accepts it, or this raises
    return sentence


def seeded_for_claims(seed: int) -> Sentence:
    """The claim sweep's sentence of ``seed`` (:func:`build_for_claims`, the same on every
    machine)."""
    return build_for_claims(_Random(seed))


@st.composite
def claim_sentences(draw) -> Sentence:
    """A hypothesis strategy over the sentences :func:`build_for_claims` makes."""
    return build_for_claims(_Draw(draw))
