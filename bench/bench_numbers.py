"""Benchmark: LiveNumber against DecimalNumber(mob_class=Text), per update and in a scene.

Run with the project's interpreter::

    .venv/bin/python bench/bench_numbers.py [--updates 500] [--seconds 3] [--repeats 3]

Measures in one run:

(a) time per ``set_value`` of a LiveNumber and of ``DecimalNumber(mob_class=Text)`` (each call
    shows a different string, as in an animation; median over ``--updates`` calls);
(b) wall time of rendering a small scene at 480p15 (``-ql``; frames are rendered but not
    encoded) in which six trackers move for ``--seconds``, with six numbers that are
    - ``static``: LiveNumbers with no updater (manim draws them once into the static background),
    - ``live``: LiveNumbers following the trackers,
    - ``decimal``: DecimalNumber(mob_class=Text) following the trackers.

Targets: (a) LiveNumber >= 5x faster per update; (b) live within 2x of static.
Speed is measured here and never asserted in tests (the machine is shared and noisy).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from manim import (  # noqa: E402
    RIGHT,
    DecimalNumber,
    Scene,
    Text,
    ValueTracker,
    VGroup,
    linear,
    tempconfig,
)

from scenes.widgets.live_number import DEFAULT_FONT, LiveNumber, get_glyph_set  # noqa: E402

FONT_SIZE = 36


def time_updates(make, values) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds per set_value call, one pair per value."""
    mob = make()
    for v in values[:20]:  # warm-up: caches, first-use costs
        mob.set_value(v)
    wall, cpu = [], []
    for v in values:
        c0, t0 = time.thread_time(), time.perf_counter()
        mob.set_value(v)
        wall.append(time.perf_counter() - t0)
        cpu.append(time.thread_time() - c0)
    return wall, cpu


def make_scene(kind: str, seconds: float):
    """A scene with six labelled numbers; six trackers move for ``seconds``."""

    class SixNumbers(Scene):
        def construct(self):
            trackers = [ValueTracker(0.0) for _ in range(6)]
            rows = []
            for i in range(len(trackers)):
                label = Text(f"w{i + 1} =", font=DEFAULT_FONT, font_size=FONT_SIZE)
                # Laid out with the widest value shown, so digits never run into the label.
                if kind == "decimal":
                    num = DecimalNumber(-8888.88, num_decimal_places=2, mob_class=Text,
                                        font_size=FONT_SIZE)
                else:
                    num = LiveNumber(-8888.88, decimals=2, font_size=FONT_SIZE, thousands=True)
                rows.append(VGroup(label, num).arrange(RIGHT))
            grid = VGroup(*rows).arrange_in_grid(rows=3, cols=2, buff=(1.0, 0.6))
            for row, t in zip(grid, trackers, strict=True):
                num = row[1]
                num.set_value(0.0)
                if kind == "decimal":
                    num.add_updater(lambda m, t=t: m.set_value(t.get_value()))
                elif kind == "live":
                    num.follow(t)
            # Labels first, numbers after: manim redraws every frame the mobjects from the first
            # one with an updater onwards, so this measures the numbers, not the labels.
            self.add(*(row[0] for row in grid), *(row[1] for row in grid), *trackers)
            targets = [-1234.5, 0.125, 98.76, -0.004, 5555.55, 3.14159]
            self.play(*(t.animate.set_value(v) for t, v in zip(trackers, targets, strict=True)),
                      run_time=seconds, rate_func=linear)
            self.final_text = [getattr(row[1], "text", None) for row in grid]

    return SixNumbers


