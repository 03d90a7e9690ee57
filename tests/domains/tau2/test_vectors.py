"""Every τ² conformance vector of the implemented domains, reproduced on the library.

Per task: the initial hash after the task's initial state, each gold action's observation, error
flag and hash after, the final hash, the evaluator's gold hash, and the reward with its breakdown
for the gold actions alone and with the communicate message.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains.tau2 import Tau2Task, call_tool, evaluate, gold_hash, open_session
from taumesh.models import STOP_TOKEN, ChatMessage, ToolCall
from tests.helpers.paths import read_jsonl
from tests.helpers.tau2 import tau2_domain

GREETING = "Hi! How can I help you today?"


def _problems(source_name: str, vector: dict[str, Any]) -> list[str]:
    domain = tau2_domain(source_name)
    task = domain.find_task("base", vector["task_id"])
    assert isinstance(task, Tau2Task)
    problems = []
    session = open_session(domain, task)
    if session.data_hash() != vector["initial_db_hash"]:
        problems.append("initial hash")
    # τ²'s trajectory starts with the task's message history, else with the agent's greeting
    trajectory = task.history() or [ChatMessage(role="assistant", content=GREETING)]
    for index, action in enumerate(vector["actions"]):
        step = call_tool(session, action["name"], action["arguments"], action["requestor"])
        if (step.observation, step.error) != (action["content"], action["error"]):
            problems.append(f"action {index}: {step.observation!r} error={step.error}")
        if action.get("db_hash_after") and session.data_hash() != action["db_hash_after"]:
            problems.append(f"action {index}: hash after")
        call = ToolCall(id=f"call_{index}", name=action["name"], arguments=json.dumps(action["arguments"]))
        trajectory.append(
            ChatMessage(
                role=action["requestor"], tool_calls=[call.model_copy(update={"requestor": action["requestor"]})]
            )
        )
        trajectory.append(ChatMessage(role="tool", content=step.observation, tool_call_id=call.id))
    if session.data_hash() != vector["final_db_hash"]:
        problems.append("final hash")
    gold = gold_hash(domain, task)
    if gold != vector["evaluator_gold_db_hash"]:
        problems.append("evaluator gold hash")
    said = ChatMessage(role="assistant", content="; ".join(vector["communicate_info"]))
    for key, extra in (("reward_gold_actions_only", []), ("reward_gold_actions_plus_communicate", [said])):
        reference = vector[key]
        if reference is None:
            continue
        stop = ChatMessage(role="user", content=STOP_TOKEN)
        reward = evaluate(domain, task, session, [*trajectory, *extra, stop], known_gold_hash=gold)
        if (reward.reward, reward.breakdown) != (reference["reward"], reference["reward_breakdown"]):
            problems.append(f"{key}: {reward.reward} {reward.breakdown}")
        checks = {check.subject: check.passed for check in reward.checks if check.basis == "ACTION"}
        for action_check in reference["action_checks"] or []:
            if checks.get(action_check["action_id"]) != action_check["action_match"]:
                problems.append(f"{key}: action check {action_check['action_id']}")
    return problems


@pytest.mark.parametrize("source_name", ["mock", "airline", "retail"])
def test_every_vector_is_reproduced(tau2_data: Path, expected: Path, source_name: str) -> None:
    vectors = list(read_jsonl(expected / "vectors" / f"{source_name}.jsonl"))
    assert vectors
    failures = {vector["task_id"]: problems for vector in vectors if (problems := _problems(source_name, vector))}
    assert failures == {}
