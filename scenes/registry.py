"""The ordered list of sections: the one place that says which scene plays when.

Order comes from this list and nothing else (never from file or class names).
Importing this module does not import manim, so listing sections is instant;
:func:`load_scene_class` imports a scene's module only when it is rendered.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Section:
    """One section of the storyboard and the scene that animates it."""

    number: int
    slug: str
    module: str
    scene: str
    title_ja: str
    title_en: str
    #: For a title that names the default sentence's token count ("six numbers"): the
    #: same title for a sentence of ``n`` tokens, with ``{count}`` filled per language.
    title_ja_n: str = ""
    title_en_n: str = ""
    #: A card of the stitched explainer (opening, closing), not a section of the source.
    card: bool = False

    @property
    def file(self) -> str:
        """Path of the scene's source file, relative to the project root."""
        return self.module.replace(".", "/") + ".py"

    @property
    def stem(self) -> str:
        """``NN-slug``, the name of this section's clip and still."""
        return f"{self.number:02d}-{self.slug}"

    def title(self, lang: str, n_tokens: int | None = None) -> str:
        """The title in ``lang``; for a sentence of ``n_tokens`` if the title counts them."""
        template = self.title_ja_n if lang == "ja" else self.title_en_n
        if template and n_tokens is not None and n_tokens != DEFAULT_TOKENS:
            return template.format(count=count_words(n_tokens, lang))
        return self.title_ja if lang == "ja" else self.title_en


DEFAULT_TOKENS = 6  # the default sentence's length, which the registry titles assume
_EN_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
               "nine", "ten", "eleven", "twelve")


def count_words(n: int, lang: str) -> str:
    """``n`` as a title writes it: "twelve" in English, "8 つ" / "12 個" in Japanese."""
    if lang == "ja":
        return f"{n} つ" if n < 10 else f"{n} 個"
    return _EN_NUMBERS[n] if n < len(_EN_NUMBERS) else str(n)


def _s(number: int, slug: str, scene: str, ja: str, en: str, ja_n: str = "",
       en_n: str = "") -> Section:
    module = f"scenes.s{number:02d}_{slug.replace('-', '_')}"
    return Section(number, slug, module, scene, ja, en, ja_n, en_n)


SECTIONS: tuple[Section, ...] = (
    _s(1, "three-projections", "ThreeProjections", "3 つの射影", "Three projections"),
    _s(2, "move-the-input", "MoveTheInput", "入力を動かす", "Move the input"),
    _s(3, "which-key", "WhichKey", "どのキーを選ぶか", "Which key does each query pick?"),
    _s(4, "two-maps", "TwoMaps", "写像は 2 つ", "Two maps, not one"),
    _s(5, "dot-product-shadow", "DotProductShadow", "内積は影", "The dot product is a shadow"),
    _s(6, "one-query-six-numbers", "OneQuerySixNumbers", "1 つのクエリ、6 つの数", "One query, six numbers",
       "1 つのクエリ、{count}の数", "One query, {count} numbers"),
    _s(7, "long-key-trap", "LongKeyTrap", "長いキーの罠", "The long-key trap"),
    _s(8, "the-square", "TheSquare", "正方形", "The square"),
    _s(9, "reading-rows", "ReadingRows", "行を読む", "Reading rows"),
    _s(10, "fold-diagonal", "FoldDiagonal", "対角線で折る", "Fold on the diagonal"),
    _s(11, "softmax-staircase", "SoftmaxStaircase", "softmax の階段", "The softmax staircase"),
    _s(12, "one-denominator", "OneDenominator", "分母は 1 つ", "One denominator"),
    _s(13, "never-zero", "NeverZero", "決してゼロにならない", "Never zero"),
    _s(14, "spread-sqrt-d", "SpreadSqrtD", "ばらつきは √d で増える", "Spread grows as √d"),
    _s(15, "saturation", "Saturation", "飽和", "Saturation"),
    _s(16, "the-divisor", "TheDivisor", "除数", "The divisor"),
    _s(17, "causal-mask", "CausalMask", "因果マスク", "The causal mask"),
    _s(18, "renormalise", "Renormalise", "再正規化", "Renormalise"),
    _s(19, "silent-bug", "SilentBug", "静かなバグ", "The silent bug"),
    _s(20, "mixing-chain", "MixingChain", "混合の鎖", "The mixing chain"),
    _s(21, "inside-the-hull", "InsideTheHull", "凸包の内側", "Inside the hull"),
    _s(22, "order-does-not-exist", "OrderDoesNotExist", "順序は存在しない", "Order does not exist"),
    _s(23, "the-bill", "TheBill", "請求書", "The bill"),
    _s(24, "four-lines", "FourLines", "4 行のコード", "Four lines"),
    _s(25, "attention-map", "AttentionMap", "注意マップ", "The attention map"),
)


#: The title cards around the stitched explainer: each a chapter and a clip of its own,
#: numbered outside the source's 1..25 (00 opens, 99 closes) so no section is renumbered.
#: A full run renders them; a ``--sections`` subset only when it names them (or ``cards``).
OPENING = Section(0, "opening", "scenes.cards", "OpeningCard", "はじめに", "Opening", card=True)
CLOSING = Section(99, "closing", "scenes.cards", "ClosingCard", "まとめ", "Recap", card=True)
CARDS: tuple[Section, ...] = (OPENING, CLOSING)


def by_number(number: int) -> Section:
    for s in SECTIONS + CARDS:
        if s.number == number:
            return s
    raise KeyError(f"no section number {number} (there are {len(SECTIONS)})")


def by_slug(slug: str) -> Section:
    for s in SECTIONS + CARDS:
        if s.slug == slug:
            return s
    raise KeyError(f"no section named {slug!r}")


def load_scene_class(section: Section):
    """Import the section's module and return its Scene class."""
    return getattr(importlib.import_module(section.module), section.scene)
