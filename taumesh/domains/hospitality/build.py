"""Write the hotel worlds, policy and tasks to ``data/`` (``python -m taumesh.domains.hospitality.build``).

The hotels' rate plans are one table every world holds alike; guests, rooms and reservations belong to one world,
and the test worlds' guests are never a train task's. ``--check`` names the shipped files that are stale.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains.factory import Release, build_main
from taumesh.domains.hospitality.policy import POLICY
from taumesh.domains.hospitality.tasks import tasks_of_world
from taumesh.domains.hospitality.world import TEST_WORLDS, worlds

DATA = Path(__file__).resolve().parent / "data"
RELEASE = Release(
    worlds=worlds,
    policy=POLICY,
    tasks_of_world=tasks_of_world,
    test_worlds=TEST_WORLDS,
    shared=("rate_plans",),  # reference data every world holds alike; no tool writes it
)


def generated_files() -> dict[str, str]:
    """Every file of the release: one per table, the policy, and the tasks of each split."""
    return RELEASE.files()


def main(argv: list[str] | None = None) -> int:
    """Write the files, or with ``--check`` report those that differ (exit 1)."""
    return build_main(generated_files, DATA, argv)


if __name__ == "__main__":
    raise SystemExit(main())
