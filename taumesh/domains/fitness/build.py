"""Write the club's worlds, policy and tasks to ``data/`` (``python -m taumesh.domains.fitness.build [--check]``).

The factory's :class:`~taumesh.domains.factory.Release` checks each world against its invariants as it is built,
leaves out a task whose required outputs an agent could say without knowing them, and refuses a cued or unfair trap
and a train task touching what a test task touches. ``--check`` exits 1 when the shipped files differ from what the
generator makes now.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains.factory import Release, build_main
from taumesh.domains.fitness.policy import POLICY
from taumesh.domains.fitness.tasks import tasks_of_world
from taumesh.domains.fitness.world import TEST_WORLDS, worlds

DATA = Path(__file__).resolve().parent / "data"
RELEASE = Release(worlds=worlds, policy=POLICY, tasks_of_world=tasks_of_world, test_worlds=TEST_WORLDS)


def generated_files() -> dict[str, str]:
    """Every shipped file: one per table, the policy, and the tasks of each split (base holds them all)."""
    return RELEASE.files()


def main(argv: list[str] | None = None) -> int:
    """Write the files, or with ``--check`` report those that differ (exit 1)."""
    return build_main(generated_files, DATA, argv)


if __name__ == "__main__":
    raise SystemExit(main())
