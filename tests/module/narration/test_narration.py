"""Narration: spoken forms, the missing-voice error, and narrated renders.

The voices are installed by the test set-up (``bash scripts/dev.sh test`` runs
``scripts/bootstrap.sh --voices``); nothing here is skipped when one is missing.
The narrated renders go through ``python render.py render --narration`` as a user runs
it, and are checked with independent readers: PyAV for the streams, ffmpeg's ``ebur128``
filter for loudness and true peak, an energy gate on the decoded audio for where speech
is, and the ``srt`` package for the caption spans.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import av
import numpy as np
import pytest
import srt

from tests.support import ROOT
from tests.support.audio import ebur128

sys.path.insert(0, str(ROOT))

from narration import pacing  # noqa: E402
from narration.synth import Synthesizer  # noqa: E402
from words import config  # noqa: E402
from words.spoken import spoken  # noqa: E402

# One worker runs this module: the narrated renders (a module fixture per language) are made
# once, not once per worker that happens to get one of their tests.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("narration")]

SECTIONS = "10,17"                    # two short sections with numbers and token names
STEMS = ["10-fold-diagonal", "17-causal-mask"]
# The narrated renders' quality: 15 fps as at preview, at a size where drawing costs little
# (what is checked here is the sound, the cues and the streams' lengths, not the picture).
QUALITY = "tiny15"
FPS = 15
FRAME = 1 / FPS
SILENCE_DBFS = -50.0                  # below this (RMS over 20 ms) the voice is silent


# ------------------------------------------------------------------ spoken forms

@pytest.mark.parametrize("written, en, ja", [
    ("W_Q", "W Q", "ダブリューキュー"),
    ("√d", "root d", "ルートディー"),
    ("−0.32", "minus zero point three two", "マイナス レーテンサンニー"),
    ("1.72 × 2", "one point seven two times 2", "イッテンナナニー かける 2"),
    ("12.05", "12 point zero five", "12テンレーゴー"),
    ("d = 256", "d equals 256", "ディー イコール 256"),
    ("1/√d", "1 over root d", "ルートディー分の 1"),
    ("q(it)", "q of it", "キュー（イット）"),
    ("the₁", "the 1", "ザ1"),
    ("GPT-2", "GPT-2", "ジーピーティーツー"),
    ("d_model 768", "d model 768", "ディー モデル 768"),
    ("fp16", "fp 16", "エフピー16"),
    ("−∞", "minus infinity", "マイナス無限大"),
    ("n² · d", "n squared times d", "エヌの二乗 かける ディー"),
    # a subscripted name under a root is read letter by letter, not as a word ("ドー")
    ("√d_k", "root d k", "ルートディーケー"),
    # the exponential is not the letter x (festival), nor "エックスプ" (the transliterator)
    ("exp(−∞)", "e to the (minus infinity)", "エクスポネンシャル(マイナス無限大)"),
    # a mask of zeros and ones, not the ratio 0 over 1 ("1 分の 0")
    ("0/1", "zero-one", "ゼロイチ"),
    # a weight printed in scientific notation, not "e minus 14"
    ("1.2e−14", "one point two times ten to the minus 14", "イッテンニーかける 10 の マイナス 14乗"),
    ("exp(s − max s)", "e to the (s minus max s)", "エクスポネンシャル(エス マイナス マックス エス)"),
    ("+ (−∞)", "plus (minus infinity)", "たす (マイナス無限大)"),
])
def test_spoken_symbols(written, en, ja):
    assert spoken(written, "en") == en
    assert spoken(written, "ja") == ja


def test_spoken_japanese_numbers_run_on_into_their_counters():
    # with the caption's space, Open JTalk read the counter as a word of its own: 16 フシ, イチ ツ
    assert spoken("理由は 16 節。候補が 1 つ、約 9 倍。", "ja") == "理由は 16節。候補が 1つ、約 9倍。"
    assert spoken("和は 1。d ＝ 64 なら 2 次元", "ja") == "和は 1。ディー イコール 64 なら 2次元"
    # a ratio's 分の is no counter: "2分の" is ニフンノ to Open JTalk
    assert spoken("R/√2", "ja") == "ルート2 分の アール"
    assert spoken("1.72 で勝つ", "ja") == "イッテンナナニーで勝つ"
    # a row of the matrix, not コウ nor 歩き
    assert spoken("3 行目：行ごとに softmax。各行は 1 つ", "ja") == "3行目：ぎょうごとに ソフトマックス。かくぎょうは 1つ"


def test_spoken_english_sentence():
    text = "Nor a floor: the “ate” row bottoms out at −0.45 on the key of “cat”."
    assert spoken(text, "en") == ("Nor a floor: the ate row bottoms out at minus zero point "
                                  "four five on the key of cat.")


def test_spoken_japanese_reads_english_tokens_in_katakana():
    text = "例文は「the cat ate and it ran」。この動画はトークン it を追いかける。"
    said = spoken(text, "ja")
    assert not any("a" <= c.lower() <= "z" for c in said), said
    assert "キャット" in said and "イットを" in said   # a name runs on into its particle


def test_spoken_keeps_hyphens_and_subtraction():
    assert spoken("a d-wide dot product", "en") == "a d-wide dot product"
    # a spaced minus is a subtraction, not a sign: read as one (a voice skips the bare symbol)
    assert spoken("x − y", "en") == "x minus y"
    assert spoken("x − y", "ja") == "エックス マイナス ワイ"


def test_spoken_variant_is_used(monkeypatch):
    monkeypatch.setattr("words.spoken.variants",
                        lambda lang: {"s01": {"query": "Through the matrix {m}."}})
    assert pacing.spoken_line("en", 1, "query", "Through W_Q.", {"m": "W_Q"}) == "Through the matrix W Q."
    assert pacing.spoken_line("en", 1, "key", "Through W_K.", {}) == "Through W K."


def test_spoken_variants_name_existing_beats():
    """Every explicit spoken variant belongs to a caption beat and uses its placeholders."""
    from words import captions, config
    from words.spoken import variants

    for lang in config.LANGS:
        for sec, beats in variants(lang).items():
            for beat, text in beats.items():
                used = {p for t in captions.texts(captions.table(lang)[sec][beat])
                        for p in captions.placeholders(t)}
                assert set(captions.placeholders(text)) <= used, (lang, sec, beat)


def test_readings_are_per_language_data():
    """The words the rules say live in ``[readings]`` of ``assets/spoken/<lang>.toml``:
    complete tables (every Latin letter, every digit), and not mistaken for a beat's variant."""
    from words.spoken import readings, variants

    ja, en = readings("ja"), readings("en")
    assert set(ja["letters"]) == set("abcdefghijklmnopqrstuvwxyz")
    assert len(ja["english_digits"]) == len(en["digits"]) == 10
    assert en["digits"][7] == "seven" and ja["english_digits"][2] == "ツー"
    for lang in ("ja", "en"):
        assert "readings" not in variants(lang)
        # symbols are replaced in table order: were ∞ first, "−∞" would never match and its
        # minus sign would be left to the engine
        symbols = list(readings(lang)["symbols"])
        assert symbols.index("−∞") < symbols.index("∞")


