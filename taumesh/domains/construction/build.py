"""Write the project desk's worlds, policy and tasks to ``data/`` (``python -m taumesh.domains.construction.build``).

The worlds share no table: every contact, project, subcontractor and record a task names belongs to one world, and
the test world's are the test split's. ``--check`` names the shipped files the generator would now change.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains.construction.policy import POLICY
from taumesh.domains.construction.tasks import tasks_of_world
from taumesh.domains.construction.world import TEST_WORLDS, worlds
from taumesh.domains.factory import Release, build_main

DATA = Path(__file__).resolve().parent / "data"
RELEASE = Release(worlds=worlds, policy=POLICY, tasks_of_world=tasks_of_world, test_worlds=TEST_WORLDS)


def generated_files() -> dict[str, str]:
    """Every file of ``data/``: one per table, the policy, and the tasks of each split."""
    return RELEASE.files()


def main(argv: list[str] | None = None) -> int:
    """Write the files, or with ``--check`` report those that differ (exit 1)."""
    return build_main(generated_files, DATA, argv)


if __name__ == "__main__":
    raise SystemExit(main())
