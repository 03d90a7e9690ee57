#!/usr/bin/env bash
# The main job: an offline benchmark run (oracle agent, scripted user) of τ-bench retail test, all four
# services started in-process on loopback gRPC. Installs what it needs. Extra flags go to `taumesh run`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/bootstrap.sh" base
DATA_DIR="${TAUMESH_DATA_DIR:-$ROOT/../shared/taubench_v1}"
exec taumesh run --env retail --task-split test --agent-strategy oracle --user-strategy scripted \
  --data-dir "$DATA_DIR" --max-concurrency 8 --log-dir "$ROOT/results" "$@"
