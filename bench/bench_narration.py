"""Benchmark: what narration costs, in one run.

Run with the project's interpreter::

    .venv/bin/python bench/bench_narration.py [--sections 1-25] [--quality preview]
                                              [--langs ja,en] [--jobs 2] [--workdir DIR]
                                              [--json FILE]

For each language of ``--langs``, back to back:

(a) a silent cold render (``render.py render``);
(b) a narrated cold render (``render.py render --narration``) with an empty voice cache:
    synthesis and rendering together;
(c) a narrated render again with ``--force`` and the voice cache kept: rendering only;
(d) synthesis alone: every line the narrated render spoke (read from its voice cache)
    synthesised again, one after another in this process, into an empty cache.

With ``--cold-only``, (a) and (b) only. Each render's phases (the up-front "voice" pass,
the sections' render, the stitch) are read from its manifest.

Reported: synthesis seconds per minute of narrated video (d over the video's minutes), the
narrated video's length against the silent one's, and the render times (b) and (c) against
(a). It also times the English voices that were candidates (festival with the slt HTS
voice, flite's slt, espeak-ng) on the same lines: seconds of synthesis per second of
speech, and the sample rate each produces (its audio bandwidth is half of it).

Per voice (``--listen``, every installed voice of each language by default): the synthesis
seconds per second of speech and the intelligibility, the error rate of an independent
recogniser (Whisper base through ``faster-whisper``, :mod:`bench.listen`: character error
rate in Japanese, word error rate in English) on the script's cues of ``--listen-sections``
(default: the whole script). ``--voice`` names the voice the renders use.

Outputs go to ``--workdir`` (a temporary directory by default). Speed is measured here,
never asserted in tests.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import wave
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from words import config  # noqa: E402


def render(out: Path, lang: str, args, narration: bool, voice_cache: Path | None,
           force: bool = False) -> float:
    cmd = [sys.executable, str(ROOT / "render.py"), "render", "--quality", args.quality,
           "--lang", lang, "--jobs", str(args.jobs), "--out", str(out)]
    if args.sections:
        cmd += ["--sections", args.sections]
    if narration:
        cmd.append("--narration")
        if getattr(args, "voice", None):
            cmd += ["--voice", args.voice]
    if force:
        cmd.append("--force")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for v in (config.LANG, config.NARRATION, config.VOICE_CACHE):
        env.pop(v.name, None)
    if voice_cache is not None:
        env[config.VOICE_CACHE.name] = str(voice_cache)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"render failed ({' '.join(cmd[2:])}):\n{p.stderr[-2000:]}")
    return seconds


def video_seconds(path: Path) -> float:
    import av

    with av.open(str(path)) as c:
        s = c.streams.video[0]
        return float(s.duration * s.time_base)


def phases(out: Path) -> dict:
    """The seconds of a run's phases (plan, voice, render, stitch, total), from its manifest."""
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))["last_run"]["seconds"]


def spoken_lines(cache: Path, lang: str) -> list[str]:
    lines = []
    for meta in sorted((cache / lang).glob("*.json")):
        lines.append(json.loads(meta.read_text(encoding="utf-8"))["spoken"])
    return lines


def synthesis_seconds(lines: list[str], lang: str, cache: Path) -> tuple[float, float]:
    """Seconds to synthesise ``lines`` into an empty cache, and the seconds of speech."""
    from narration.synth import Synthesizer

    synth = Synthesizer(cache)
    t0 = time.perf_counter()
    speech = sum(synth.line(text, lang).seconds for text in lines)
    return time.perf_counter() - t0, speech


ENGLISH_CANDIDATES = {
    "festival + cmu_us_slt_arctic_hts": lambda text, out: subprocess.run(
        ["text2wave", "-eval", "(voice_cmu_us_slt_arctic_hts)", "-o", str(out)],
        input=text.encode(), check=True, capture_output=True),
    "flite (slt)": lambda text, out: subprocess.run(
        ["flite", "-voice", "slt", "-t", text, "-o", str(out)], check=True, capture_output=True),
    "espeak-ng (en-us)": lambda text, out: subprocess.run(
        ["espeak-ng", "-v", "en-us", "-w", str(out), text], check=True, capture_output=True),
}


