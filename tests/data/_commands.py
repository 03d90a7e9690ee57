"""Running ``taumesh data`` as a real command, in a clean environment."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from pathlib import Path

_DROPPED = {"TAUMESH_DATA_DIR", "TAUMESH_CACHE_DIR", "TAUMESH_TAU2_WHEEL_SHA256"}


def clean_env(cache: Path, **extra: str) -> dict[str, str]:
    """This environment without taumesh's data settings and pip's own (config files, indexes, links), plus ``extra``.

    pip must see only the index a test gives it: no user or machine configuration, no cache, no proxy for loopback.
    """
    env = {k: v for k, v in os.environ.items() if k not in _DROPPED and not k.startswith("PIP_")}
    env.update(
        {
            "TAUMESH_CACHE_DIR": str(cache),
            "PIP_CONFIG_FILE": os.devnull,
            "PIP_NO_CACHE_DIR": "1",
            "PIP_DISABLE_PIP_VERSION_CHECK": "1",
            "NO_PROXY": "127.0.0.1,localhost",
            "no_proxy": "127.0.0.1,localhost",
            "COLUMNS": "200",
            "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        }
    )
    env.update(extra)
    return env


@functools.cache
def data_command() -> tuple[str, ...]:
    """``taumesh data`` once the CLI mounts the sub-app; until then the same typer app through ``python -m``."""
    script = Path(sys.executable).parent / "taumesh"
    if script.is_file():
        mounted = subprocess.run([str(script), "data", "--help"], capture_output=True, text=True, check=False)
        if mounted.returncode == 0:
            return (str(script), "data")
    return (sys.executable, "-m", "taumesh.commands.data")


def data(env: dict[str, str], *args: str | Path) -> subprocess.CompletedProcess[str]:
    """``taumesh data ARGS`` with ``env``."""
    return subprocess.run(
        [*data_command(), *map(str, args)], capture_output=True, text=True, env=env, timeout=300, check=False
    )


def explain(proc: subprocess.CompletedProcess[str]) -> str:
    return f"exit {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
