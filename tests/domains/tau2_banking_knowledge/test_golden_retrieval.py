"""``golden_retrieval`` runs: each task's episode gets its own policy, the documents the task requires.

Upstream composes that configuration's policy per task; the shared ``retrieval.jsonl`` records all 97
(``golden_policy``). Every one comes out of a real EnvService's OpenSession over gRPC, while ListTasks keeps the
domain's taskless one; an oracle run through ``taumesh run`` gives each episode's agent its task's policy.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from taumesh.common.v1 import common_pb2
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from tests.domains.tau2_banking_knowledge.support import (
    ENV,
    FIXTURES,
    NEEDS_FIXTURES_AND_CHECKOUT,
    RPC_TIMEOUT,
    env_and_scorer,
)
from tests.helpers.cli import ORACLE, explain_result, invoke, load_json, results_path

pytestmark = NEEDS_FIXTURES_AND_CHECKOUT
GOLDEN = f"{ENV}:golden_retrieval"


def _golden_policies() -> dict[str, str]:
    with (FIXTURES / "retrieval.jsonl").open(encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines]
    return {record["task_id"]: record["policy"] for record in records if record["record"] == "golden_policy"}


def test_every_tasks_session_gets_its_recorded_policy_over_grpc(data_dir: Path) -> None:
    policies = _golden_policies()
    assert len(policies) == 97
    with env_and_scorer(data_dir) as (channel, _):
        env = env_pb2_grpc.EnvServiceStub(channel)
        listed = env.ListTasks(
            env_pb2.ListTasksRequest(domain=GOLDEN, split="base", include_records=True), timeout=RPC_TIMEOUT
        )
        assert "(No documents provided)" in listed.policy  # the domain's, taskless (upstream's); each session's own
        for task_id, policy in policies.items():
            ref = common_pb2.TaskRef(domain=GOLDEN, split="base", task_id=task_id)
            opened = env.OpenSession(env_pb2.OpenSessionRequest(task=ref), timeout=RPC_TIMEOUT)
            assert opened.policy == policy, task_id
            env.CloseSession(env_pb2.CloseSessionRequest(session_id=opened.session_id), timeout=RPC_TIMEOUT)


def test_an_oracle_run_gives_each_episodes_agent_its_tasks_policy(data_dir: Path, tmp_path: Path) -> None:
    run = ("run", "--env", GOLDEN, *ORACLE, "--data-dir", data_dir, "--log-dir", tmp_path, "--num-tasks", "3")
    result = invoke(*run, "--quiet")
    assert result.exit_code == 0, explain_result(result)
    results: list[dict[str, Any]] = load_json(results_path(tmp_path))
    policies = _golden_policies()
    assert len(results) == 3
    for episode in results:
        (system,) = [message for message in episode["traj"] if message["role"] == "system"]
        assert system["content"] == policies[episode["task_id"]]
        assert episode["reward"] == 1.0
    assert len({policies[episode["task_id"]] for episode in results}) == 3
