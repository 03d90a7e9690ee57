"""Write the domain's worlds, policy and tasks to ``data/`` (``python -m taumesh.domains.real_estate.build``).

The agency's release is the factory's with two checks more (:class:`ListingRelease`): clients name listings by their
address, and the audit reads the test split alone. ``--check`` names the shipped files that are stale.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from taumesh.domains.factory import FactoryTask, InvariantError, Release, build_main, trap_cues
from taumesh.domains.real_estate.layout import DATA
from taumesh.domains.real_estate.policy import POLICY
from taumesh.domains.real_estate.tasks import tasks_of_world
from taumesh.domains.real_estate.world import TEST_WORLDS, worlds


def _same_addresses(database: dict[str, Any]) -> list[str]:
    counts = Counter(listing["address"] for listing in database["listings"].values())
    return [f"address {address!r} is listed {n} times" for address, n in counts.items() if n > 1]


@dataclass(frozen=True)
class ListingRelease(Release):
    """The factory's release, refusing also a listing address found twice and a trap cued in the test split alone.

    The client names a listing by its address; the audit looks at each split alone, and a cue that the whole release
    dilutes may show among the test split's few traps.
    """

    def generate(self) -> tuple[dict[str, Any], list[FactoryTask]]:
        database, tasks = super().generate()
        test = [task for task in tasks if self.is_test(task)]
        problems = _same_addresses(database)
        problems += [f"{task_id}: cue {cue!r}" for task_id, cues in trap_cues(test).items() for cue in cues]
        if problems:
            raise InvariantError("; ".join(problems[:10]))
        return database, tasks


RELEASE = ListingRelease(worlds=worlds, policy=POLICY, tasks_of_world=tasks_of_world, test_worlds=TEST_WORLDS)


def generated_files() -> dict[str, str]:
    """Every file: one per table, the policy, and the tasks of each split (base is every task)."""
    return RELEASE.files()


def main(argv: list[str] | None = None) -> int:
    """Write the files, or with ``--check`` report those that differ (exit 1)."""
    return build_main(generated_files, DATA, argv)


if __name__ == "__main__":
    raise SystemExit(main())
