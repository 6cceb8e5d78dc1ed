"""The run's spoken lines, known before any scene renders and synthesised up front.

A narrated section speaks one line per caption cue (:class:`narration.Narrator`, from
``SectionScene.say``). Which cues a section shows follows from its beat plan and the
caption tables, not from the scene's drawing (:mod:`attn_math.beats`), so the run can list
every line it will speak before rendering, with the words a scene gives the voice:

- a beat's text is its caption filled from the story (``captions.render``), shown as one
  or two cues (``cues.cues_of``);
- a beat shown as one cue speaks its spoken variant if it has one, a beat split in two
  speaks each cue's text (``Narrator.speak(..., use_variant=...)``);
- both go through the spoken-form rules (:func:`narration.pacing.spoken_line`);
- a cue with a recording (``--recordings``) speaks the recording, so it is not
  synthesised; without one it is spoken only when a voice was named.

:func:`synthesise_up_front` then synthesises the lines that are not yet in the voice cache
over a pool of ``jobs`` worker processes, longest first, into the cache the scenes read:
when the sections render, every line is a cache hit, and the render's workers draw instead
of waiting for the voice one section at a time.
"""

from __future__ import annotations

import multiprocessing
import time
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from words import config

__all__ = ["SpokenLine", "section_lines", "run_lines", "VoicePass", "synthesise_up_front"]


@dataclass(frozen=True)
class SpokenLine:
    """One line the voice says: the cue it belongs to (``id``, as
    :func:`narration.recordings.cue_id` names it) and the text the voice is given."""

    section: int
    id: str
    spoken: str


def section_lines(section, story, lang: str) -> list[SpokenLine]:
    """Every line ``section`` (a registry entry with a beat plan) speaks in ``lang``, in
    order, recorded or not: the lines its scene gives :class:`narration.Narrator`."""
    from narration.pacing import spoken_line
    from narration.recordings import cue_id
    from words import captions, cues

    number = section.number
    context = _caption_context(story, number, lang)
    counts: Counter[str] = Counter()
    out = []
    for beat in section.plan(story):
        if beat.key is None:       # the slot shows nothing for this story
            continue
        shown = cues.cues_of(captions.render(lang, number, beat.key, context), lang)
        whole_beat = len(shown) == 1   # only a beat said as one cue speaks its variant
        for cue in shown:
            counts[beat.key] += 1
            spoken = spoken_line(lang, number, beat.key if whole_beat else "", cue.replace("\n", " "), context)
            out.append(SpokenLine(number, cue_id(number, beat.key, counts[beat.key]), spoken))
    return out


def _caption_context(story, number: int, lang: str) -> dict:
    """The placeholders a scene fills its captions from (``SectionScene.caption_text``)."""
    try:
        return story.caption_context(number, lang)
    except TypeError:   # a story whose captions do not depend on the language
        return story.caption_context(number)


def run_lines(sections: Iterable, env: dict[str, str]) -> list[SpokenLine]:
    """The lines a narrated run of ``sections`` synthesises, with the scenes' environment
    ``env`` (:func:`pipeline.cache.section_env`): every cue's line, less those a recording
    speaks (or, with recordings and no voice named, that nobody may speak). A section
    without a beat plan (a swapped-in registry's) is left to its scene."""
    from narration import recordings
    from scenes.registry import load_story

    settings = config.current().with_scene(env)
    with config.using(settings):
        lang = settings.lang
        folder = recordings.recordings_dir()
        voice_named = bool(settings.voice)
        story = load_story()
        out = []
        for section in sections:
            if not hasattr(section, "plan"):
                continue
            try:
                lines = section_lines(section, story, lang)
            except Exception:  # noqa: BLE001 - the scene meets the same error and reports it
                continue
            for line in lines:
                if folder is not None and (recordings.find(folder, line.id) is not None or not voice_named):
                    continue
                out.append(line)
    return out


@dataclass
class VoicePass:
    """What the up-front pass did: lines of the run, lines already cached, lines
    synthesised, lines that failed (their scenes report why), and its wall seconds."""

    lines: int = 0
    cached: int = 0
    synthesised: int = 0
    failed: int = 0
    seconds: float = 0.0


def synthesise_up_front(lines: list[SpokenLine], env: dict[str, str], jobs: int,
                        on_start: Callable[[VoicePass], None] | None = None,
                        on_line: Callable[[], None] | None = None) -> VoicePass:
    """Synthesise the ``lines`` not yet in the voice cache, over at most ``jobs`` worker
    processes, into the cache the scenes of ``env`` read.

    ``on_start(plan)`` is called once the cache has been looked up (``plan.lines`` distinct
    lines, ``plan.cached`` of them cached), ``on_line()`` after each line synthesised. The
    longest lines go first, so the workers finish together. A line that fails is counted and
    left: its scene synthesises it again and fails with the engine's message. In a daemon
    process (which may not start processes) the lines are spoken one by one in it.
    """
    from narration.synth import Synthesizer

    t0 = time.perf_counter()
    settings = config.current().with_scene(env)
    with config.using(settings):
        lang = settings.lang
        synth = Synthesizer()
        unique = list(dict.fromkeys(line.spoken for line in lines))
        todo = [text for text in unique if not synth.has(text, lang)]
    done = VoicePass(lines=len(unique), cached=len(unique) - len(todo))
    if on_start is not None:
        on_start(done)
    todo.sort(key=len, reverse=True)
    if todo and multiprocessing.current_process().daemon:
        # a daemon process (a batch's Dask worker) may not start processes: speak here
        with config.using(settings):
            for text in todo:
                try:
                    _synthesise(text, lang)
                    done.synthesised += 1
                except Exception:  # noqa: BLE001 - its scene meets the same error and reports it
                    done.failed += 1
                if on_line is not None:
                    on_line()
    elif todo:
        from .scheduler import worker_context

        with ProcessPoolExecutor(max_workers=max(1, min(jobs, len(todo))), mp_context=worker_context(),
                                 initializer=config.use, initargs=(settings,)) as pool:
            running = {pool.submit(_synthesise, text, lang) for text in todo}
            try:
                while running:
                    finished, running = wait(running, return_when=FIRST_COMPLETED)
                    for f in finished:
                        if f.exception() is None:
                            done.synthesised += 1
                        else:
                            done.failed += 1
                        if on_line is not None:
                            on_line()
            except BaseException:
                for f in running:
                    f.cancel()
                raise
    done.seconds = time.perf_counter() - t0
    return done


def _synthesise(spoken: str, lang: str) -> Path:
    """One line into the voice cache (in a worker of the pool)."""
    from narration.synth import Synthesizer

    return Synthesizer().line(spoken, lang).path