def time_scene(kind: str, seconds: float, media_dir: str) -> tuple[float, float, int]:
    """Wall and CPU seconds to render the scene, and the number of frames rendered."""
    with tempconfig({
        "quality": "low_quality",  # 854x480, 15 fps: what `manim -ql` renders
        "write_to_movie": False,  # frames are drawn, not encoded: measure drawing only
        "disable_caching": True,
        "media_dir": media_dir,
        "verbosity": "ERROR",
        "progress_bar": "none",
    }):
        from manim import config

        scene = make_scene(kind, seconds)()
        c0, t0 = time.process_time(), time.perf_counter()
        scene.render()
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        frames = round(seconds * config.frame_rate)
    return wall, cpu, frames


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    t0 = time.perf_counter()
    get_glyph_set()  # the once-per-process cost, outside every timing below
    build = time.perf_counter() - t0

    rng = np.random.default_rng(1)
    values = list(rng.uniform(-2000, 2000, args.updates))

    def make_live():
        return LiveNumber(0.0, decimals=2, font_size=FONT_SIZE)

    def make_decimal():
        return DecimalNumber(0.0, num_decimal_places=2, mob_class=Text, font_size=FONT_SIZE)

    upd = {
        "LiveNumber": time_updates(make_live, values),
        "LiveNumber, unchanged string": time_updates(make_live, [1.0] * args.updates),
        "DecimalNumber(mob_class=Text)": time_updates(make_decimal, values),
    }
    med = {k: (statistics.median(w), statistics.median(c)) for k, (w, c) in upd.items()}

    print(f"glyph cache build (first LiveNumber of the process): {build * 1e3:.0f} ms")
    print("wall = elapsed time, cpu = this process's CPU time (steadier on a busy machine)")
    print()
    print(f"(a) time per set_value, median of {args.updates} calls (each a new string)")
    print(f"    {'widget':<32}{'wall':>11}{'cpu':>11}{'wall p90':>11}")
    for name, (w, _) in upd.items():
        print(f"    {name:<32}{med[name][0] * 1e6:>8.1f} us{med[name][1] * 1e6:>8.1f} us"
              f"{np.percentile(w, 90) * 1e6:>8.1f} us")
    ra = [med["DecimalNumber(mob_class=Text)"][i] / med["LiveNumber"][i] for i in (0, 1)]
    print(f"    DecimalNumber / LiveNumber: wall {ra[0]:.0f}x, cpu {ra[1]:.0f}x  "
          f"(target >= 5x: {'met' if min(ra) >= 5 else 'NOT met'})")

    print()
    print(f"(b) scene at 480p15 (-ql), six numbers, {args.seconds:g} s of animation, "
          f"best and median of {args.repeats} renders")
    results: dict[str, list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory() as media:
        time_scene("decimal", 0.2, media)  # warm-up: imports, DecimalNumber's glyph cache
        time_scene("live", 0.2, media)
        for _ in range(args.repeats):  # interleaved, so load changes hit every kind alike
            for kind in ("static", "live", "decimal"):
                wall, cpu, frames = time_scene(kind, args.seconds, media)
                results.setdefault(kind, []).append((wall, cpu))
    print(f"    {'numbers':<9}{'wall best':>11}{'median':>9}{'cpu best':>11}{'median':>9}"
          f"{'cpu/frame':>12}")
    best = {}
    for kind, runs in results.items():
        walls, cpus = [w for w, _ in runs], [c for _, c in runs]
        best[kind] = (min(walls), min(cpus))
        print(f"    {kind:<9}{min(walls):>10.2f}s{statistics.median(walls):>8.2f}s"
              f"{min(cpus):>10.2f}s{statistics.median(cpus):>8.2f}s"
              f"{min(cpus) / frames * 1e3:>9.1f} ms")
    lvs = [best["live"][i] / best["static"][i] for i in (0, 1)]
    dvl = [best["decimal"][i] / best["live"][i] for i in (0, 1)]
    print(f"    live / static:  wall {lvs[0]:.2f}x, cpu {lvs[1]:.2f}x  "
          f"(target <= 2x: {'met' if max(lvs) <= 2 else 'NOT met'})")
    print(f"    decimal / live: wall {dvl[0]:.2f}x, cpu {dvl[1]:.2f}x")
    print(f"    decimal / static: wall {best['decimal'][0] / best['static'][0]:.2f}x, "
          f"cpu {best['decimal'][1] / best['static'][1]:.2f}x")
    print(f"    frames per render: {frames}")


if __name__ == "__main__":
    main()
