"""``taumesh domain`` as a real subprocess, its command found once per test process.

:func:`tests.domains.test_domain_commands.domain` asks ``taumesh domain --help`` (a process start, ~0.5 s of CPU)
which command to run before every command it runs; :func:`domain` here asks once and runs the same command, in the
same way (the directory it is given, the same environment), so every command is still a process of its own.
"""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

from tests.domains.test_domain_commands import clean_env
from tests.domains.test_domain_commands import domain_command as _domain_command

domain_command = functools.cache(_domain_command)
"""``taumesh domain`` (or ``python -m taumesh.commands.domain`` while the CLI does not mount it), found once."""


def domain(cwd: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    """``taumesh domain ARGS`` run in ``cwd`` to completion (never raises on a non-zero exit)."""
    return subprocess.run(
        [*domain_command(), *map(str, args)], capture_output=True, text=True, cwd=cwd, env=clean_env(), timeout=300
    )
