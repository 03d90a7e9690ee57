"""τ-bench's ``python run.py …`` as ``python -m taumesh.run …``: the same flags, played by ``taumesh run``.

τ-bench v1's ``run.py`` and the forks' copies of it (τ++'s among them) take their flags on ``run.py`` itself.
``taumesh run`` takes each of them with its spelling and default (docs/coming-from.md), so a script's line changes in
its first words only: ``python run.py --env retail …`` becomes ``python -m taumesh.run --env retail …``. The preflight
is the same: a missing key, data not imported or τ-bench's user prompts not imported stop it before any episode.
"""

from __future__ import annotations

import sys

from taumesh.cli import main as taumesh_main


def main(argv: list[str] | None = None) -> None:
    """``taumesh run ARGV`` (ARGV: this process's arguments when None)."""
    sys.argv = ["taumesh", "run", *(sys.argv[1:] if argv is None else argv)]
    taumesh_main()


if __name__ == "__main__":
    main()
