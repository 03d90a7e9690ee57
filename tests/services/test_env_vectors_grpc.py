"""τ-bench v1's conformance vectors replayed through EnvService over real gRPC.

Every gold action of every task of every split, every single-call error case and every stateful
sequence: observation, ``done`` and data hash must be exactly what the original code produced.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.helpers.grpc_services import EnvClient, aborted, done, errored
from tests.helpers.paths import V1_VECTORS, read_jsonl

INITIAL_HASHES = {
    "retail": "5a4b2cb59f4d12dea7e4adff24a7f8fada510ead49372ea4a729a82bbb5f49b5",
    "airline": "4587e6b48ad2b2c4f3e1fecb40aabec7bb2286513273b8f8cec3f5865222f290",
}
SPLITS = [("retail", "test", 115), ("retail", "train", 500), ("retail", "dev", 20), ("airline", "test", 50)]


def _rows(filename: str) -> list[dict[str, Any]]:
    path = V1_VECTORS / filename
    return list(read_jsonl(path)) if path.is_file() else []


TASKS = [row for domain, split, _ in SPLITS for row in _rows(f"{domain}_{split}.jsonl")]
ERROR_CASES = _rows("error_cases.jsonl")
SEQUENCE_CASES = _rows("sequence_cases.jsonl")


def test_vectors_present() -> None:
    counts = {(domain, split): count for domain, split, count in SPLITS}
    for (domain, split), count in counts.items():
        assert sum(1 for t in TASKS if (t["env"], t["split"]) == (domain, split)) == count, (domain, split)
    assert len(ERROR_CASES) == 130
    assert len(SEQUENCE_CASES) == 3


def test_list_domains_and_tasks(env: EnvClient) -> None:
    from taumesh.env.v1 import env_pb2

    domains = {d.name: d for d in env.stub.ListDomains(env_pb2.ListDomainsRequest()).domains}
    assert {"retail", "airline"} <= set(domains)  # τ² domains join them when their data is fetched
    assert {s.name: s.task_count for s in domains["retail"].splits} == {"test": 115, "train": 500, "dev": 20}
    assert {s.name: s.task_count for s in domains["airline"].splits} == {"test": 50}
    assert list(domains["retail"].terminate_tools) == ["transfer_to_human_agents"]
    listed = env.stub.ListTasks(env_pb2.ListTasksRequest(domain="retail", split="test", page_size=200))
    tasks = listed.tasks
    assert [t.task_id for t in tasks] == [str(i) for i in range(115)]
    assert listed.total_size == 115
    assert not listed.next_page_token
    vector = next(t for t in TASKS if (t["env"], t["split"], t["task_id"]) == ("retail", "test", 37))
    assert tasks[37].gold_action_count == len(vector["actions"])
    assert tasks[37].output_count == len(vector["expected_outputs"]) > 0


@pytest.mark.parametrize("task", TASKS, ids=[f"{t['env']}-{t['split']}-{t['task_id']}" for t in TASKS])
def test_gold_actions(env: EnvClient, task: dict[str, Any]) -> None:
    opened = env.open(task["env"], task["split"], task["task_id"])
    assert opened.initial_data_hash == task["initial_hash"] == INITIAL_HASHES[task["env"]]
    assert opened.user_instruction
    try:
        assert len(task["actions"]) == len(task["action_outputs"]) == len(task["steps"])
        for index, (action, expected, step) in enumerate(
            zip(task["actions"], task["action_outputs"], task["steps"], strict=True)
        ):
            where = f"{task['env']} {task['split']} task {task['task_id']} step {index} {action['name']}"
            result = env.call(opened.session_id, action["name"], json.dumps(action["kwargs"]))
            assert result.observation == expected, where
            assert done(result) == step["done"], where
            assert errored(result) == expected.startswith("Error"), where
            assert not aborted(result), where
        final = env.final(opened.session_id)
        assert final.data_hash == task["final_hash"]
        assert final.tool_call_count == len(task["actions"])
        if task["final_hash"] != task["initial_hash"]:
            assert final.copied_records > 0  # a failed write may copy too, so no converse
    finally:
        env.close(opened.session_id)


def _check_call(result: Any, expected: dict[str, Any], where: str) -> None:
    if "raised" in expected:
        assert aborted(result), where
        assert done(result), where
        assert errored(result), where
        assert result.observation, where
        return
    assert not aborted(result), where
    assert result.observation == expected["observation"], where
    if "done" in expected:
        assert done(result) == expected["done"], where


@pytest.mark.parametrize(
    "case", ERROR_CASES, ids=[f"{i}-{c['env']}-{c['tool']}-{c['note'][:40]}" for i, c in enumerate(ERROR_CASES)]
)
def test_error_case(env: EnvClient, case: dict[str, Any]) -> None:
    opened = env.open(case["env"])
    try:
        result = env.call(opened.session_id, case["tool"], json.dumps(case["kwargs"]))
        _check_call(result, case, case["note"])
        if "raised" not in case:
            assert errored(result) == case["observation"].startswith(("Error", "Unknown action"))
        after = env.final(opened.session_id).data_hash
        if "hash_after" in case:
            assert after == case["hash_after"]
        if "data_changed" in case:
            assert (after != INITIAL_HASHES[case["env"]]) == case["data_changed"]
    finally:
        env.close(opened.session_id)


@pytest.mark.parametrize("case", SEQUENCE_CASES, ids=[f"{i}-{c['env']}" for i, c in enumerate(SEQUENCE_CASES)])
def test_sequence_case(env: EnvClient, case: dict[str, Any]) -> None:
    opened = env.open(case["env"])
    try:
        for index, (call, expected) in enumerate(zip(case["sequence"], case["results"], strict=True)):
            result = env.call(opened.session_id, call["tool"], json.dumps(call["kwargs"]))
            _check_call(result, expected, f"step {index} {call['tool']}")
        final = env.final(opened.session_id)
        assert final.data_hash == case["hash_after"]
        assert final.tool_call_count == len(case["sequence"])
    finally:
        env.close(opened.session_id)


def test_sequences_include_an_abort() -> None:
    """The vectors must exercise the aborted path, or the check above would be vacuous."""
    assert any("raised" in r for case in SEQUENCE_CASES for r in case["results"])
