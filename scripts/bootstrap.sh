#!/usr/bin/env bash
# Make .venv (Python 3.11) hold taumesh and its dependencies; reinstall only when pyproject.toml changes.
# Usage: source scripts/bootstrap.sh base|dev   ("dev" adds the test tools; always name one: a sourced
# script sees its caller's arguments otherwise)
# Sourced, it leaves the caller's shell as it was but for PATH and LITELLM_LOCAL_MODEL_COST_MAP: the strict
# part (set -euo pipefail) runs in a subshell, so a later failing command does not close the terminal.

_taumesh_install() (
  set -euo pipefail
  root="$1"
  case "$2" in
    base) extra="" ;;
    dev) extra="dev" ;;
    *) echo "bootstrap.sh: say base or dev, not '$2'" >&2; exit 2 ;;
  esac
  python="${PYTHON:-$(command -v python3.11 || command -v python3)}"
  "$python" -c 'import sys; assert sys.version_info[:2] == (3, 11), f"taumesh needs Python 3.11, found {sys.version}"'
  if [ ! -x "$root/.venv/bin/python" ]; then
    echo "bootstrap: creating .venv with $("$python" --version)"
    "$python" -m venv "$root/.venv"
  fi
  stamp="$root/.venv/.taumesh-installed-${extra:-base}"
  want="$(sha256sum "$root/pyproject.toml" | cut -d' ' -f1)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    venv_python="$root/.venv/bin/python"
    target="$root${extra:+[$extra]}"
    # uv installs the same resolution as pip in about a fifth of the time (16 s against 77 s on 2 cores, which
    # counts in CI's 10 minutes); pip remains the way when uv cannot be had. A first install takes minutes, so
    # each phase says what it does and uv shows its own progress (resolved, prepared, installed)
    echo "bootstrap: installing taumesh${extra:+ with its $extra tools} into .venv (pyproject.toml changed or first use; a first install takes a few minutes)"
    echo "bootstrap: [1/3] installing uv"
    if "$venv_python" -m pip install --quiet --disable-pip-version-check uv; then
      echo "bootstrap: [2/3] resolving and installing the dependencies with uv"
      "$venv_python" -m uv pip install --python "$venv_python" --compile-bytecode -e "$target"
    else
      echo "bootstrap: [2/3] uv could not be installed; installing the dependencies with pip"
      "$venv_python" -m pip install --progress-bar on -e "$target"
    fi
    echo "bootstrap: [3/3] done; the next run reuses .venv until pyproject.toml changes"
    echo "$want" > "$stamp"
  fi
)

_taumesh_root="$(CDPATH='' cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if _taumesh_install "$_taumesh_root" "${1:-}"; then
  export PATH="$_taumesh_root/.venv/bin:$PATH"
  export LITELLM_LOCAL_MODEL_COST_MAP=True
  unset -f _taumesh_install
  unset _taumesh_root
else
  _taumesh_status=$?
  unset -f _taumesh_install
  unset _taumesh_root
  # sourced: hand the failure back to the caller's shell; run as a program: exit with it
  return "$_taumesh_status" 2>/dev/null || exit "$_taumesh_status"
fi
