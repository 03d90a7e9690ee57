"""Write the security desk's worlds, policy and tasks to ``data/`` (``python -m <this module>``).

The factory's :class:`~taumesh.domains.factory.Release` ships nothing unless every world keeps its invariants, every
required output is one an agent can only know by doing the work, no trap is cued by its wording or forbids a write an
allowed outcome makes, and no test task touches a caller or record a train task touches. ``--check`` exits 1 when
the shipped files are not what the generator makes now.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains.cybersecurity.policy import POLICY
from taumesh.domains.cybersecurity.tasks import tasks_of_world
from taumesh.domains.cybersecurity.world import TEST_WORLDS, worlds
from taumesh.domains.factory import Release, build_main

DATA = Path(__file__).resolve().parent / "data"
RELEASE = Release(
    worlds=worlds,
    policy=POLICY,
    tasks_of_world=tasks_of_world,
    test_worlds=TEST_WORLDS,
    shared=("playbooks",),  # reference data every world holds alike; no tool writes it
    created_marker="-new-",  # an incident the desk opens during a task (inc-new-0001) belongs to no world
)


def generated_files() -> dict[str, str]:
    """Every file of ``data/``: one per table, the policy, and the tasks of each split."""
    return RELEASE.files()


def main(argv: list[str] | None = None) -> int:
    """Write the files, or with ``--check`` report those that differ (exit 1)."""
    return build_main(generated_files, DATA, argv)


if __name__ == "__main__":
    raise SystemExit(main())