def test_a_changed_reading_renders_narrated_sections_again(monkeypatch):
    """The readings are data (the cache hashes code, and not assets/spoken/): the narrated
    section's cache key carries them."""
    from words import spoken as spoken_rules

    before = pacing.narration_key("en", 5)
    changed = {**spoken_rules.readings("en"), "minus": "negative "}
    monkeypatch.setattr(spoken_rules, "readings", lambda lang: changed)
    assert pacing.narration_key("en", 5) != before


# ------------------------------------------------------------------ synthesis cache

def test_unchanged_line_is_not_synthesised_again(tmp_path):
    synth = Synthesizer(tmp_path)
    a = synth.line("the score is one point seven two", "en")
    b = Synthesizer(tmp_path).line("the score is one point seven two", "en")
    assert synth.synthesised == 1
    assert a.path == b.path and a.seconds == b.seconds > 0.5
    c = synth.line("the score is one point seven three", "en")
    assert c.path != a.path and synth.synthesised == 2


# ------------------------------------------------------------------ missing voice

def _cli(*args, env=None, cwd=None):
    full = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    for k in ("ATTN_LANG", "ATTN_THEME", "ATTN_CAPTIONS", "ATTN_HEAD", "ATTN_NARRATION"):
        full.pop(k, None)
    return subprocess.run([sys.executable, str(ROOT / "render.py"), *args], env=full,
                          capture_output=True, text=True, timeout=900, cwd=cwd)


@pytest.mark.parametrize("voice, env, names", [
    ("mei_normal", {"ATTN_VOICE_DIR": "/nonexistent"}, "pyopenjtalk-plus"),
    ("mei_normal", {"PATH": "/nonexistent"}, "apt-get install open-jtalk"),
    ("cmu_us_slt_arctic_hts", {"PATH": "/nonexistent"}, "apt-get install festival festvox-us-slt-hts"),
])
def test_missing_voice_exits_2_with_one_line(tmp_path, voice, env, names):
    out = tmp_path / "out"
    lang = "en" if voice == "cmu_us_slt_arctic_hts" else "ja"
    p = _cli("render", "--narration", "--voice", voice, "--lang", lang, "--quality", "tiny",
             "--sections", "17", "--out", str(out), env=env)
    assert p.returncode == 2, p.stdout + p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and names in lines[0], p.stderr
    assert not (out / "explainer.mp4").exists() and not (out / "clips").exists()


