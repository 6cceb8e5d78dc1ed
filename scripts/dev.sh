#!/usr/bin/env bash
# The README's commands: `bash scripts/dev.sh video` and `bash scripts/dev.sh test`.
# Each first runs the bootstrap (installs only what is missing).
set -euo pipefail
cd "$(dirname "$0")/.."
cmd=${1:-video}; shift || true
voices=()  # narration (issue 14): the offline voices for the tests and for --narration
case " $cmd $* " in *" test "*|*" --narration "*) voices=(--voices) ;; esac
bash scripts/bootstrap.sh "${voices[@]}"
case "$cmd" in
  video) exec .venv/bin/python render.py render "$@" ;;
  stills) exec .venv/bin/python render.py stills "$@" ;;
  test) exec .venv/bin/python -m pytest "$@" ;;
  bench) exec .venv/bin/python bench/bench_render.py "$@" ;;
  *) echo "usage: bash scripts/dev.sh video|stills|test|bench [options]" >&2; exit 2 ;;
esac
