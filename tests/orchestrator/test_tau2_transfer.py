"""A τ² episode ends as τ²'s orchestrator ends it: no terminate tool, the user's ``###TRANSFER###`` stops it.

The expected conversation is built here from τ²'s own rules and data, never from taumesh's output:

* τ²'s ``transfer_to_human_agents`` returns a constant (read from the fetched τ² source with ``ast``) and the
  orchestrator goes on to the agent (τ² has no terminate tool);
* τ²'s orchestrator opens with a fixed agent greeting, which the user answers (recorded in the τ² notes);
* the policy tells the agent to send a fixed message after the transfer call (read from ``policy.md``);
* the user guidelines tell the user to answer a transfer with a token (read from ``simulation_guidelines.md``),
  which ``UserSimulator.is_stop`` takes as a stop: τ²'s ``TerminationReason.USER_STOP``, ``user_stop``;
* each gold action's observation is the one τ²'s own code gave (the reference vectors).

The oracle agent and the scripted user play the task over the four services (``taumesh run``).
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains.tau2 import DatasetMissing, Tau2Task, require
from tests.helpers.cli import ORACLE, invoke, load_json, results_path
from tests.helpers.paths import read_jsonl
from tests.helpers.tau2 import TAU2_EXPECTED, tau2_domain

TRANSFER_TASKS = ("10", "50")
"""τ² retail tasks whose gold actions end with ``transfer_to_human_agents`` (five actions, and that one alone)."""


@pytest.fixture(scope="module")
def tau2_root() -> Path:
    try:
        return require()
    except DatasetMissing as exc:
        pytest.skip(f"τ² data not fetched: {exc}")


def tool_return(root: Path, domain: str, tool: str) -> str:
    """The constant τ²'s tool method returns, read from the fetched τ² source."""
    module = ast.parse((root / "src" / "domains" / domain / "tools.py").read_text(encoding="utf-8"))
    method = next(n for n in ast.walk(module) if isinstance(n, ast.FunctionDef) and n.name == tool)
    (returned,) = [n.value for n in ast.walk(method) if isinstance(n, ast.Return)]
    assert isinstance(returned, ast.Constant) and isinstance(returned.value, str)
    return returned.value


def policy_message_after_transfer(root: Path) -> str:
    """'To transfer, first make a tool call to transfer_to_human_agents, and then send the message '…' to the user.'"""
    policy = (root / "data" / "domains" / "retail" / "policy.md").read_text(encoding="utf-8")
    rule = next(line for line in policy.splitlines() if "make a tool call to transfer_to_human_agents" in line)
    return rule.split("send the message '", 1)[1].split("' to the user", 1)[0]


def transfer_token(root: Path) -> str:
    """'If you are transferred to another agent, generate the '…' token to indicate the transfer.'"""
    guidelines = (root / "data" / "user_simulator" / "simulation_guidelines.md").read_text(encoding="utf-8")
    match = re.search(r"transferred to another agent, generate the '([^']+)' token", guidelines)
    assert match is not None, "τ²'s guidelines no longer name the transfer token"
    return match.group(1)


def tau2_greeting() -> str:
    """τ²'s orchestrator's ``DEFAULT_FIRST_AGENT_MESSAGE``, as the τ² reference notes record it."""
    notes = (TAU2_EXPECTED / "README.md").read_text(encoding="utf-8")
    match = re.search(r'else the default greeting `AssistantMessage\("([^"]+)"\)`', notes)
    assert match is not None, "the τ² notes no longer record the default greeting"
    return match.group(1)


