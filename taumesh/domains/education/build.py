"""Write the education domain's worlds, policy and tasks to ``data/`` (``python -m <this module>``).

The factory's :class:`~taumesh.domains.factory.Release` checks every world against its invariants as it is built,
every task's required outputs for specificity, the traps for cues and fairness, and that train and test touch no
common entity. ``--check`` exits 1 when the shipped files differ from what the generator makes now.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains.education.policy import POLICY
from taumesh.domains.education.tasks import tasks_of_world
from taumesh.domains.education.world import TEST_WORLDS, worlds
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
