"""The render pipeline behind ``render.py``: one module per concern.

    options     what a run is asked for (qualities, languages, themes) and BadInput
    registry    the sections a run renders and ``--sections`` parsing
    files       atomic writes, publishing by rename, the output folder and its lock
    cache       the content hash of a section's render and the store it keys
    worker      rendering one section in a worker process (RenderJob)
    scheduler   keeping a few worker processes busy
    media       probing clips, subtitles, stitching by stream copy with chapters
    build       one render/stills run: plan, render, publish, stitch, manifest
    cli         the click commands

Nothing here imports manim at import time; workers import it when they render.
"""
