"""Contact sheets: a still of every beat of every section, at 720p, for looking at layouts.

    PYTHONPATH=. python tools/contact_sheet.py --out /tmp/sheets --lang en --theme light \
        --sentence "the old dog chased the supercalifragilistic ball and then it rolled away" \
        --sections 1-7

Each section renders with its animations skipped (as in ``tests/module/scenes/test_layout.py``); at the end
of every beat the frame is drawn at 1280x720 and saved, and one PNG per section puts the
beats side by side (``NN-<slug>.png``, three columns of half-size stills, each titled with its
beat and the layout problems the probe found there, if any).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def parse_sections(spec: str | None) -> list[int]:
    if spec is None:  # every section the registry finds
        from scenes.registry import SECTIONS

        return [s.number for s in SECTIONS]
    out: list[int] = []
    for part in spec.split(","):
        a, _, b = part.partition("-")
        out += list(range(int(a), int(b or a) + 1))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--lang", default="ja")
    ap.add_argument("--theme", default="dark")
    ap.add_argument("--sentence", default=None)
    ap.add_argument("--sections", default=None, help="numbers and ranges (default: all)")
    a = ap.parse_args(argv)

    from scenes.contact_sheet import section_sheet
    from scenes.registry import by_number

    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    head = None
    with tempfile.TemporaryDirectory() as tmp:
        if a.sentence:
            head = str(Path(tmp) / "spec.toml")
            Path(head).write_text(f'sentence = "{a.sentence}"\n', encoding="utf-8")
        for n in parse_sections(a.sections):
            section = by_number(n)
            path = out / f"{n:02d}-{section.slug}.png"
            problems = section_sheet(section, a.lang, a.theme, head, path)
            print(f"{path}  {len(problems)} problems")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
