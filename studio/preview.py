"""The figures table and the whole script for a choice, from the story and the beat plan.

Nothing is rendered and no scene runs: each section's plan (:meth:`Section.plan`) names the
caption of every beat, the caption tables fill it from the story, and :mod:`words.cues`
breaks it into the cues a render shows; their ids are the recorder's
(:func:`narration.recordings.cue_ids`). A value a scene passes its caption itself (the opening card's
count of sections) comes from :data:`SCENE_VALUES`; a beat that needs any other is taken from
that section's timed script (:func:`pipeline.script.build_script`, frames skipped, seconds),
so every cue is the one ``render.py script`` prints. Times are left to the timed script: the preview gives each cue its reading
time.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.run_setup import choose_sections, run_options
from words import captions, cues

from .choice import Choice

if TYPE_CHECKING:
    from attn_math.story import Story
    from pipeline.registry import Registry

__all__ = ["PreviewCue", "SCENE_VALUES", "figures_table", "script", "preview"]

#: Placeholders a scene fills itself rather than from the story, by name: how the preview
#: gets the same value from the registry (the opening card says how many sections follow).
SCENE_VALUES: dict[str, Callable[[Registry], object]] = {
    "sections": lambda registry: len(registry.sections),
}


@dataclass(frozen=True)
class PreviewCue:
    """One cue of the script: its ``id`` (``NN-beat-k``), ``section``, ``beat``, ``key``
    (the caption entry in ``[sNN]``), ``texts`` (language -> the cue's text, lines split by
    ``\\n``) and ``seconds`` (its reading time in the choice's language)."""

    id: str
    section: int
    beat: str
    texts: dict
    seconds: float

    def to_json(self) -> dict:
        return {"id": self.id, "section": self.section, "beat": self.beat, "texts": self.texts,
                "seconds": round(self.seconds, 2)}


def figures_table(story: Story, sections: list, lang: str) -> list[dict]:
    """Per section: its number, title and figures (name and display text), in order."""
    rows = []
    for s in sections:
        figs = story.figures.get(s.number, {})
        rows.append({"section": s.number, "title": s.title(lang, story.n),
                     "figures": [{"name": k, "text": f.text} for k, f in figs.items()]})
    return rows


def _timed_section(section, choice: Choice, lang: str, head) -> list[tuple[str, str]]:
    """``(beat, text)`` of each cue of ``section`` from its timed script (the scene runs
    with frames skipped)."""
    from pipeline.script import build_script

    with tempfile.TemporaryDirectory(prefix="attn-studio-head-") as tmp:
        opts = run_options(head, Path(tmp), lang=lang, theme=choice.theme, quality="preview")
        timed, _ = build_script([section], opts)
    return [(c.beat, c.text) for c in timed]


def _section_cues(section, story: Story, choice: Choice, lang: str, head,
                  values: dict) -> list[tuple[str, str]]:
    """``(beat, text)`` of each cue of ``section`` in ``lang`` (``values``: the
    :data:`SCENE_VALUES`)."""
    out = []
    context = story.caption_context(section.number, lang)
    for beat in section.plan(story):
        if beat.key is None:
            continue
        try:
            text = captions.render(lang, section.number, beat.key, context, **values)
        except KeyError:  # a value only the scene passes: ask the scene
            return _timed_section(section, choice, lang, head)
        out += [(beat.key, cue) for cue in cues.cues_of(text, lang)]
    return out


def script(story: Story, registry: Registry, sections: list, choice: Choice, head) -> list[PreviewCue]:
    """Every cue of ``sections`` in the choice's language (and the other one beside it when
    ``choice.both``: a beat split differently in two languages pairs its cues in order)."""
    from narration.recordings import cue_ids

    out: list[PreviewCue] = []
    values = {name: value(registry) for name, value in SCENE_VALUES.items()}
    for s in sections:
        by_lang = {lang: _section_cues(s, story, choice, lang, head, values) for lang in choice.langs()}
        main = by_lang[choice.lang]
        for k, (cue, (beat, text)) in enumerate(zip(cue_ids(s.number, [b for b, _ in main]), main)):
            texts = {choice.lang: text}
            for lang, other in by_lang.items():
                if lang != choice.lang:
                    same = [t for b, t in other if b == beat]
                    nth = sum(1 for b, _ in main[:k] if b == beat)
                    texts[lang] = same[nth] if nth < len(same) else ""
            out.append(PreviewCue(cue, s.number, beat, texts,
                                  cues.reading_time(text.replace("\n", " "), choice.lang)))
    return out


def preview(choice: Choice) -> dict:
    """The page's answer to a choice: the sentence as tokens, the figures table and the
    script (:class:`pipeline.options.BadInput` for a bad sentence, with the CLI's words)."""
    from attn_math import default_head
    from scenes.registry import story_of

    head = choice.head()
    registry, sections = choose_sections(None)
    story = story_of(head or default_head())
    return {"key": choice.key(), "tokens": list(story.labels), "follow": story.follow,
            "sentence": " ".join(story.tokens),
            "sections": [{"number": s.number, "stem": s.stem, "title": s.title(choice.lang, story.n),
                          "card": s.number in (0, 99)} for s in sections],
            "figures": figures_table(story, [s for s in sections if s.number in story.figures], choice.lang),
            "script": [c.to_json() for c in script(story, registry, sections, choice, head)]}
