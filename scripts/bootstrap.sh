#!/usr/bin/env bash
# Make .venv (Python 3.11) hold taumesh and its dependencies; reinstall only when pyproject.toml changes.
# Usage: source scripts/bootstrap.sh base|dev   ("dev" adds the test tools; always name one: a sourced
# script sees its caller's arguments otherwise)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "${1:-}" in
  base) EXTRA="" ;;
  dev) EXTRA="dev" ;;
  *) echo "bootstrap.sh: say base or dev, not '${1:-}'" >&2; return 2 2>/dev/null || exit 2 ;;
esac
PYTHON="${PYTHON:-$(command -v python3.11 || command -v python3)}"
"$PYTHON" -c 'import sys; assert sys.version_info[:2] == (3, 11), f"taumesh needs Python 3.11, found {sys.version}"'
if [ ! -x "$ROOT/.venv/bin/python" ]; then
  "$PYTHON" -m venv "$ROOT/.venv"
fi
STAMP="$ROOT/.venv/.taumesh-installed-${EXTRA:-base}"
WANT="$(sha256sum "$ROOT/pyproject.toml" | cut -d' ' -f1)"
if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$WANT" ]; then
  "$ROOT/.venv/bin/python" -m pip install --quiet --upgrade pip
  if [ -n "$EXTRA" ]; then
    "$ROOT/.venv/bin/python" -m pip install --quiet -e "$ROOT[$EXTRA]"
  else
    "$ROOT/.venv/bin/python" -m pip install --quiet -e "$ROOT"
  fi
  echo "$WANT" > "$STAMP"
fi
export PATH="$ROOT/.venv/bin:$PATH"
export LITELLM_LOCAL_MODEL_COST_MAP=True
