"""Benchmark: ``render.py slides`` cold, warm, and with the clips cached but no deck yet.

Run with the project's interpreter::

    .venv/bin/python bench/bench_slides.py [--sections 1-3] [--quality preview] [--lang ja]
                                           [--out DIR] [--json FILE]

Measures in one run (wall time of the whole command, as a user waits for it):

(a) cold: an empty ``--out``: every clip rendered, every poster decoded, all three outputs written;
(b) warm: the same command again, nothing changed (nothing may be rewritten);
(c) deck only: the clips cached, ``OUT/slides`` and its manifest entry removed, so the three
    outputs (and the posters) are written again from the cached clips;
(d) stepped from cached clips: as (c), and the beat pieces (``<key>.bNN.mp4``/``.png`` and
    ``<key>.pieces`` in the store) removed too, so every clip is cut at its beats again:
    what a stepped deck of clips already rendered costs;
(e) sections from cached clips: as (c) with ``--step sections`` (today's deck before the
    stepped one), for the sizes: ``OUT/slides`` after (d) and after (e) are compared.

Reported as ratios to (a). Target: (b) a few seconds at most and < 5% of (a); (c) a small
share of (a) (the deck is cheap next to rendering). Speed is measured here, never asserted
in tests.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def slides(out: Path, args, *extra: str) -> tuple[float, str]:
    cmd = [sys.executable, str(ROOT / "render.py"), "slides", "--sections", args.sections,
           "--quality", args.quality, "--lang", args.lang, "--out", str(out), *extra]
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    secs = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"render.py slides failed ({p.returncode}):\n{p.stderr}")
    return secs, p.stderr


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sections", default="1-3")
    ap.add_argument("--quality", default="preview")
    ap.add_argument("--lang", default="ja")
    ap.add_argument("--out", type=Path, default=None, help="work folder (emptied first)")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="bench-slides-"))
    shutil.rmtree(out, ignore_errors=True)

    cold, _ = slides(out, args)
    warm, warm_log = slides(out, args)
    forget_deck(out)
    for poster in (out / ".cache" / "store").rglob("*.poster.png"):
        poster.unlink()
    deck, _ = slides(out, args)
    forget_deck(out)
    for piece in (out / ".cache" / "store").rglob("*"):
        if piece.suffix == ".pieces" or (piece.suffix in (".mp4", ".png") and ".b" in piece.name):
            piece.unlink()
    stepped, _ = slides(out, args, "--step", "beats")
    sizes = {"stepped": folder_bytes(out / "slides")}
    forget_deck(out)
    whole, _ = slides(out, args, "--step", "sections")
    sizes["sections"] = folder_bytes(out / "slides")

    rows = {"cold": cold, "warm": warm, "deck_only": deck, "stepped_from_cache": stepped,
            "sections_from_cache": whole}
    print(f"slides --sections {args.sections} --quality {args.quality} --lang {args.lang}")
    for name, secs in rows.items():
        print(f"  {name:<10} {secs:7.2f} s   {secs / cold:6.3f} x cold")
    print(f"  warm run rewrote nothing: {warm_log.count('unchanged') == 3}")
    for name, size in sizes.items():
        print(f"  OUT/slides --step {name:<8} {size / 1e6:8.1f} MB   {size / sizes['sections']:6.3f} x sections")
    if args.json:
        args.json.write_text(json.dumps({"args": vars(args) | {"out": str(out), "json": str(args.json)},
                                         "seconds": rows, "bytes": sizes}, indent=1), encoding="utf-8")


def forget_deck(out: Path) -> None:
    """``OUT/slides`` and its manifest entry removed: the next run writes the deck again."""
    manifest = out / "manifest.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    data.pop("slides", None)
    manifest.write_text(json.dumps(data), encoding="utf-8")
    shutil.rmtree(out / "slides")


def folder_bytes(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


if __name__ == "__main__":
    main()
