"""What the studio's page asks for: a sentence, the token to follow, language, theme, voice.

A :class:`Choice` is read from the page's JSON and checked by the same steps as the command
line (:class:`pipeline.run_setup.Example`, :mod:`attn_math.head`), so a bad sentence gets the
same one-line message ``render.py`` prints.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from pipeline.options import BadInput
from pipeline.run_setup import Example
from words import config

if TYPE_CHECKING:
    from attn_math.head import Head

__all__ = ["Choice", "THEMES"]

#: The themes the page offers (``--theme``).
THEMES = ("dark", "light")


@dataclass(frozen=True)
class Choice:
    """The page's settings.

    Attributes
    ----------
    sentence
        The sentence as typed ("" or None: the default head's).
    follow
        The token to follow ("" or None: the story's choice).
    lang, theme
        The captions' language and the theme (``--lang``, ``--theme``).
    voice
        A narration voice's name, or None for the language's default.
    both
        Whether the script is wanted in both languages side by side.
    """

    sentence: str | None = None
    follow: str | None = None
    lang: str = "ja"
    theme: str = "dark"
    voice: str | None = None
    both: bool = False

    @classmethod
    def from_json(cls, data: dict) -> Choice:
        """A choice from the page's JSON object (unknown fields ignored); :class:`BadInput`
        for a language or theme outside the command line's choices."""
        def text(name: str) -> str | None:
            value = data.get(name)
            if value is None:
                return None
            value = " ".join(str(value).split())
            return value or None

        lang = str(data.get("lang") or "ja")
        theme = str(data.get("theme") or "dark")
        if lang not in config.LANGS:
            raise BadInput(f"--lang: {lang!r} is not one of {', '.join(config.LANGS)}")
        if theme not in THEMES:
            raise BadInput(f"--theme: {theme!r} is not one of {', '.join(THEMES)}")
        return cls(sentence=text("sentence"), follow=text("follow"), lang=lang, theme=theme,
                   voice=text("voice"), both=bool(data.get("both")))

    def example(self) -> Example:
        """The command line's example for these settings (``--sentence``/``--follow``)."""
        return Example(sentence=self.sentence, follow=self.follow)

    def head(self) -> Head | None:
        """The head the sentence describes (None: the default head); :class:`BadInput`
        with the command line's message for a bad sentence."""
        return self.example().resolve()

    def langs(self) -> tuple[str, ...]:
        """The script's languages: the chosen one first, the other too when ``both``."""
        return (self.lang, *(lang for lang in config.LANGS if lang != self.lang)) if self.both else (self.lang,)

    def key(self) -> str:
        """A short name for these settings (the page matches answers to requests by it)."""
        return hashlib.sha256(json.dumps(asdict(self), sort_keys=True).encode()).hexdigest()[:12]
