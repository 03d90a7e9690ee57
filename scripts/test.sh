#!/usr/bin/env bash
# The one test command: installs what it needs, then checks contracts, lint, types and runs the tests.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source scripts/bootstrap.sh dev
echo "== generated code is up to date";  python scripts/gen_protos.py --check
echo "== buf lint";                      (cd protos && buf lint)
echo "== ruff";                          ruff check . && ruff format --check .
echo "== mypy";                          mypy taumesh  # services/ and orchestrator/ through the package links
echo "== pytest";                        pytest -q "$@"
