"""The sections and title cards, read from their folders: which scene plays when.

Each unit is a folder ``scenes/sections/sNN_slug/`` (or one in a folder of outside
sections, :mod:`scenes.sections`); its number ``NN`` orders it, and nothing here lists or
counts them by hand. The registry gives each unit's scene, figures and beat plan to
whoever asks: the story (:func:`story_of`), the scene (:func:`of_scene`), the pipeline.

Importing this module does not import manim, so listing sections is instant;
:func:`load_scene_class` imports a scene's module only when it is rendered.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from attn_math import Story
from attn_math.beats import Beat
from attn_math.head import Head, default_head
from attn_math.story import SectionFigures, SectionSums
from words import config

from . import folders

__all__ = [
    "DEFAULT_TOKENS", "Section", "available", "by_number", "by_slug", "count_words",
    "load_scene_class", "load_story", "caption_context_names", "of_scene", "story_of", "story_sections",
]


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
    def words_of(self) -> tuple[int, ...] | None:
        """The numbers of the other sections whose caption words this unit shows (its
        package's ``WORDS_OF``, slugs); None when it does not say (a card may then show any)."""
        if self.folder is None:
            return None
        slugs = getattr(importlib.import_module(self.package), "WORDS_OF", None)
        return None if slugs is None else tuple(by_slug(slug).number for slug in slugs)

    def missing(self) -> str | None:
        """None when the unit can render here, else one line saying what it needs: the first
        complaint of its package's ``REQUIRES`` (callables returning None when what they check
        is installed, else one line saying what to install)."""
        if self.folder is None:
            return None
        for need in getattr(importlib.import_module(self.package), "REQUIRES", ()):
            why = need()
            if why:
                return f"section {self.number} ({self.slug}): {why}"
        return None

    @property
    def package(self) -> str:
        """The unit's package (its folder): ``scenes.sections.sNN_slug``."""
        return self.module.rpartition(".")[0]

    @property
    def folder(self) -> Path | None:
        """The unit's folder; None for a section whose scene is not a unit folder's
        ``scene.py`` (a registry swapped in with ``ATTN_REGISTRY``, as the tests' fixtures)."""
        if not self.module.endswith(".scene"):
            return None
        spec = importlib.util.find_spec(self.package)
        if spec is None or spec.origin is None:
            return None
        return Path(spec.origin).resolve().parent

    @property
    def scene_file(self) -> Path | None:
        """The scene's source file (None as for :attr:`folder`)."""
        folder = self.folder
        return folder / "scene.py" if folder is not None else None

    @property
    def file(self) -> str:
        """Path of the scene's source file, relative to the project root (absolute for a
        section from outside the repository)."""
        path = self.scene_file
        if path is None:
            return self.module.replace(".", "/") + ".py"
        return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)

    def part(self, name: str):
        """The unit's manim-free module ``name`` (``figures``, ``beats``), or None if it has
        none."""
        module = f"{self.package}.{name}"
        if self.folder is None or importlib.util.find_spec(module) is None:
            return None
        return importlib.import_module(module)

    def plan(self, story: Story) -> list[Beat]:
        """The beats this unit says for ``story``, in order (its ``beats.plan``, given the
        figures the unit shows or quotes)."""
        return self.part("beats").plan(story, story.shown_figures(self.number))

    def story_figures(self) -> SectionFigures | None:
        """What the story computes for this unit, or None: its ``figures.py``'s ``figures``,
        the figures its captions borrow (``BORROWS``: slug -> names), a total shown beside
        its parts (``SUM_PLACES`` and ``summed_rows``), its own caption placeholders
        (``caption_context``) and its own roles (``roles``)."""
        module = self.part("figures")
        if module is None:
            return None
        borrows = {by_slug(slug).number: tuple(names)
                   for slug, names in getattr(module, "BORROWS", {}).items()}
        sums = None
        if hasattr(module, "SUM_PLACES"):
            sums = SectionSums(module.SUM_PLACES, module.summed_rows)
        return SectionFigures(self.number, module.figures, borrows, sums,
                              getattr(module, "caption_context", None), getattr(module, "roles", None))

    @property
    def stem(self) -> str:
        """``NN-slug``, the name of this section's clip and still."""
        return f"{self.number:02d}-{self.slug}"

    def title(self, lang: str, n_tokens: int | None = None) -> str:
        """The title in ``lang``; for a sentence of ``n_tokens`` if the title counts them.
        A title the render's captions file replaces wins (:mod:`words.captions_file`)."""
        from words.captions_file import overrides

        own = overrides(lang).get("titles", {})
        key = f"s{self.number:02d}"
        template = own.get(f"{key}_n") or (self.title_ja_n if lang == "ja" else self.title_en_n)
        if template and n_tokens is not None and n_tokens != DEFAULT_TOKENS:
            return template.format(count=count_words(n_tokens, lang))
        return own.get(key) or (self.title_ja if lang == "ja" else self.title_en)


