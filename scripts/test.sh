#!/usr/bin/env bash
# The one test command: installs what it needs, then checks contracts, lint, types and the docs, and runs the tests.
# Usage: bash scripts/test.sh [PYTEST ARGS]            everything CI checks (.ci/run calls exactly this); arguments
#                                                      go to pytest (bash scripts/test.sh -m "not slow")
#        bash scripts/test.sh --quick [PYTEST ARGS]    (or TAUMESH_TEST_QUICK=1) while working on a file: no system
#                                                      install and no whole-package checks, only the venv and pytest
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
quick="${TAUMESH_TEST_QUICK:-0}"
if [ "${1:-}" = "--quick" ]; then quick=1; shift; fi
if [ "$quick" = 1 ]; then
  source scripts/bootstrap.sh dev
  unset PYTHONDONTWRITEBYTECODE
  echo "== pytest (quick: no system packages, generated code, buf, layers, ruff, mypy or docs; CI runs them all)"
  exec pytest -q "$@"
fi
# the Debian packages (apt: mostly waiting on downloads and dpkg) install while the venv is made and the checks run
bash scripts/system-deps.sh &
system_deps=$!
source scripts/bootstrap.sh dev
# pytest caches its assertion-rewritten test modules as .pyc only when bytecode may be written: with
# PYTHONDONTWRITEBYTECODE set (as in some containers) each xdist worker rewrites all ~500 again, ~9 s of CPU each
unset PYTHONDONTWRITEBYTECODE
echo "== generated code is up to date";  python scripts/gen_protos.py --check
echo "== buf lint";                      (cd protos && buf lint)
if git rev-parse -q --verify main >/dev/null; then
  echo "== buf breaking (against main)"; (cd protos && buf breaking --against "../.git#branch=main,subdir=protos")
else
  echo "== buf breaking: skipped, no main branch in this checkout"
fi
echo "== layers (import-linter)";        lint-imports --no-cache
echo "== ruff";                          ruff check .; ruff format --check .  # two commands: under set -e a failing left side of && does not stop the script
# the docs site: every page, link and anchor, the CLI reference and OpenAPI rendered from the app (mkdocs.yml)
echo "== docs (mkdocs build --strict)";  docs_site="$(mktemp -d)"; NO_MKDOCS_2_WARNING=1 mkdocs build --strict --quiet --site-dir "$docs_site"; rm -rf "$docs_site"
# mypy (~45 s of one core with no cache, as in CI) checks beside the tests: its report and verdict come after them
mypy_log="$(mktemp)"
mypy taumesh >"$mypy_log" 2>&1 &  # services/ and orchestrator/ through the package links
mypy_pid=$!
echo "== τ² data (taumesh data fetch tau2)"
taumesh data fetch tau2 || echo "τ² data could not be fetched: the tests that need it skip, saying why (under CI they fail)"
wait "$system_deps"
# Every test, tiers included (slow, browser, kill: docs/testing.md); one xdist worker more than the cores (many
# tests wait on processes, sleeps and latency: 3 workers took 11.0 min of pytest against 11.8 with 2 on 2 cores),
# worksteal balancing the few long tests against the many short ones; the slowest are listed so a test that grew
# shows in CI's log.
echo "== pytest";                        tests=0
pytest -q -n "$(( $(nproc) + 1 ))" --dist worksteal --durations=25 "$@" || tests=$?
echo "== mypy";                          types=0; wait "$mypy_pid" || types=$?; cat "$mypy_log"
[ "$tests" -eq 0 ] && [ "$types" -eq 0 ]