# ------------------------------------------------------------------ narrated renders

@pytest.fixture(scope="module", params=["ja", "en"])
def narrated(request, tmp_path_factory):
    lang = request.param
    base = tmp_path_factory.mktemp(f"narrated-{lang}")
    p = _cli("render", "--narration", "--lang", lang, "--quality", QUALITY, "--sections", SECTIONS,
             "--jobs", "2", "--out", str(base / "out"), env={"ATTN_VOICE_CACHE": str(base / "voice")})
    assert p.returncode == 0, p.stdout + p.stderr
    return lang, base


def _streams(path: Path) -> tuple[list, list]:
    with av.open(str(path)) as c:
        video = [(s.codec_context.name, float(s.duration * s.time_base)) for s in c.streams.video]
        audio = [(s.codec_context.name, s.codec_context.sample_rate, _audio_seconds(c, s))
                 for s in c.streams.audio]
    return video, audio


def _audio_seconds(container, stream) -> float:
    """The audio's length from its packets (first start to last end)."""
    start = end = None
    for p in container.demux(stream):
        if p.pts is None:
            continue
        start = p.pts if start is None else min(start, p.pts)
        end = max(end or 0, p.pts + (p.duration or 0))
    return float((end - start) * stream.time_base)


def _outputs(base: Path) -> list[Path]:
    out = base / "out"
    return [out / "explainer.mp4", *(out / "clips" / f"{s}.mp4" for s in STEMS)]


def test_one_video_and_one_aac_48k_stream_of_the_videos_length(narrated):
    _, base = narrated
    for path in _outputs(base):
        video, audio = _streams(path)
        assert len(video) == 1 and len(audio) == 1, (path.name, video, audio)
        (_, v_seconds), (codec, rate, a_seconds) = video[0], audio[0]
        assert codec == "aac" and rate == 48_000, (path.name, audio)
        assert abs(a_seconds - v_seconds) <= FRAME, (path.name, v_seconds, a_seconds)


def _decoded(path: Path) -> np.ndarray:
    """Mono float samples at 48 kHz (channels averaged)."""
    with av.open(str(path)) as c:
        resampler = av.AudioResampler(format="flt", layout="mono", rate=48_000)
        chunks = [f.to_ndarray().reshape(-1) for fr in c.decode(audio=0) for f in resampler.resample(fr)]
        chunks += [f.to_ndarray().reshape(-1) for f in resampler.resample(None)]
    return np.concatenate(chunks)


