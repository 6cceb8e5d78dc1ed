"""Narration: an offline voice reads every caption beat, and the scene waits for it.

Modules, one concern each:

- :mod:`narration.spoken`: the spoken form of a caption (``W_Q`` -> "W Q", ``√d`` -> "root d");
- :mod:`narration.voices`: the voice table (Kokoro, Mei, Piper, festival): installed or what
  installs it, the default of each language, the closing card's credit;
- :mod:`narration.recordings`: the lecturer's own recordings, one file per cue id;
- :mod:`narration.recorder`: the loopback-only page that records them (``render.py record``);
- :mod:`narration.loudness`: −16 LUFS, true peak under −1 dBTP, short fades;
- :mod:`narration.synth`: synthesis cached by text, voice and settings;
- :mod:`narration.pacing`: the scene hook (lines on the timeline, waiting for the voice);
- the audio track itself is mixed by manim (``Scene.add_sound``) and joined by the
  pipeline's stitch (``pipeline/media.py``), stream copy like the video.

Turned on by ``ATTN_NARRATION=1`` (``render.py render --narration``); the voice is
``ATTN_VOICE`` (``--voice``), the recordings folder ``ATTN_RECORDINGS`` (``--recordings``);
lines are cached in ``ATTN_VOICE_CACHE``.
"""

from .pacing import Narrator, enabled, speech_seconds, spoken_line
from .voices import MissingVoice, closing_credit, credit, voice

__all__ = ["Narrator", "enabled", "speech_seconds", "spoken_line", "MissingVoice", "credit",
           "closing_credit", "voice"]
