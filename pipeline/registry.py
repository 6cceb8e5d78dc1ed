"""The section registry a run renders, and ``--sections`` parsing."""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from words import config

from .options import BadInput

__all__ = ["ROOT", "Registry", "load_registry", "parse_sections", "scene_file"]

#: Where the project's code packages live: the checkout, or site-packages when installed.
ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Registry:
    sections: tuple  # tuple[scenes.registry.Section, ...]
    root: Path       # project root: where scenes/, attn_math/ (and a swapped registry's assets/) live
    module: str
    cards: tuple = ()  # title cards around the stitched video (scenes.registry.CARDS)

    @property
    def assets(self) -> Path:
        """Where this registry's captions and head are read from: the installed data package
        (:mod:`attn_explainer_assets`) for the project's own root, ``root/assets`` for a
        swapped-in registry that names its own ``ROOT``."""
        if self.root == ROOT.resolve():
            from attn_explainer_assets import assets_dir

            return assets_dir()
        return self.root / "assets"


def load_registry(name: str | None = None) -> Registry:
    """The section registry: module ``name``, else the one ``ATTN_REGISTRY`` names
    (:data:`words.config.REGISTRY`), else ``scenes.registry``.

    A swapped-in registry may define ``ROOT`` (a Path), the root its captions and head
    are read from; otherwise the root is this file's directory.
    """
    name = name or config.current().registry
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())
    try:
        mod = importlib.import_module(name)
        sections = tuple(mod.SECTIONS)
    except Exception as e:  # noqa: BLE001 - reported as bad input
        raise BadInput(f"cannot load the section registry {name!r}: {e}") from None
    root = Path(getattr(mod, "ROOT", ROOT)).resolve()
    return Registry(sections, root, name, tuple(getattr(mod, "CARDS", ())))


_RANGE = re.compile(r"^(\d+)\s*-\s*(\d+)$")


def parse_sections(spec: str | None, sections: Sequence, cards: Sequence = ()) -> list:
    """``"1-4,9,twenty-slug"`` -> the sections, in registry order, without duplicates.

    Items are numbers, ``a-b`` ranges of numbers, slugs, or ``all``; anything else is
    :class:`BadInput`. ``cards`` (the opening and closing title cards) come with ``all``
    (or no spec), and in a subset only when named: by slug, or all of them as ``cards``.
    """
    # Cards numbered before the first section open the video; the others close it.
    first = min((s.number for s in sections), default=0)
    full = ([c for c in cards if c.number < first] + list(sections)
            + [c for c in cards if c.number >= first])
    if spec is None or spec.strip().lower() == "all":
        return full
    card_slugs = {c.slug for c in cards}
    items = [i.strip() for i in spec.split(",")]
    named = {i for i in items if i in card_slugs} | (card_slugs if "cards" in items else set())
    rest = ",".join(i for i in items if i not in card_slugs and i != "cards")
    if named and not rest.strip():
        return [c for c in full if c.slug in named]
    chosen = _parse_numbers(spec if not named and "cards" not in items else rest, sections)
    return [s for s in full if s in chosen or s.slug in named]


def _parse_numbers(spec: str, sections: Sequence) -> list:
    by_num = {s.number: s for s in sections}
    by_slug = {s.slug: s for s in sections}
    lo, hi = min(by_num, default=0), max(by_num, default=0)
    chosen: set[int] = set()
    items = [i.strip() for i in spec.split(",")]
    if not any(items):
        raise BadInput(f"--sections {spec!r}: no sections given")
    for item in items:
        if not item:
            raise BadInput(f"--sections {spec!r}: empty item")
        if item in by_slug:
            chosen.add(by_slug[item].number)
            continue
        if item.isdigit():
            n = int(item)
            if n not in by_num:
                raise BadInput(f"--sections: unknown section {n} (sections are {lo}-{hi})")
            chosen.add(n)
            continue
        m = _RANGE.match(item)
        if m:
            a, b = int(m[1]), int(m[2])
            if a > b:
                raise BadInput(f"--sections: malformed range {item!r} (start after end)")
            for n in (a, b):
                if n not in by_num:
                    raise BadInput(f"--sections: unknown section {n} in {item!r} (sections are {lo}-{hi})")
            chosen.update(n for n in by_num if a <= n <= b)
            continue
        if re.fullmatch(r"[\w-]+", item) and not re.fullmatch(r"[\d\s-]+", item):
            raise BadInput(f"--sections: unknown section {item!r}")
        raise BadInput(f"--sections: malformed item {item!r} (use numbers, ranges like 1-4, or slugs)")
    return [s for s in sections if s.number in chosen]


def scene_file(section) -> Path | None:
    """The source file of a section's scene, or None if its module does not exist yet."""
    try:
        spec = importlib.util.find_spec(section.module)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not os.path.isfile(spec.origin):
        return None
    return Path(spec.origin).resolve()

