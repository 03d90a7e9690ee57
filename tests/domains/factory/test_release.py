"""The factory's release and drafts: a solver's draft becomes a task, and a release makes ``data/``'s files,
refusing a train task and a test task that touch the same entity."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

import pytest

from taumesh.domains.factory import (
    FactoryTask,
    InvariantError,
    Policy,
    Release,
    SeededWorld,
    TaskDraft,
    World,
    act,
    build_worlds,
)

POLICY = Policy.build("Counters", "A desk that moves counters.", [("Counters", ["Never set a counter above 9."])])


def _world(seed: int, tag: str) -> World:
    return {"users": {f"user-{tag}-1": {"counter": seed}}, "limits": {"top": {"value": 9}}}


def _worlds() -> list[SeededWorld]:
    return build_worlds(_world, {"w1": 1, "w2": 2, "w3": 3}, [])


def _solve(target: Callable[[str], str]) -> Callable[..., list[FactoryTask]]:
    def tasks_of_world(world: World, tag: str, seed: int, accept: Callable[[FactoryTask], bool]) -> list[FactoryTask]:
        user = f"user-{tag}-1"
        draft = TaskDraft(intent="raise", dual=tag == "w2")
        draft.step("either verification", [act("find", name=user)], [])
        draft.do(act("set_counter", user_id=target(tag), value=seed + 1)).cite("1.1")
        if seed == 3:
            draft.trap("1.1", act("set_counter", user_id=user, value=10)).say("text", "above 9|too high", "why not")
        task = draft.factory_task(f"raise-{tag}", user, f"You are {user}.", "easy")
        return [task] if accept(task) else []

    return tasks_of_world


def test_a_draft_becomes_a_task_with_its_outcomes_and_metadata() -> None:
    task = _solve(lambda tag: f"user-{tag}-1")({}, "w3", 3, lambda _: True)[0]
    assert [a.name for a in task.actions] == ["find", "set_counter"]  # each step's first alternative
    assert len(list(task.outcomes())) == 2 and task.trap and task.trap_rationale == "1.1"
    assert task.outputs == [] and task.statements[0].kind == "text"  # a text statement is checked by its phrases
    assert (task.intent, task.solver, task.clauses, task.dual_control) == ("raise", "raise", ["1.1"], False)


def test_a_release_writes_every_table_the_policy_and_the_splits() -> None:
    release = Release(worlds=_worlds, policy=POLICY, tasks_of_world=_solve(lambda tag: f"user-{tag}-1"),
                      test_worlds={"w3"}, shared=("limits",))  # fmt: skip
    files = release.files()
    assert set(files) == {"users.json", "limits.json", "wiki.md", "tasks_base.json", "tasks_train.json",
                          "tasks_test.json"}  # fmt: skip
    ids = {split: [t["id"] for t in json.loads(files[f"tasks_{split}.json"])] for split in ("base", "train", "test")}
    assert ids == {
        "base": ["raise-w1", "raise-w2", "raise-w3"],
        "train": ["raise-w1", "raise-w2"],
        "test": ["raise-w3"],
    }
    assert json.loads(files["tasks_test.json"])[0]["forbidden"][0]["requestor"] == "assistant"


def test_a_release_refuses_train_and_test_touching_one_entity() -> None:
    shared_user = Release(worlds=_worlds, policy=POLICY, tasks_of_world=_solve(lambda tag: "user-w1-1"),
                          test_worlds={"w3"}, shared=("limits",))  # fmt: skip
    with pytest.raises(InvariantError, match="user-w1-1"):
        shared_user.files()


def test_solvers_after_the_worlds_see_the_tasks_the_earlier_worlds_release() -> None:
    seen: dict[str, list[str]] = {}
    solve = _solve(lambda tag: f"user-{tag}-1")

    def tasks_after_worlds(world: World, tag: str, seed: int, accept: Callable[[FactoryTask], bool],
                           earlier: Sequence[FactoryTask]) -> list[FactoryTask]:  # fmt: skip
        seen[tag] = [task.id for task in earlier]
        return solve(world, tag, seed, accept)

    release = Release(worlds=_worlds, policy=POLICY, tasks_after_worlds=tasks_after_worlds, test_worlds={"w3"},
                      shared=("limits",))  # fmt: skip
    assert [t["id"] for t in json.loads(release.files()["tasks_base.json"])] == ["raise-w1", "raise-w2", "raise-w3"]
    assert seen == {"w1": [], "w2": ["raise-w1"], "w3": ["raise-w1", "raise-w2"]}


def test_a_release_takes_exactly_one_kind_of_solver() -> None:
    solve = _solve(lambda tag: f"user-{tag}-1")
    with pytest.raises(TypeError, match="one of"):
        Release(worlds=_worlds, policy=POLICY, test_worlds={"w3"})
    with pytest.raises(TypeError, match="one of"):
        Release(worlds=_worlds, policy=POLICY, tasks_of_world=solve, tasks_after_worlds=lambda *a: solve(*a[:4]),
                test_worlds={"w3"})  # fmt: skip


def test_an_id_the_desk_creates_during_a_task_is_no_entity_the_splits_share() -> None:
    def release(marker: str | None) -> Release:
        return Release(worlds=_worlds, policy=POLICY, tasks_of_world=_solve(lambda tag: "user-new-1"),
                       test_worlds={"w3"}, shared=("limits",), created_marker=marker)  # fmt: skip

    with pytest.raises(InvariantError, match="user-new-1"):
        release(None).files()
    assert json.loads(release("-new-").files()["tasks_test.json"])[0]["id"] == "raise-w3"
