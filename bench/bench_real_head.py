"""The real head's cost: reading the shipped model once, and one forward pass of a sentence.

Usage::

    python bench/bench_real_head.py [--words 12] [--rounds 20]

Prints the time to load the weights (first call, then cached) and the median forward pass
(tokenise, 6 layers, gather to words) of a sentence of ``--words`` words, CPU and wall.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from attn_math.real_head import load_model, word_attention  # noqa: E402

SENTENCE = "the dog chased the cat across the yard because it was very hungry".split()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--words", type=int, default=12)
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args()
    words = (SENTENCE * 2)[: args.words]
    t = time.perf_counter()
    load_model()
    print(f"load the weights: {time.perf_counter() - t:.3f} s (once per process)")
    walls, cpus = [], []
    for _ in range(args.rounds):
        t, c = time.perf_counter(), time.process_time()
        word_attention(words, len(words) - 1)
        walls.append(time.perf_counter() - t)
        cpus.append(time.process_time() - c)
    print(f"forward pass, {len(words)} words: median {statistics.median(walls) * 1000:.1f} ms wall, "
          f"{statistics.median(cpus) * 1000:.1f} ms CPU ({args.rounds} rounds)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
