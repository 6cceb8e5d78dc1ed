"""The render pipeline behind ``render.py``: one module per concern.

    options     what a run is asked for (qualities, languages, themes) and BadInput
    registry    the sections a run renders and ``--sections`` parsing
    run_setup   from a command's input to checked sections and Options, in one order
    files       atomic writes, publishing by rename, the output folder and its lock
    kinds       what a section becomes: a clip or a still (OutputKind)
    cache       the content hash of a section's render and the store it keys
    worker      rendering one section in a worker process (RenderJob)
    scheduler   keeping a few worker processes busy
    media       probing clips, subtitles, stitching by stream copy with chapters
    build       one render/stills run: plan, render, publish, stitch, manifest
    script      the caption script: every cue with its time, nothing rendered
    speech      a narrated run's lines, listed from the beat plans and synthesised up front
    subtitles   every language's track of a clip: sidecar files and soft subtitle streams
    poster      a clip's poster frame (its end state) and its scaled copy
    heads       ``heads``: the followed word's row in every head of the real model

A library: the command line (``cli``) sits on top of it, and nothing here imports it.

Nothing here imports manim at import time; workers import it when they render.
"""