def _voiced(samples: np.ndarray, window: float = 0.02) -> np.ndarray:
    """Per 20 ms window: is the voice speaking (RMS above :data:`SILENCE_DBFS`)."""
    n = int(48_000 * window)
    frames = samples[: len(samples) // n * n].reshape(-1, n)
    rms = np.sqrt(np.mean(frames.astype(np.float64) ** 2, axis=1))
    return 20 * np.log10(np.maximum(rms, 1e-9)) > SILENCE_DBFS


def test_each_beats_speech_lies_inside_its_caption(narrated):
    """Speech is found by silence boundaries: every caption has speech, and at every caption
    boundary (and at the clip's end) the voice is silent, so no line runs into the next
    caption or is cut off by the clip's end."""
    _, base = narrated
    for stem in STEMS:
        clip = base / "out" / "clips" / f"{stem}.mp4"
        cues = list(srt.parse((clip.with_suffix(".srt")).read_text(encoding="utf-8")))
        assert cues, stem
        voiced = _voiced(_decoded(clip))
        t = np.arange(len(voiced)) * 0.02 + 0.01
        for cue in cues:
            a, b = cue.start.total_seconds(), cue.end.total_seconds()
            assert voiced[(t >= a) & (t < b)].any(), f"{stem}: no speech during {cue.content!r}"
        boundaries = [c.start.total_seconds() for c in cues[1:]] + [cues[-1].end.total_seconds()]
        for b in boundaries:
            near = (t > b - 0.15) & (t < b + 0.1)
            assert not voiced[near].any(), f"{stem}: the voice is speaking across the caption boundary at {b:.2f}s"
        first = t[voiced][0]
        assert first >= cues[0].start.total_seconds(), f"{stem}: speech before the first caption"


def test_loudness_is_minus_16_lufs_and_true_peak_under_minus_1(narrated):
    _, base = narrated
    for path in _outputs(base):
        lufs, tp = ebur128(path)
        assert abs(lufs - (-16.0)) <= 1.0, (path.name, lufs)
        assert tp < -1.0, (path.name, tp)


def test_same_input_gives_the_same_audio(narrated, tmp_path):
    """A fresh render of the same input gives the same audio bytes: the mix, the loudness
    pass and the encoder are deterministic. It reads a copy of the first render's voice
    cache: that synthesis itself gives the same bytes again is
    ``test_the_scenes_find_every_line_synthesised_up_front``'s check (two lines synthesised
    anew here equal the render's), at a tenth of the cost of synthesising a section again."""
    lang, base = narrated
    cache = tmp_path / "voice"
    shutil.copytree(base / "voice", cache)
    p = _cli("render", "--narration", "--lang", lang, "--quality", QUALITY, "--sections", "17",
             "--out", str(tmp_path / "out"), "--jobs", "1", env={"ATTN_VOICE_CACHE": str(cache)})
    assert p.returncode == 0, p.stdout + p.stderr
    said = p.stdout + p.stderr
    assert re.search(r"(?<!\d)0 synthesised", said), "the copied cache did not serve every line"
    assert re.search(r"(?<!\d)1 rendered", said), "the section was not rendered again"

    def audio_packets(path):
        with av.open(str(path)) as c:
            return [bytes(pk) for pk in c.demux(c.streams.audio[0]) if pk.dts is not None]

    first = audio_packets(base / "out" / "clips" / f"{STEMS[1]}.mp4")
    second = audio_packets(tmp_path / "out" / "clips" / f"{STEMS[1]}.mp4")
    assert first and first == second


def test_narrated_cues_hold_at_least_as_long_as_their_line(narrated):
    """Each caption cue lasts at least as long as its spoken line (section 17 has no spoken
    variants, so each cue's line is its text through the rules; read from the voice cache)."""
    lang, base = narrated
    synth = Synthesizer(base / "voice")
    for stem in STEMS:
        clip = base / "out" / "clips" / f"{stem}.mp4"
        cues = list(srt.parse(clip.with_suffix(".srt").read_text(encoding="utf-8")))
        for cue in cues:
            seconds = pacing.speech_seconds(cue.content, lang, synth=synth)
            assert (cue.end - cue.start).total_seconds() >= seconds, (stem, cue.content, seconds)
        assert synth.synthesised == 0, "every cue's line was in the render's voice cache"


def test_closing_credit_names_mei_and_its_licence_only_when_narrated():
    from narration import closing_credit

    silent = config.current().replace(narration=False)
    with config.using(silent):
        assert closing_credit("ja") is None
    with config.using(silent.replace(narration=True, voice="mei_normal")):
        ja = closing_credit("ja")
    with config.using(silent.replace(narration=True, voice="cmu_us_slt_arctic_hts")):
        en = closing_credit("en")
    assert "Mei" in ja and "名古屋工業大学" in ja and "CC BY 3.0" in ja
    assert "Carnegie Mellon" in en


def test_script_reports_the_narrated_timing(narrated):
    """``render.py script --narration`` gives the narrated explainer's cue times (within a
    frame) and texts, without rendering."""
    import json

    lang, base = narrated
    p = _cli("script", "--narration", "--json", "--lang", lang, "--quality", QUALITY,
             "--sections", SECTIONS, env={"ATTN_VOICE_CACHE": str(base / "voice")})
    assert p.returncode == 0, p.stderr
    script = json.loads(p.stdout)
    rendered = list(srt.parse((base / "out" / "explainer.srt").read_text(encoding="utf-8")))
    assert [c["text"] for c in script] == [c.content for c in rendered]
    for c, r in zip(script, rendered):
        assert abs(c["start"] - r.start.total_seconds()) <= FRAME + 1e-3, (c, r)
        assert abs(c["end"] - r.end.total_seconds()) <= FRAME + 1e-3, (c, r)


def test_the_scenes_find_every_line_synthesised_up_front(narrated):
    """The render synthesises its lines before the sections render (pipeline.speech), over
    its two workers: the voice cache then holds exactly the lines listed up front (a line a
    scene had to synthesise itself would be an extra file), and a line synthesised by the
    pool has the bytes of the same line synthesised in this process, as a scene would."""
    from pipeline.speech import run_lines
    from scenes.registry import SECTIONS as UNITS

    lang, base = narrated
    cache = base / "voice"
    env = config.scene_env(lang=lang, narration=True, voice_cache=cache)
    listed = run_lines([u for u in UNITS if u.stem in STEMS], env)
    synth = Synthesizer(cache)
    with config.using(config.current().with_scene(env)):
        from narration.synth import line_key
        from narration.voices import chosen

        keys = {line_key(line.spoken, chosen(lang)) for line in listed}
        assert {p.stem for p in (cache / lang).glob("*.json")} == keys
        assert {p.stem for p in (cache / lang).glob("*.wav")} == keys
        here = Synthesizer(base / "voice-here")
        for text in sorted({line.spoken for line in listed}, key=len)[:2]:   # two short lines
            assert here.line(text, lang).path.read_bytes() == synth.line(text, lang).path.read_bytes(), text
        assert synth.synthesised == 0