#: The project root (assets/, scenes/, attn_math/).
ROOT = Path(__file__).resolve().parent.parent

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


def _unit(number: int, folder: Path) -> Section:
    """The section (or card) in unit folder ``folder``: its slug from the folder's name, its
    scene class from the package (``SCENE``), its titles from the caption tables."""
    package = f"{folders.PACKAGE}.{folder.name}"
    unit = importlib.import_module(package)
    slug = folder.name.split("_", 1)[1].replace("_", "-")
    return Section(number, slug, f"{package}.scene", unit.SCENE, _title("ja", number), _title("en", number),
                   _title("ja", number, "_n"), _title("en", number, "_n"),
                   card=bool(getattr(unit, "CARD", False)))


_LOADED: dict[tuple[str, ...], tuple[tuple[Section, ...], tuple[Section, ...]]] = {}


def _load() -> tuple[tuple[Section, ...], tuple[Section, ...]]:
    """(sections, cards) from the unit folders, once per set of outside folders."""
    key = tuple(str(d) for d in folders.extra_dirs())
    if key not in _LOADED:
        units = [_unit(number, folder) for number, folder in folders.unit_folders()]
        _LOADED[key] = (tuple(u for u in units if not u.card), tuple(u for u in units if u.card))
    return _LOADED[key]


def __getattr__(name: str):
    # SECTIONS (the sections, in order) and CARDS (the title cards) are read from the folders
    # when asked for, so a folder of outside sections named after this module was first
    # imported (render.py --section-dir) counts.
    if name == "SECTIONS":
        return _load()[0]
    if name == "CARDS":
        return _load()[1]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _all() -> tuple[Section, ...]:
    found, cards = _load()
    return found + cards


def available() -> tuple[Section, ...]:
    """The sections that can render here (every one whose needs are installed)."""
    return tuple(s for s in _load()[0] if s.missing() is None)


def by_number(number: int) -> Section:
    for s in _all():
        if s.number == number:
            return s
    raise KeyError(f"no section number {number} (there are {len(_load()[0])})")


def by_slug(slug: str) -> Section:
    for s in _all():
        if s.slug == slug:
            return s
    raise KeyError(f"no section named {slug!r}")


def load_scene_class(section: Section):
    """Import the section's module and return its Scene class."""
    return getattr(importlib.import_module(section.module), section.scene)


def of_scene(cls: type) -> Section:
    """The section (or card) whose scene is class ``cls``: the unit whose ``SCENE`` names it
    and whose ``scene.py`` defines it (however the file was imported: by the pipeline as
    ``scenes.sections.sNN_slug.scene``, by the manim CLI from its path)."""
    path = Path(inspect.getfile(cls)).resolve()
    for s in _all():
        if s.scene == cls.__name__ and s.scene_file == path:
            return s
    raise KeyError(f"no section's scene is {cls.__name__} in {path}")


def story_sections() -> list[SectionFigures]:
    """The figures of every section and card that has them, for :class:`attn_math.Story`."""
    return [f for f in (s.story_figures() for s in _all()) if f is not None]


def story_of(head: Head) -> Story:
    """The story of ``head`` with every section's figures."""
    return Story(head, story_sections())


def load_story(path: str | Path | None = None) -> Story:
    """The story of the head at ``path``, else the settings' head, else the default head, with
    every section's figures (:func:`attn_math.load_story` with :func:`story_sections`)."""
    from attn_math import load_story as load

    return load(path or config.current().head, story_sections())


def caption_context_names() -> dict[int, frozenset[str]]:
    """Per section number, the placeholder names the story fills for its captions (the
    default head's story: the names are the same for every sentence); what a captions file's
    entries may use besides their packaged text's (:func:`words.captions_file.check`)."""
    return _context_names(config.current().section_dirs)


@lru_cache(maxsize=4)
def _context_names(section_dirs: tuple[Path, ...]) -> dict[int, frozenset[str]]:  # noqa: ARG001 - the key
    story = Story(default_head(), story_sections())
    names = {}
    for number in range(0, 100):
        try:
            names[number] = frozenset(story.caption_context(number))
        except Exception:  # noqa: BLE001 - a section the story has no figures for
            names[number] = frozenset(story.caption_context(1))
    return names
