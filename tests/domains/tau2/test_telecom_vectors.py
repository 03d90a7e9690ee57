"""Every τ² telecom conformance vector (2,285 tasks), reproduced on the library.

Per task: both initial hashes after the task's initial state, each gold action's observation and
error flag for its requestor (agent or user) with both hashes after it, the final hashes, the
evaluator's gold hashes (whose missing ``sync_tools`` between gold actions makes the DB check fail
for most gold trajectories: τ²'s quirk, reproduced), and the reward with its breakdown, DB check,
env assertions and action checks. All 2,285 run in a few seconds.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import Domain
from taumesh.domains.tau2 import Tau2Task, call_tool, evaluate, gold_hash, open_session
from taumesh.models import STOP_TOKEN, ChatMessage, ToolCall
from tests.helpers.paths import read_jsonl
from tests.helpers.tau2 import tau2_domain

GREETING = "Hi! How can I help you today?"


def _hashes(domain: Domain, data: Any) -> tuple[str, str | None]:
    agent, user = domain.hasher.hashes(data)  # type: ignore[attr-defined]
    return agent, user


def _problems(domain: Domain, vector: dict[str, Any]) -> list[str]:
    task = domain.find_task("full", vector["task_id"])
    assert isinstance(task, Tau2Task)
    problems = []
    session = open_session(domain, task)
    if _hashes(domain, session.data) != (vector["initial_db_hash"], vector["initial_user_db_hash"]):
        problems.append("initial hashes")
    trajectory = [ChatMessage(role="assistant", content=GREETING)]
    for index, action in enumerate(vector["actions"]):
        step = call_tool(session, action["name"], action["arguments"], action["requestor"])
        if (step.observation, step.error) != (action["content"], action["error"]):
            problems.append(f"action {index}: {step.observation!r} error={step.error}")
        after = (action.get("db_hash_after"), action.get("user_db_hash_after"))
        if after[0] and _hashes(domain, session.data) != after:
            problems.append(f"action {index}: hashes after")
        call = ToolCall(
            id=f"call_{index}",
            name=action["name"],
            arguments=json.dumps(action["arguments"]),
            requestor=action["requestor"],
        )
        trajectory.append(ChatMessage(role=action["requestor"], tool_calls=[call]))
        trajectory.append(ChatMessage(role="tool", content=step.observation, tool_call_id=call.id))
    if _hashes(domain, session.data) != (vector["final_db_hash"], vector["final_user_db_hash"]):
        problems.append("final hashes")
    gold = gold_hash(domain, task)
    if gold != f"{vector['evaluator_gold_db_hash']}:{vector['evaluator_gold_user_db_hash']}":
        problems.append("evaluator gold hashes")
    reference = vector["reward_gold_actions_only"]
    reward = evaluate(
        domain, task, session, [*trajectory, ChatMessage(role="user", content=STOP_TOKEN)], known_gold_hash=gold
    )
    if (reward.reward, reward.breakdown) != (reference["reward"], reference["reward_breakdown"]):
        problems.append(f"reward {reward.reward} {reward.breakdown}")
    db_checks = [check.passed for check in reward.checks if check.basis == "DB"]
    if db_checks != [reference["db_check"]["db_match"]]:
        problems.append(f"db check {db_checks}")
    assertions = [check.passed for check in reward.checks if check.basis == "ENV_ASSERTION"]
    if assertions != [assertion["met"] for assertion in reference["env_assertions"] or []]:
        problems.append(f"env assertions {assertions}")
    actions = {check.subject: check.passed for check in reward.checks if check.basis == "ACTION"}
    if actions != {check["action_id"]: check["action_match"] for check in reference["action_checks"] or []}:
        problems.append(f"action checks {actions}")
    return problems


@pytest.mark.slow  # 2,285 vectors: ~12 s
def test_every_telecom_vector_is_reproduced(tau2_data: Path, expected: Path) -> None:
    domain = tau2_domain("telecom")
    vectors = list(read_jsonl(expected / "vectors" / "telecom.jsonl"))
    assert len(vectors) == 2285
    failures = {vector["task_id"]: problems for vector in vectors if (problems := _problems(domain, vector))}
    assert failures == {}
    assert sum(not vector["gold_hash_matches_replay"] for vector in vectors) == 1688  # the quirk is exercised


@pytest.mark.parametrize("split", ["base", "small", "train", "test", "full"])
def test_splits_hold_taus_task_counts(tau2_data: Path, split: str) -> None:
    counts = {"base": 114, "small": 20, "train": 74, "test": 40, "full": 2285}
    assert len(tau2_domain("telecom").tasks(split)) == counts[split]
