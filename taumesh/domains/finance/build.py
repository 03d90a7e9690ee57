"""Write the finance domain's worlds, policy and tasks to ``data/`` (``python -m taumesh.domains.finance.build``).

The worlds share the securities and model portfolios, so a model named in a task is no entity of a world; every
client, account and holding belongs to one world, and the test world's are the test split's. ``--check`` names the
shipped files the generator would now change.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains.factory import Release, build_main
from taumesh.domains.finance.policy import POLICY
from taumesh.domains.finance.tasks import tasks_after_worlds
from taumesh.domains.finance.world import SHARED, TEST_WORLDS, worlds

DATA = Path(__file__).resolve().parent / "data"
RELEASE = Release(
    worlds=worlds,
    policy=POLICY,
    tasks_after_worlds=tasks_after_worlds,
    test_worlds=TEST_WORLDS,
    shared=SHARED,
    shared_ids=("model_id",),  # a model portfolio is shared reference data, which no tool writes
)


def generated_files() -> dict[str, str]:
    """Every file of ``data/``: one per table, the policy, and the tasks of each split."""
    return RELEASE.files()


def main(argv: list[str] | None = None) -> int:
    """Write the files, or with ``--check`` report those that differ (exit 1)."""
    return build_main(generated_files, DATA, argv)


if __name__ == "__main__":
    raise SystemExit(main())
