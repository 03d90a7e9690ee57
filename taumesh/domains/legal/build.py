"""Write the legal domain's worlds, policy and tasks to ``data/`` (``python -m taumesh.domains.legal.build``).

The worlds share the firm's document templates and its corpus of authorities, so a template or authority named in a
task is no entity of a world; every lawyer, client, contact and matter belongs to one world, and the test world's
are the test split's. ``--check`` names the shipped files the generator would now change.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains.factory import Release, build_main
from taumesh.domains.legal.policy import POLICY
from taumesh.domains.legal.tasks import tasks_after_worlds
from taumesh.domains.legal.world import SHARED, TEST_WORLDS, worlds

DATA = Path(__file__).resolve().parent / "data"
RELEASE = Release(
    worlds=worlds,
    policy=POLICY,
    tasks_after_worlds=tasks_after_worlds,
    test_worlds=TEST_WORLDS,
    shared=SHARED,
    shared_ids=("template_id", "authority_id"),  # the firm's shared templates and corpus: not entities of a world
)


def generated_files() -> dict[str, str]:
    """Every file of ``data/``: one per table, the policy, and the tasks of each split."""
    return RELEASE.files()


def main(argv: list[str] | None = None) -> int:
    """Write the files, or with ``--check`` report those that differ (exit 1)."""
    return build_main(generated_files, DATA, argv)


if __name__ == "__main__":
    raise SystemExit(main())
