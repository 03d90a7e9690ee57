"""Write the sales domain's worlds, policy and tasks to ``data/`` (``python -m taumesh.domains.sales.build``).

The factory's :class:`~taumesh.domains.factory.Release` checks every world against its invariants as it is built,
every task's required outputs for specificity, the traps for cues and fairness, and that train and test touch no
common entity. ``--check`` exits 1 when the shipped files differ from what the generator makes now.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains.factory import Release, build_main
from taumesh.domains.sales.policy import POLICY
from taumesh.domains.sales.tasks import tasks_after_worlds
from taumesh.domains.sales.world import SHARED, TEST_WORLDS, worlds

DATA = Path(__file__).resolve().parent / "data"
RELEASE = Release(
    worlds=worlds,
    policy=POLICY,
    tasks_after_worlds=tasks_after_worlds,
    test_worlds=TEST_WORLDS,
    shared=SHARED,  # the price book, which no tool writes
    shared_ids=("product_id",),
)


def generated_files() -> dict[str, str]:
    """Every file of the release: one per table, the policy, and the tasks of each split."""
    return RELEASE.files()


def main(argv: list[str] | None = None) -> int:
    """Write the files, or with ``--check`` report those that differ (exit 1)."""
    return build_main(generated_files, DATA, argv)


if __name__ == "__main__":
    raise SystemExit(main())
