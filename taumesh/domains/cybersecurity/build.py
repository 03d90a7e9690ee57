"""Write the security desk's worlds, policy and tasks to ``data/`` (``python -m <this module>``).

Nothing ships unless every world keeps its invariants, every required output is one an agent can only know by
doing the work (:func:`~taumesh.domains.factory.output_spec`), no trap is cued by its wording or forbids a write an
allowed outcome makes, and no test task touches a caller or record a train task touches. ``--check`` exits 1 when
the shipped files are not what the generator makes now.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from taumesh.domains.cybersecurity.policy import POLICY
from taumesh.domains.cybersecurity.tasks import tasks_of_world
from taumesh.domains.cybersecurity.world import TEST_WORLDS, worlds
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
    """The world a task belongs to: its caller's id's tag."""
    return task.user_id.split("-")[1]


def touched(task: FactoryTask) -> set[str]:
    """The entities a task touches: its caller, and every world record an allowed outcome or a forbidden write names.

    Records the desk creates during the task (``inc-new-0001``) belong to no world, so they are left out.
    """
    found = {task.user_id}
    for actions in [*task.outcomes(), task.forbidden]:
        for action in actions:
            found |= {
                v for k, v in action.kwargs.items() if k.endswith("_id") and isinstance(v, str) and "-new-" not in v
            }
    return found


def generate() -> tuple[dict[str, Any], list[FactoryTask]]:
    """The merged database and every task, checked; InvariantError says what is wrong."""
    built = worlds()
    database = merge_worlds(built, shared=["playbooks"])
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
