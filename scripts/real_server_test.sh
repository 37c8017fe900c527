#!/usr/bin/env bash
# `make test-real-server`: bc-eval against llama.cpp's llama-server with Gemma-3-270M (tests/real_server).
# The server binary and the model are built once into ${BC_CACHE_DIR:-~/.cache/bootcamp-harness} (outside the
# clone) by real_server_build.sh and reused; where they cannot be built here the tier is skipped, saying why.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-.venv}"
set +e
built="$(PYTHON="${PYTHON:-python3}" bash scripts/real_server_build.sh)"
rc=$?
set -e
if [ "$rc" -eq 3 ]; then
  echo "test-real-server: SKIPPED: llama-server or the model cannot be built on this machine (see above)" >&2
  exit 0
elif [ "$rc" -ne 0 ]; then
  echo "test-real-server: building llama-server or the model failed (exit $rc)" >&2
  exit "$rc"
fi
eval "$(printf '%s\n' "$built" | grep -E '^(LLAMA_SERVER|LLAMA_TEMPLATES|MODEL_GGUF)=/')"
# Gemma 3 ships no tool-calling template; Gemma 4's (from the same llama.cpp sources) speaks tools in Gemma's
# turn format, and llama-server parses its tool calls
export BC_LLAMA_SERVER="$LLAMA_SERVER" BC_LLAMA_MODEL="$MODEL_GGUF"
export BC_LLAMA_TEMPLATE="$LLAMA_TEMPLATES/google-gemma-4-31B-it.jinja"
exec "$VENV/bin/pytest" tests/real_server -p no:cacheprovider -q "$@"
