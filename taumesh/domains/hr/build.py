"""Write the HR desk's worlds, policy and tasks to ``data/`` (``python -m taumesh.domains.hr.build [--check]``).

The factory's :class:`~taumesh.domains.factory.Release` checks every world against its invariants as it is built,
leaves out a task whose required outputs an agent could say without knowing them, and stops the build at a trap cued
by a sentence only traps carry, a forbidden write an allowed outcome makes, or a train and a test task touching one
entity. ``--check`` exits 1 when a shipped file differs from what the generator makes now.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains.factory import FactoryTask, Release, build_main
from taumesh.domains.hr.policy import POLICY
from taumesh.domains.hr.tasks import tasks_of_world
from taumesh.domains.hr.world import TEST_WORLDS, worlds

DATA = Path(__file__).resolve().parent / "data"


class DeskRelease(Release):
    """The desk's release, whose tasks also name records the desk creates in their session.

    Such an id (``swp-new-0001``, ``-new-``) is the same in every world and names no record of the base data, so a
    train and a test task naming it share no entity; the factory's ``shared_ids`` leaves out an argument by its name,
    which would also leave out a base swap request a task names by the same ``swap_id``.
    """

    def touched(self, task: FactoryTask) -> set[str]:
        return {entity for entity in super().touched(task) if "-new-" not in entity}


RELEASE = DeskRelease(
    worlds=worlds,
    policy=POLICY,
    tasks_of_world=tasks_of_world,
    test_worlds=TEST_WORLDS,
    shared=("pay_grades",),  # reference data every world holds alike; no tool writes it
)


def generated_files() -> dict[str, str]:
    """Every file of the release: one per table, the policy, and the tasks of each split."""
    return RELEASE.files()


def main(argv: list[str] | None = None) -> int:
    """Write the files, or with ``--check`` report those that differ (exit 1)."""
    return build_main(generated_files, DATA, argv)


if __name__ == "__main__":
    raise SystemExit(main())
