"""Write the education domain's worlds, policy and tasks to ``data/`` (``python -m <this module>``).

Every world is checked against its invariants as it is built; every task's required outputs are specific
(:func:`~taumesh.domains.factory.output_spec`), no trap is cued or unfair, and train and test touch no common
entity. ``--check`` exits 1 when the shipped files differ from what the generator makes now.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from taumesh.domains.education.policy import POLICY
from taumesh.domains.education.tasks import tasks_of_world
from taumesh.domains.education.world import TEST_WORLDS, worlds
from taumesh.domains.factory import (
    FactoryTask,
    InvariantError,
    build_main,
    check_disjoint,
    json_text,
    merge_worlds,
    output_spec,
    task_record,
    trap_cues,
    unfair_traps,
)

DATA = Path(__file__).resolve().parent / "data"


def world_of(task: FactoryTask) -> str:
    """The world a task belongs to: its person's id's tag."""
    return task.user_id.split("-")[1]


def touched(task: FactoryTask) -> set[str]:
    """The entities a task touches: its person, and every id an allowed outcome or a forbidden write names."""
    found = {task.user_id}
    for actions in [*task.outcomes(), task.forbidden]:
        for action in actions:
            found |= {v for k, v in action.kwargs.items() if k.endswith("_id") and isinstance(v, str) and v}
    return found


def generate() -> tuple[dict[str, Any], list[FactoryTask]]:
    """The merged database and every task, checked; InvariantError says what is wrong."""
    built = worlds()
    database = merge_worlds(built)
    policy = POLICY.markdown()
    tasks: list[FactoryTask] = []
    for world in built:
        tasks += tasks_of_world(
            world.tables, world.tag, world.seed, lambda t: not output_spec(t.outputs, t.instruction, policy)
        )
    problems = [f"{task_id}: cue {cue!r}" for task_id, cues in trap_cues(tasks).items() for cue in cues]
    problems += [f"{task_id}: {why}" for task_id, whys in unfair_traps(tasks).items() for why in whys]
    if problems:
        raise InvariantError("; ".join(problems[:10]))
    check_disjoint(
        {
            "train": [touched(t) for t in tasks if world_of(t) not in TEST_WORLDS],
            "test": [touched(t) for t in tasks if world_of(t) in TEST_WORLDS],
        }
    )
    return database, tasks


def generated_files() -> dict[str, str]:
    """Every file of ``data/``: one per table, the policy, and the tasks of each split."""
    database, tasks = generate()
    files = {f"{table}.json": json_text(records) for table, records in database.items()}
    files["wiki.md"] = POLICY.markdown()
    records = [task_record(task) for task in tasks]
    split = [world_of(task) in TEST_WORLDS for task in tasks]
    files["tasks_base.json"] = json_text(records)
    files["tasks_train.json"] = json_text([r for r, test in zip(records, split, strict=True) if not test])
    files["tasks_test.json"] = json_text([r for r, test in zip(records, split, strict=True) if test])
    return files


def main(argv: list[str] | None = None) -> int:
    """Write the files, or with ``--check`` report those that differ (exit 1)."""
    return build_main(generated_files, DATA, argv)


if __name__ == "__main__":
    raise SystemExit(main())