def tau2_conversation(root: Path, task: Tau2Task, vector: dict[str, Any]) -> list[dict[str, Any]]:
    """What τ²'s orchestrator records for this task with the gold agent and a user opening with the instruction.

    Its fixed greeting (``DEFAULT_FIRST_AGENT_MESSAGE``), then: the user's opening, each gold call and τ²'s observation
    of it, the policy's message after the transfer, and the user's transfer token, at which τ² stops (``is_stop``):
    nothing after it.
    """
    actions = vector["actions"]
    assert actions[-1]["name"] == "transfer_to_human_agents"
    assert actions[-1]["content"] == tool_return(root, "retail", "transfer_to_human_agents")  # no 'done' flag
    expected: list[dict[str, Any]] = [
        {"role": "assistant", "content": tau2_greeting()},
        {"role": "user", "content": task.instruction},
    ]
    for action in actions:
        expected.append({"role": "assistant", "call": (action["name"], action["arguments"])})
        expected.append({"role": "tool", "content": action["content"]})
    expected.append({"role": "assistant", "content": policy_message_after_transfer(root)})
    expected.append({"role": "user", "content": transfer_token(root)})
    return expected


def as_played(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """An OpenAI-form conversation in the shape of :func:`tau2_conversation`."""
    played: list[dict[str, Any]] = []
    for message in messages:
        if message["role"] == "system":
            continue
        calls = message.get("tool_calls") or []
        if calls:
            (call,) = calls
            function = call["function"]
            played.append({"role": "assistant", "call": (function["name"], json.loads(function["arguments"]))})
        else:
            played.append({"role": message["role"], "content": message["content"]})
    return played


def test_a_transfer_ends_the_episode_as_tau2_ends_it(tau2_root: Path, tmp_path: Path) -> None:
    if not (TAU2_EXPECTED / "vectors").is_dir():
        pytest.skip(f"τ² expected values not found at {TAU2_EXPECTED}")
    vectors = {v["task_id"]: v for v in read_jsonl(TAU2_EXPECTED / "vectors" / "retail.jsonl")}
    domain = tau2_domain("retail")
    ids = [t.id for t in domain.tasks("base")]
    chosen = [arg for task_id in TRANSFER_TASKS for arg in ("--task-ids", str(ids.index(task_id)))]
    result = invoke(
        "run", "--env", "tau2-retail", *chosen, *ORACLE, "--output-format", "taubench,tau2,mt", "--log-dir", tmp_path
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "episode endings: user_stop 2" in result.output
    results = {str(r["task_id"]): r for r in load_json(results_path(tmp_path))}
    (document,) = tmp_path.glob("*.tau2.json")
    simulations = {s["task_id"]: s for s in load_json(document)["simulations"]}
    assert set(results) == set(simulations) == set(TRANSFER_TASKS)
    mt_trajectories = {path.name.split("_task")[1].split("_")[0]: path for path in tmp_path.rglob("*_trajectory.jsonl")}
    assert set(mt_trajectories) == set(TRANSFER_TASKS)

    for task_id in TRANSFER_TASKS:
        task = domain.find_task("base", task_id)
        assert isinstance(task, Tau2Task)
        vector = vectors[task_id]
        expected = tau2_conversation(tau2_root, task, vector)
        episode = results[task_id]
        assert as_played(episode["traj"]) == expected, task_id
        assert as_played(read_jsonl(mt_trajectories[task_id])) == expected, task_id  # the MT fork's layout
        assert episode["info"]["termination"] == "user_stop"
        assert episode["reward"] == vector["reward_gold_actions_only"]["reward"] == 1.0

        # τ²'s layout: the same messages, each tool result answering its call, and τ²'s termination name
        simulation = simulations[task_id]
        assert simulation["termination_reason"] == "user_stop"
        messages = simulation["messages"]
        assert [m["role"] for m in messages] == [m["role"] for m in expected]
        assert [m["turn_idx"] for m in messages] == list(range(len(expected)))  # the greeting is τ²'s turn 0
        for message, want in zip(messages, expected, strict=True):
            if "call" in want:
                ((call,), name_arguments) = message["tool_calls"], want["call"]
                assert (call["name"], call["arguments"]) == name_arguments
            else:
                assert message["content"] == want["content"]
        calls = [m["tool_calls"][0]["id"] for m in messages if m["role"] == "assistant" and m["tool_calls"]]
        assert [m["id"] for m in messages if m["role"] == "tool"] == calls
        assert not any(m["error"] for m in messages if m["role"] == "tool")
