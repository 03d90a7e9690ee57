"""Write the HR desk's worlds, policy and tasks to ``data/`` (``python -m taumesh.domains.hr.build [--check]``).

The factory's :class:`~taumesh.domains.factory.Release` checks every world against its invariants as it is built,
leaves out a task whose required outputs an agent could say without knowing them, and stops the build at a trap cued
by a sentence only traps carry, a forbidden write an allowed outcome makes, or a train and a test task touching one
entity. ``--check`` exits 1 when a shipped file differs from what the generator makes now.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains.factory import Release, build_main
from taumesh.domains.hr.policy import POLICY
from taumesh.domains.hr.tasks import tasks_of_world
from taumesh.domains.hr.world import TEST_WORLDS, worlds

DATA = Path(__file__).resolve().parent / "data"


RELEASE = Release(
    worlds=worlds,
    policy=POLICY,
    tasks_of_world=tasks_of_world,
    test_worlds=TEST_WORLDS,
    shared=("pay_grades",),  # reference data every world holds alike; no tool writes it
    created_marker="-new-",  # swp-new-0001: a record the desk creates in the session, the same id in every world
)


def generated_files() -> dict[str, str]:
    """Every file of the release: one per table, the policy, and the tasks of each split."""
    return RELEASE.files()


def main(argv: list[str] | None = None) -> int:
    """Write the files, or with ``--check`` report those that differ (exit 1)."""
    return build_main(generated_files, DATA, argv)


if __name__ == "__main__":
    raise SystemExit(main())