def english_candidates(lines: list[str], work: Path) -> dict:
    """Each candidate's synthesis seconds per second of speech and its sample rate."""
    results = {}
    for name, speak in ENGLISH_CANDIDATES.items():
        if shutil.which(name.split()[0].replace("festival", "text2wave")) is None:
            results[name] = None
            continue
        total = speech = 0.0
        rate = None
        for i, text in enumerate(lines):
            out = work / f"cand-{i}.wav"
            t0 = time.perf_counter()
            speak(text, out)
            total += time.perf_counter() - t0
            with wave.open(str(out)) as w:
                rate = w.getframerate()
                speech += w.getnframes() / rate
        results[name] = {"synthesis_per_speech_second": total / speech, "sample_rate": rate}
    return results


def listen_voices(lang: str, args, work: Path) -> list[dict]:
    """Per voice of ``lang``: synthesis seconds per second of speech and the recogniser's
    error rate on the script's cues."""
    from bench import listen
    from narration.voices import of_language

    names = args.listen.split(",") if args.listen else [v.name for v in of_language(lang) if v.installed()]
    names = [n for n in names if any(v.name == n for v in of_language(lang))]
    lines = listen.script_lines(lang, args.listen_sections)
    out = []
    for name in names:
        folder = work / f"listen-{name}"
        folder.mkdir(parents=True, exist_ok=True)
        r = listen.listen(name, lines, lang, folder)
        # what the recogniser heard, beside what was meant: where a voice misreads
        r["transcripts"] = [{"meant": m, "heard": h} for m, h in zip(lines, r.pop("heard"))]
        out.append(r)
        print(f"[{lang}] {name}: error rate {r['error_rate']:.3f}, "
              f"synthesis {r['synthesis_per_speech_second']:.2f} s per second of speech", flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sections", default=None)
    ap.add_argument("--quality", default="preview")
    ap.add_argument("--langs", default="ja,en")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--workdir", type=Path, default=None)
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--voice", default=None, help="the voice of the narrated renders")
    ap.add_argument("--listen", default=None,
                    help="voices to time and transcribe (comma-separated; default: every installed one); "
                         "'none' skips the renders' bench and this")
    ap.add_argument("--listen-sections", default=None, help="the cues they read (default: all)")
    ap.add_argument("--listen-only", action="store_true", help="skip the renders")
    ap.add_argument("--cold-only", action="store_true",
                    help="only (a) and (b): the silent and the narrated cold render")
    args = ap.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="bench-narration-"))
    work.mkdir(parents=True, exist_ok=True)
    report: dict = {"quality": args.quality, "sections": args.sections or "all", "jobs": args.jobs}

    for lang in args.langs.split(","):
        if args.listen != "none":
            report.setdefault("voices", {})[lang] = listen_voices(lang, args, work)
        if args.listen_only:
            continue
        base = work / lang
        shutil.rmtree(base, ignore_errors=True)
        voice = base / "voice"
        silent = render(base / "silent", lang, args, narration=False, voice_cache=None)
        silent_phases = phases(base / "silent")
        narrated = render(base / "narrated", lang, args, narration=True, voice_cache=voice)
        narrated_phases = phases(base / "narrated")
        v_silent = video_seconds(base / "silent" / "explainer.mp4")
        v_narrated = video_seconds(base / "narrated" / "explainer.mp4")
        lines = spoken_lines(voice, lang)
        r = {
            "lines": len(lines),
            "video_silent_s": round(v_silent, 1), "video_narrated_s": round(v_narrated, 1),
            "video_length_ratio": round(v_narrated / v_silent, 2),
            "render_silent_s": round(silent, 1),
            "render_narrated_cold_s": round(narrated, 1),
            "narrated_cold_over_silent": round(narrated / silent, 2),
            "narrated_per_video_second_over_silent": round((narrated / v_narrated) / (silent / v_silent), 2),
            # where the time goes: the run's phases (the manifest's last_run seconds)
            "phases_silent_s": silent_phases, "phases_narrated_s": narrated_phases,
        }
        if not args.cold_only:
            warm = render(base / "narrated", lang, args, narration=True, voice_cache=voice, force=True)
            synth, speech = synthesis_seconds(lines, lang, base / "voice-again")
            r.update({"speech_s": round(speech, 1), "synthesis_s": round(synth, 1),
                      "synthesis_s_per_video_minute": round(synth / (v_narrated / 60), 2),
                      "render_narrated_warm_voice_s": round(warm, 1),
                      "narrated_warm_voice_over_silent": round(warm / silent, 2)})
        if lang == "en" and not args.cold_only:
            r["english_candidates"] = english_candidates(lines[:8], base)
        report[lang] = r
        print(f"[{lang}] " + json.dumps(r, ensure_ascii=False), flush=True)

    if args.json:
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
