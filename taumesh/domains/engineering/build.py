"""Write the engineering domain's worlds, policy and tasks to ``data/`` (``python -m <this module>``).

The factory's :class:`~taumesh.domains.factory.Release` checks every world's invariants, every task's outputs, its
traps (neither cued nor unfair) and that train (w1, w2) and test (w3) touch no common entity; ``--check`` exits 1
when the shipped files differ from what the generator makes now.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains.engineering.policy import POLICY
from taumesh.domains.engineering.tasks import tasks_of_world
from taumesh.domains.engineering.world import TEST_WORLDS, worlds
from taumesh.domains.factory import Release, build_main

DATA = Path(__file__).resolve().parent / "data"
RELEASE = Release(worlds=worlds, policy=POLICY, tasks_of_world=tasks_of_world, test_worlds=TEST_WORLDS)


def main(argv: list[str] | None = None) -> int:
    """Write the files, or with ``--check`` report those that differ (exit 1)."""
    return build_main(RELEASE.files, DATA, argv)


if __name__ == "__main__":
    raise SystemExit(main())
