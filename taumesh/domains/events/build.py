"""Write the box office's worlds, policy and tasks to ``data/`` (``python -m taumesh.domains.events.build``).

Attendees and organisers alike are callers of one world (``att-w3-…``, ``org-w3-…``), and the test world's are never
a train task's. ``--check`` names the shipped files the generator would now change.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains.events.policy import POLICY
from taumesh.domains.events.tasks import tasks_of_world
from taumesh.domains.events.world import TEST_WORLDS, worlds
from taumesh.domains.factory import Release, build_main

DATA = Path(__file__).resolve().parent / "data"
RELEASE = Release(worlds=worlds, policy=POLICY, tasks_of_world=tasks_of_world, test_worlds=TEST_WORLDS)


def generated_files() -> dict[str, str]:
    """Every file of the release: one per table, the policy, and the tasks of each split."""
    return RELEASE.files()


def main(argv: list[str] | None = None) -> int:
    """Write the files, or with ``--check`` report those that differ (exit 1)."""
    return build_main(generated_files, DATA, argv)


if __name__ == "__main__":
    raise SystemExit(main())
