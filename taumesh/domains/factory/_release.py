"""A factory domain's release: its worlds, policy and solvers made into the files of ``data/``, checked on the way.

Every factory domain's build did the same: merge the worlds, solve each world's tasks (keeping only those whose
outputs are specific), refuse cued or unfair traps, refuse a train task and a test task touching the same entity,
and write one file per table, the policy, and the tasks of ``base`` (every task), ``train`` and ``test`` (the tasks of
the test worlds). :class:`Release` is that, declared once; a domain's ``build.py`` names its parts::

    RELEASE = Release(
        worlds=worlds, policy=POLICY, tasks_of_world=tasks_of_world, test_worlds=TEST_WORLDS,
        shared=("products",), shared_ids=("product_id",),
    )

    def main(argv: list[str] | None = None) -> int:
        return build_main(RELEASE.files, DATA, argv)

A domain whose choice in one world varies with what the earlier worlds chose (a trap's reason not yet shown) names
its solvers ``tasks_after_worlds=`` instead: they receive the tasks the worlds before are releasing too.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from taumesh.domains.factory._build import json_text
from taumesh.domains.factory._lint import output_spec, trap_cues, unfair_traps
from taumesh.domains.factory._policy import Policy
from taumesh.domains.factory._solver import task_record
from taumesh.domains.factory._task import FactoryTask
from taumesh.domains.factory._world import InvariantError, SeededWorld, World, check_disjoint, merge_worlds

TasksOfWorld = Callable[[World, str, int, Callable[[FactoryTask], bool]], list[FactoryTask]]
"""A domain's solvers over one world: ``(tables, tag, seed, accept) -> tasks``, keeping those ``accept`` takes."""

TasksAfterWorlds = Callable[[World, str, int, Callable[[FactoryTask], bool], Sequence[FactoryTask]], list[FactoryTask]]
"""Solvers that also see the earlier worlds' tasks: ``(tables, tag, seed, accept, earlier) -> tasks``."""


def world_tag(task: FactoryTask) -> str:
    """The world a task belongs to, by the convention every factory domain's ids follow: ``<kind>-<tag>-<n>``."""
    return task.user_id.split("-")[1]


@dataclass(frozen=True, kw_only=True)
class Release:
    """A factory domain's generated release: what it is made of, and the files it makes.

    Its solvers are one of ``tasks_of_world`` (each world on its own) or ``tasks_after_worlds`` (each world given the
    tasks of the worlds before it, in ``worlds()``' order, so that its choice can vary from theirs).
    """

    worlds: Callable[[], Sequence[SeededWorld]]
    policy: Policy
    tasks_of_world: TasksOfWorld | None = None
    tasks_after_worlds: TasksAfterWorlds | None = None
    test_worlds: Collection[str]
    """The tags of the worlds whose tasks are the test split; the others' are train."""
    shared: Sequence[str] = ()
    """Reference tables every world holds alike (``merge_worlds``' ``shared``); no tool writes them."""
    shared_ids: Collection[str] = ()
    """Arguments that name a shared reference record (``product_id``): not an entity a task touches."""
    created_marker: str | None = None
    """What marks an id the desk creates during a task (``-new-`` in ``inc-new-0001``): such an id is the same in
    every world and names no record of the base data, so it is not an entity a task touches either (``shared_ids``
    would also leave out a world's own record that a task names by the same argument)."""
    world_of: Callable[[FactoryTask], str] = world_tag

    def __post_init__(self) -> None:
        if (self.tasks_of_world is None) == (self.tasks_after_worlds is None):
            raise TypeError("a Release takes one of tasks_of_world and tasks_after_worlds")

    def touched(self, task: FactoryTask) -> set[str]:
        """The entities a task touches: its user, and every id an allowed outcome or a forbidden write names.

        Neither a shared reference record's id nor an id the desk creates during the task is one.
        """
        found = {task.user_id}
        for actions in [*task.outcomes(), task.forbidden]:
            for action in actions:
                found |= {
                    value
                    for key, value in action.kwargs.items()
                    if key.endswith("_id") and key not in self.shared_ids and isinstance(value, str) and value
                }
        if self.created_marker:
            found = {entity for entity in found if self.created_marker not in entity}
        return found

    def is_test(self, task: FactoryTask) -> bool:
        return self.world_of(task) in self.test_worlds

    def generate(self) -> tuple[dict[str, Any], list[FactoryTask]]:
        """The merged database and every task, checked; :class:`InvariantError` says what is wrong."""
        built = self.worlds()
        database = merge_worlds(built, shared=self.shared)
        policy = self.policy.markdown()
        tasks: list[FactoryTask] = []
        for world in built:
            tasks += self._tasks_of(world, lambda t: not output_spec(t.outputs, t.instruction, policy), tasks)
        problems = [f"{task_id}: cue {cue!r}" for task_id, cues in trap_cues(tasks).items() for cue in cues]
        problems += [f"{task_id}: {why}" for task_id, whys in unfair_traps(tasks).items() for why in whys]
        if problems:
            raise InvariantError("; ".join(problems[:10]))
        check_disjoint(
            {
                "train": [self.touched(t) for t in tasks if not self.is_test(t)],
                "test": [self.touched(t) for t in tasks if self.is_test(t)],
            }
        )
        return database, tasks

    def _tasks_of(
        self, world: SeededWorld, accept: Callable[[FactoryTask], bool], earlier: Sequence[FactoryTask]
    ) -> list[FactoryTask]:
        """One world's tasks, by the solvers the release names (those after the worlds given ``earlier``)."""
        if self.tasks_after_worlds is not None:
            return self.tasks_after_worlds(world.tables, world.tag, world.seed, accept, tuple(earlier))
        if self.tasks_of_world is not None:
            return self.tasks_of_world(world.tables, world.tag, world.seed, accept)
        raise TypeError("a Release takes one of tasks_of_world and tasks_after_worlds")

    def files(self) -> dict[str, str]:
        """Every file of ``data/``: one per table, the policy (``wiki.md``), and the tasks of each split."""
        database, tasks = self.generate()
        files = {f"{table}.json": json_text(records) for table, records in database.items()}
        files["wiki.md"] = self.policy.markdown()
        records = [(task_record(task), self.is_test(task)) for task in tasks]
        files["tasks_base.json"] = json_text([record for record, _ in records])
        files["tasks_train.json"] = json_text([record for record, test in records if not test])
        files["tasks_test.json"] = json_text([record for record, test in records if test])
        return files
