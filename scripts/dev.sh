#!/usr/bin/env bash
# The README's commands: `bash scripts/dev.sh video` and `bash scripts/dev.sh test`.
# Each first runs the bootstrap (installs only what is missing).
set -euo pipefail
cd "$(dirname "$0")/.."
cmd=${1:-video}; shift || true
case "$cmd" in  # slides and tests need more than the video (see bootstrap.sh)
  test) bash scripts/bootstrap.sh --test ;;
  slides) bash scripts/bootstrap.sh --slides ;;
  *) bash scripts/bootstrap.sh ;;
esac
case "$cmd" in
  video) exec .venv/bin/python render.py render "$@" ;;
  stills) exec .venv/bin/python render.py stills "$@" ;;
  slides) exec .venv/bin/python render.py slides "$@" ;;
  test) exec .venv/bin/python -m pytest "$@" ;;
  bench) exec .venv/bin/python bench/bench_render.py "$@" ;;
  *) echo "usage: bash scripts/dev.sh video|stills|slides|test|bench [options]" >&2; exit 2 ;;
esac
