"""attn-explainer: render the self-attention explainer, one Manim scene per section.

    python render.py [render] [OPTIONS]     the stitched MP4 (+ chapters, merged .srt) and clips/
    python render.py stills [OPTIONS]       a PNG of each section's final frame in stills/
    python render.py list [--json]          the sections, in order
    python render.py figures [--json]       the head and every figure it implies

What ``render`` writes into ``--out`` (default ``out/``)::

    explainer.mp4          all sections joined by stream copy (never re-encoded), a chapter each
    explainer.srt          the merged subtitles (unless --captions none)
    clips/NN-slug.mp4      each section on its own, with clips/NN-slug.srt
    stills/NN-slug.png     (``stills``) the final frame of each section
    manifest.json          what the files above were rendered from
    .cache/                content-addressed renders, logs, temporary files (safe to delete)

Exit codes: 0 ok, 1 a section failed, 2 bad input, 130 interrupted. This file is the
entry point users know; the commands are the ``cli`` package, the work is done by the
``pipeline`` package (one module per concern, see pipeline/__init__.py). Tests swap the
registry with ``ATTN_REGISTRY``.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # so `pipeline`, `scenes`, `attn_math` import when run from elsewhere
    sys.path.insert(0, str(HERE))

from cli import cli, main  # noqa: E402
from pipeline.registry import load_registry, parse_sections  # noqa: E402

__all__ = ["cli", "main", "load_registry", "parse_sections"]

if __name__ == "__main__":
    main()
