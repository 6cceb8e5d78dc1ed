#!/usr/bin/env bash
# The README's commands: `bash scripts/dev.sh video` and `bash scripts/dev.sh test`.
# Each first runs the bootstrap (installs only what is missing).
set -euo pipefail
cd "$(dirname "$0")/.."
cmd=${1:-video}; shift || true
extras=()  # what this command needs beyond the video (see bootstrap.sh)
case "$cmd" in
  test) extras+=(--test) ;;
  slides) extras+=(--slides) ;;
esac
case " $* " in *" --narration "*|*" --voice "*|*" --recordings "*) extras+=(--voices) ;; esac  # narration: the voices
bash scripts/bootstrap.sh "${extras[@]}"
case "$cmd" in
  video) exec .venv/bin/python render.py render "$@" ;;
  stills) exec .venv/bin/python render.py stills "$@" ;;
  slides) exec .venv/bin/python render.py slides "$@" ;;
  test)
    # Lint and types first (seconds), then the suite; `--fast` runs the tier that renders
    # nothing and drives no external program (under a minute).
    .venv/bin/ruff check .
    # mypy's cache outside the checkout: a fresh clone (CI) reuses what it checked before, and
    # rechecks only what changed (it compares each file's hash): about 20 s -> 1 s here.
    MYPY_CACHE_DIR=${MYPY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/attn-explainer/mypy} .venv/bin/mypy
    if [ "${1:-}" = "--fast" ]; then shift; exec .venv/bin/python -m pytest -m "not slow" "$@"; fi
    exec .venv/bin/python -m pytest "$@" ;;
  bench) exec .venv/bin/python bench/bench_render.py "$@" ;;
  *) echo "usage: bash scripts/dev.sh video|stills|slides|test|bench [options]" >&2; exit 2 ;;
esac
