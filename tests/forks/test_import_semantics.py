"""Importing a tiny fork the test writes: what loads, what not and why, and the fork's own semantics exactly."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import Catalog, Domain, Episode, Registry, ToolCrash
from taumesh.forks._check import check_fork
from taumesh.forks._import import import_fork
from taumesh.forks._record import ForkRecord
from tests.forks.tinyfork import write_fork


def _fork_hash(data: Any) -> str:
    """The tiny fork's own hash, computed here independently: sha256 of str() of the sorted tuple form."""

    def hashable(item: Any) -> Any:
        if isinstance(item, dict):
            return tuple((key, hashable(value)) for key, value in sorted(item.items()))
        if isinstance(item, list):
            return tuple(hashable(element) for element in item)
        return item

    return hashlib.sha256(str(hashable(data)).encode("utf-8")).hexdigest()


def _counter(record: ForkRecord) -> Domain:
    return Catalog(Path("/nonexistent")).get("fork:tiny/counter")


def test_import_registers_loadable_envs_and_says_why_not(fork_env: ForkRecord) -> None:
    assert sorted(fork_env.envs) == ["copycat", "counter"]
    assert fork_env.failed == {
        "broken": "ImportError: this environment is broken on purpose",
        "clinic": "LookupError: no split loads: test: ImportError: cannot import name 'TASKS_TEST' from "
        "'tau_bench.envs.clinic.tasks_test' "
        f"({fork_env.root}/tau_bench/envs/clinic/tasks_test.py); its 2 tasks are copied from another environment: "
        "their gold actions name book_reservation, tools it lacks",
        "my-env": "not an importable Python package name",
    }
    counter = fork_env.envs["counter"]
    assert counter.terminate_tools == ["transfer_to_human_agents"]
    assert counter.rules == ["be nice"] and counter.wiki.startswith("# The counter policy")
    assert counter.splits == {"test": 7}
    # the tiny fork's base code is its own: followed where it runs (step, hash), its missing reward said
    assert "envs/base.py's Env.step differs from upstream's: the fork's own runs in its worker" in fork_env.differences
    assert "envs/base.py has no Env.calculate_reward" in fork_env.differences
    registry = Registry.discover()
    assert {"fork:tiny/counter", "fork:tiny/copycat"} <= set(registry.names())
    assert not [name for name in registry.broken if name.startswith("fork:")]


def test_a_second_import_replaces_the_first(fork_env: ForkRecord, tmp_path: Path) -> None:
    again = import_fork(write_fork(tmp_path / "tiny"), name="tiny2")
    assert sorted(again.envs) == ["copycat", "counter"]
    assert "fork:tiny2/counter" in Registry.discover().names()


def test_not_a_fork_is_a_clear_error(fork_env: ForkRecord, tmp_path: Path) -> None:
    from taumesh.domains import DataError

    with pytest.raises(DataError, match="neither tau_bench/envs/ nor tau/tau_bench/envs/"):
        import_fork(tmp_path)


def test_observations_errors_terminate_and_hash_are_the_forks(fork_env: ForkRecord) -> None:
    domain = _counter(fork_env)
    data = json.loads((Path(fork_env.root) / "tau_bench/envs/counter/data.json").read_text())
    assert domain.initial_hash == _fork_hash(data)
    assert [schema["function"]["name"] for schema in domain.tool_schemas][:2] == ["get_counter", "increment"]
    session = domain.open_session(domain.find_task("test", "0"))
    steps = [
        domain.call_tool(session, name, arguments)
        for name, arguments in [
            ("get_counter", {"counter_id": "a"}),
            ("increment", {"counter_id": "a", "amount": 2}),
            ("get_counter", {"counter_id": "nope"}),
            ("increment", {"counter_id": "nope", "amount": 1}),
            ("get_counter", {}),
            ("boom", {}),
            ("no_such_tool", {}),
            ("transfer_to_human_agents", {"summary": "bye"}),
        ]
    ]
    assert [step.observation for step in steps] == [
        '{"value": 1}',
        '{"value": 3}',
        "Error: counter not found",  # the tool raised ValueError
        "Error: counter not found",
        "Error: GetCounter.invoke() missing 1 required positional argument: 'counter_id'",
        "Error: the boom tool always raises",
        "Unknown action no_such_tool",
        "Transfer successful",
    ]


def test_sessions_are_isolated_and_the_reward_replays_gold_on_fresh_data(fork_env: ForkRecord) -> None:
    domain = _counter(fork_env)
    task = domain.find_task("test", "0")
    first, second = domain.open_session(task), domain.open_session(task)
    domain.call_tool(first, "increment", {"counter_id": "a", "amount": 2})
    assert domain.call_tool(second, "get_counter", {"counter_id": "a"}).observation == '{"value": 1}'
    expected = _fork_hash({"counters": {"a": {"value": 3}, "b": {"value": 7}}})
    assert first.data_hash() == expected == domain.gold_hash(task)
    assert second.data_hash() == domain.initial_hash
    score = domain.score(Episode(domain, task, [], "user_stop", first.data_hash(), domain.gold_hash(task)))
    assert score.reward == 1.0
    outputs = domain.find_task("test", "1")
    assert domain.spec.reward_basis(outputs) == ["DB", "COMMUNICATE"]


def test_check_flags_errors_unchanged_and_copied_tasks(fork_env: ForkRecord) -> None:
    catalog = Catalog(Path("/nonexistent"))
    counter = check_fork(catalog.get("fork:tiny/counter"))
    problems = {task.task_id: task.problems for task in counter.tasks if task.problems}
    assert problems["3"] == ["action 0 get_counter: Error: counter not found"]
    assert [task.task_id for task in counter.unchanged] == ["1", "3"]
    assert problems["4"] == ["action 1 boom: Error: the boom tool always raises"]
    assert problems["5"] == [
        "action 1 sleepy: Error: tool 'sleepy' in fork 'tiny' did not answer within 2s; its session process was ended"
    ]
    assert problems["6"] == ["action 1 die: Error: the session process of fork 'tiny' exited during tool 'die'"]
    copycat = check_fork(catalog.get("fork:tiny/copycat"))
    flagged = {task.task_id: task.problems for task in copycat.tasks}
    assert flagged["0"] == [
        "unknown tool 'book_reservation'",
        "copied from another environment: gold actions name 'book_reservation', tools it lacks",
    ]
    assert flagged["1"] == [
        "copied from another environment: instruction name 'transfer_to_human_agents', tools it lacks"
    ]


def test_a_lost_worker_aborts_one_session_and_the_others_survive(fork_env: ForkRecord) -> None:
    domain = _counter(fork_env)
    task = domain.find_task("test", "0")
    survivor, victim = domain.open_session(task), domain.open_session(task)
    domain.call_tool(survivor, "increment", {"counter_id": "b", "amount": 5})
    with pytest.raises(ToolCrash, match="exited"):
        domain.call_tool(victim, "die", {})
    with pytest.raises(ToolCrash):
        domain.call_tool(victim, "get_counter", {"counter_id": "a"})  # that episode is over
    # the survivor was rebuilt in the new worker by replaying its calls on fresh data
    assert domain.call_tool(survivor, "get_counter", {"counter_id": "b"}).observation == '{"value": 12}'
