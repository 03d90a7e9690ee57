"""Write the manufacturing domain's worlds, policy and tasks to ``data/`` (``python -m <this module>``).

The worlds share the parts catalogue; every contact, work order, lot, line and machine belongs to one world, and
the test world's are the test split's. ``--check`` names the shipped files the generator would now change.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains.factory import Release, build_main
from taumesh.domains.manufacturing.policy import POLICY
from taumesh.domains.manufacturing.tasks import tasks_of_world
from taumesh.domains.manufacturing.world import TEST_WORLDS, worlds

DATA = Path(__file__).resolve().parent / "data"
RELEASE = Release(
    worlds=worlds,
    policy=POLICY,
    tasks_of_world=tasks_of_world,
    test_worlds=TEST_WORLDS,
    shared=("parts",),  # the parts catalogue every world holds alike; no tool writes it
)


def generated_files() -> dict[str, str]:
    """Every file of ``data/``: one per table, the policy, and the tasks of each split."""
    return RELEASE.files()


def main(argv: list[str] | None = None) -> int:
    """Write the files, or with ``--check`` report those that differ (exit 1)."""
    return build_main(generated_files, DATA, argv)


if __name__ == "__main__":
    raise SystemExit(main())
