#!/usr/bin/env bash
# The main job: an offline benchmark run (oracle agent, scripted user) of τ²-bench retail, all four services
# started in-process on loopback gRPC. Installs what it needs and fetches τ²'s data once (taumesh data fetch tau2).
# Extra flags go to `taumesh run` (for example --env tau2-airline, or --env retail --data-dir DIR for τ-bench v1).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
echo "run-offline: [1/3] the environment (.venv; installed on first use, reused after)"
source "$ROOT/scripts/bootstrap.sh" base
echo "run-offline: [2/3] τ²'s data (taumesh data fetch tau2; fetched once into the cache)"
taumesh data fetch tau2
echo "run-offline: [3/3] the run: τ² retail, oracle agent, scripted user, services in-process on loopback"
exec taumesh run --env tau2-retail --agent-strategy oracle --user-strategy scripted \
  --max-concurrency 8 --log-dir "$ROOT/results" "$@"
