"""The randomised sweep: random sentences through the claim checks and the layout probe.

    PYTHONPATH=. .venv/bin/python bench/sweep.py claims --sentences 1000
    PYTHONPATH=. nice .venv/bin/python bench/sweep.py layout --sentences 30 --jobs 2

Sentences come from :func:`tests.support.random_sentences.seeded_for_claims` (``claims``: the
layout's sentences and the small and degenerate cases: two tokens, a word twice, a Japanese
repeated particle, adjective and verb winners, the followed token first) and
:func:`~tests.support.random_sentences.seeded` (``layout``), seed ``--seed`` .. ``--seed + N - 1``,
the same on every machine. ``claims`` plans every section's beats for each sentence and
checks every chosen caption variant against the figures, in both languages
(:mod:`tests.support.claim_sweep`: no rendering, about 0.1 s a sentence). ``layout`` renders every
section and card (``--sections``, 0 and 99 the cards) with its animations skipped and runs the
layout probe at every beat's end (:mod:`tests.support.layout_probe`: safe area, overlaps, text size, texts on arrows, token names),
each seed in the caption language and theme it picks (``ja``/``en`` alternate, then
``dark``/``light``).

The report gives the sentences tried, the beats checked, the problems by section, and the
failing seeds as Python literals to paste into a regression test
(``tests/module/attn_math/test_claims.py`` ``REGRESSIONS``,
``tests/module/scenes/test_layout_sweep.py`` ``FOUND``).
Exit status 1 when anything failed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

def parse_sections(spec: str) -> list[int]:
    out: list[int] = []
    for part in spec.split(","):
        a, _, b = part.partition("-")
        out += list(range(int(a), int(b or a) + 1))
    return out


# ---------------------------------------------------------------- claims


def sweep_claims(seeds: range) -> int:
    from scenes.registry import by_number, story_of
    from tests.support.claim_sweep import SECTIONS, check_story
    from tests.support.random_sentences import seeded_for_claims

    t0 = time.perf_counter()
    beats_checked, by_section, failing = 0, Counter(), {}
    used: Counter = Counter()
    for seed in seeds:
        sentence = seeded_for_claims(seed)
        story = story_of(sentence.head())
        checked, problems = check_story(story)
        beats_checked += checked
        for sec in SECTIONS:
            try:
                used.update((sec, b.key) for b in by_number(sec).plan(story) if b.key != b.slot)
            except Exception:  # reported by check_story
                pass
        for p in problems:
            by_section[p[:3]] += 1
        if problems:
            failing[seed] = (sentence, problems)
    dt = time.perf_counter() - t0
    print(f"claims: {len(seeds)} sentences (seeds {seeds.start}..{seeds.stop - 1}), "
          f"{beats_checked} beats checked in 2 languages, {sum(by_section.values())} problems, "
          f"{dt:.0f} s")
    for sec, k in sorted(by_section.items()):
        print(f"  {sec}: {k} problems")
    print("variants other than the slot's own, times chosen:")
    for (sec, key), k in sorted(used.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
        print(f"  s{sec:02d} {key}: {k}")
    for seed, (sentence, problems) in failing.items():
        print(f"seed {seed}: {sentence}")
        for p in problems:
            print(f"    {p}")
    if failing:
        print("paste into tests/module/attn_math/test_claims.py REGRESSIONS:")
        for sentence, _ in failing.values():
            print(f"    Sentence({sentence.tokens!r}, {sentence.follow!r}),")
    return 1 if failing else 0


# ---------------------------------------------------------------- layout


def _probe(seed: int, number: int) -> tuple[int, int, int, list[str], str]:
    """Probe section ``number`` for seed ``seed``: (seed, section, beats, problems, error)."""
    from scenes.registry import by_number
    from tests.support.layout_probe import probe_section
    from tests.support.random_sentences import look_of, seeded

    lang, theme = look_of(seed)
    with tempfile.TemporaryDirectory() as tmp:
        spec = Path(tmp) / "spec.toml"
        spec.write_text(seeded(seed).spec_toml(), encoding="utf-8")
        try:
            probe = probe_section(by_number(number), lang, theme, str(spec))
        except Exception as e:      # a crash is a problem of the sweep's report, not its end
            return seed, number, 0, [], f"{type(e).__name__}: {e}"
    return seed, number, probe.moments, list(probe.problems), ""


def sweep_layout(seeds: range, sections: list[int], jobs: int) -> int:
    from tests.support.random_sentences import look_of, seeded

    t0 = time.perf_counter()
    work = [(seed, n) for seed in seeds for n in sections]
    moments, by_section, failing = 0, Counter(), defaultdict(list)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for seed, n, k, problems, error in pool.map(_probe, *zip(*work)):
            moments += k
            if error:
                problems = problems + [f"s{n:02d}: crashed: {error}"]
            by_section[n] += len(problems)
            if problems:
                failing[seed].extend(problems)
                print(f"seed {seed} s{n:02d}: {len(problems)} problems", flush=True)
    dt = time.perf_counter() - t0
    print(f"layout: {len(seeds)} sentences (seeds {seeds.start}..{seeds.stop - 1}), "
          f"{len(sections)} sections, {moments} beats checked, "
          f"{sum(by_section.values())} problems, {dt:.0f} s")
    for n in sections:
        if by_section[n]:
            print(f"  s{n:02d}: {by_section[n]} problems")
    for seed, problems in sorted(failing.items()):
        lang, theme = look_of(seed)
        print(f"seed {seed} ({lang}, {theme}): {seeded(seed)}")
        for p in problems:
            print(f"    {p}")
    if failing:
        print("paste into tests/module/scenes/test_layout_sweep.py FOUND:")
        print("    " + ", ".join(str(s) for s in sorted(failing)))
    return 1 if failing else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("claims", "layout"))
    ap.add_argument("--sentences", type=int, default=None,
                    help="how many seeds (claims: 1000, layout: 30)")
    ap.add_argument("--seed", type=int, default=0, help="the first seed")
    ap.add_argument("--sections", default="0-25,99",
                    help="layout: the sections probed (0 and 99: the opening and closing cards)")
    ap.add_argument("--jobs", type=int, default=1, help="layout: probes in parallel")
    a = ap.parse_args(argv)
    n = a.sentences or (1000 if a.what == "claims" else 30)
    seeds = range(a.seed, a.seed + n)
    if a.what == "claims":
        return sweep_claims(seeds)
    return sweep_layout(seeds, parse_sections(a.sections), a.jobs)


if __name__ == "__main__":
    raise SystemExit(main())
