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


def count_words(n: int, lang: str) -> str:
    """``n`` as a title of ``lang`` writes a count of tokens.

    The words are the caption table's ``[counting]`` ("twelve"; "8 つ"); a number past
    the table takes the table's ``other`` pattern with ``n`` written by Babel (CLDR) for
    the language ("13"; "12 個").

    Parameters
    ----------
    n
        The count (a sentence has 2 to 12 tokens).
    lang
        A caption language, ``"ja"`` or ``"en"``.

    Returns
    -------
    str
        The count as it reads inside a title's ``{count}``.
    """
    from babel.numbers import format_decimal

    from words.captions import table

    words = table(lang)["counting"]
    return words.get(str(n)) or words["other"].format(n=format_decimal(n, locale=lang))


def _title(lang: str, number: int, suffix: str = "") -> str:
    """A section's title from the caption table of ``lang`` (``[titles]``: every word on
    screen lives in the caption tables)."""
    from words.captions import table

    return table(lang)["titles"].get(f"s{number:02d}{suffix}", "")


def _s(number: int, slug: str, scene: str) -> Section:
    module = f"scenes.s{number:02d}_{slug.replace('-', '_')}"
    return Section(number, slug, module, scene, _title("ja", number), _title("en", number),
                   _title("ja", number, "_n"), _title("en", number, "_n"))


SECTIONS: tuple[Section, ...] = (
    _s(1, "three-projections", "ThreeProjections"),
    _s(2, "move-the-input", "MoveTheInput"),
    _s(3, "which-key", "WhichKey"),
    _s(4, "two-maps", "TwoMaps"),
    _s(5, "dot-product-shadow", "DotProductShadow"),
    _s(6, "one-query-six-numbers", "OneQuerySixNumbers"),
    _s(7, "long-key-trap", "LongKeyTrap"),
    _s(8, "the-square", "TheSquare"),
    _s(9, "reading-rows", "ReadingRows"),
    _s(10, "fold-diagonal", "FoldDiagonal"),
    _s(11, "softmax-staircase", "SoftmaxStaircase"),
    _s(12, "one-denominator", "OneDenominator"),
    _s(13, "never-zero", "NeverZero"),
    _s(14, "spread-sqrt-d", "SpreadSqrtD"),
    _s(15, "saturation", "Saturation"),
    _s(16, "the-divisor", "TheDivisor"),
    _s(17, "causal-mask", "CausalMask"),
    _s(18, "renormalise", "Renormalise"),
    _s(19, "silent-bug", "SilentBug"),
    _s(20, "mixing-chain", "MixingChain"),
    _s(21, "inside-the-hull", "InsideTheHull"),
    _s(22, "order-does-not-exist", "OrderDoesNotExist"),
    _s(23, "the-bill", "TheBill"),
    _s(24, "four-lines", "FourLines"),
    _s(25, "attention-map", "AttentionMap"),
)


#: The title cards around the stitched explainer: each a chapter and a clip of its own,
#: numbered outside the source's 1..25 (00 opens, 99 closes) so no section is renumbered.
#: A full run renders them; a ``--sections`` subset only when it names them (or ``cards``).
OPENING = Section(0, "opening", "scenes.cards", "OpeningCard", _title("ja", 0), _title("en", 0), card=True)
CLOSING = Section(99, "closing", "scenes.cards", "ClosingCard", _title("ja", 99), _title("en", 99), card=True)
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
