"""``taumesh rescore`` on τ²'s ``Results`` documents: taumesh's own (``--output-format tau2``) and τ²'s shape.

τ²'s own file is built here from the shared vectors: each task's gold tool calls with the outputs τ² recorded,
in the message form τ²'s ``SimulationRun`` has, with the reward τ² gave it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains.tau2 import DatasetMissing, require
from tests.helpers.cli import ORACLE, explain_result, invoke
from tests.helpers.paths import read_jsonl
from tests.helpers.tau2 import TAU2_EXPECTED


@pytest.fixture(scope="module")
def mock_vectors() -> list[dict[str, Any]]:
    try:
        require()
    except DatasetMissing as exc:
        pytest.skip(f"τ² data not fetched: {exc}")
    path = TAU2_EXPECTED / "vectors" / "mock.jsonl"
    if not path.is_file():
        pytest.skip(f"τ² vectors not found at {path}")
    return list(read_jsonl(path))


def tau2_simulation(vector: dict[str, Any], trial: int, reward: float) -> dict[str, Any]:
    """A τ² ``SimulationRun`` that plays the vector's gold actions, then the user stops.

    As τ²'s: the task's message history first (then no greeting), as its tasks file spells it.
    """
    history = task_history(vector["task_id"])
    messages = history or [{"role": "assistant", "content": "Hi! How can I help you today?", "turn_idx": 0}]
    messages.append({"role": "user", "content": "Please do what my task says.", "turn_idx": 1})
    for n, action in enumerate(vector["actions"]):
        call_id = f"call_{n}"
        call = {"id": call_id, "name": action["name"], "arguments": action["arguments"], "requestor": "assistant"}
        messages.append({"role": "assistant", "content": None, "tool_calls": [call], "turn_idx": len(messages)})
        messages.append(
            {"id": call_id, "role": "tool", "content": action["content"], "requestor": "assistant",
             "error": action["error"], "turn_idx": len(messages)}
        )  # fmt: skip
    if vector["communicate_info"]:
        messages.append({"role": "assistant", "content": " ".join(vector["communicate_info"]), "turn_idx": 99})
    messages.append({"role": "user", "content": "Thanks! ###STOP###", "turn_idx": 100})
    return {
        "id": f"{vector['task_id']}-{trial}", "task_id": vector["task_id"], "timestamp": "2025-06-01T00:00:00",
        "start_time": "2025-06-01T00:00:00", "end_time": "2025-06-01T00:00:01", "duration": 1.0,
        "termination_reason": "user_stop", "agent_cost": 0.01, "user_cost": 0.002,
        "reward_info": {"reward": reward, "reward_basis": vector["reward_basis"]},
        "messages": messages, "trial": trial, "seed": 4242,
    }  # fmt: skip


def task_history(task_id: str) -> list[dict[str, Any]]:
    """The task's ``message_history`` as τ²'s tasks file has it (τ² keeps it at the start of ``messages``)."""
    from taumesh.domains.tau2 import Tau2Task
    from tests.helpers.tau2 import tau2_domain

    task = tau2_domain("mock").find_task("base", task_id)
    assert isinstance(task, Tau2Task)
    history = task.initial_state.message_history if task.initial_state is not None else None
    return [message.model_dump(exclude_none=True) for message in history or []]


def expected_reward(vector: dict[str, Any]) -> float:
    reference = vector["reward_gold_actions_plus_communicate"] or vector["reward_gold_actions_only"]
    return float(reference["reward"])


def test_taumesh_tau2_document_rescores_in_agreement(mock_vectors: list[dict[str, Any]], tmp_path: Path) -> None:
    run = invoke("run", "--domain", "mock", "--output-format", "tau2", *ORACLE, "--log-dir", tmp_path)
    assert run.exit_code == 0, explain_result(run)
    (document,) = tmp_path.glob("*.tau2.json")
    rescored = invoke("rescore", document, "--env", "tau2-mock", "--out", tmp_path / "rows.json")
    assert rescored.exit_code == 0, explain_result(rescored)
    count = len(mock_vectors)
    assert f"rescored {count} trajectories: {count} agree, 0 differ" in rescored.stdout
    rows = json.loads((tmp_path / "rows.json").read_text(encoding="utf-8"))
    assert {r["task_id"]: r["reward"] for r in rows} == {v["task_id"]: expected_reward(v) for v in mock_vectors}


def test_tau2_own_results_rescore_and_disagreement_is_reported(
    mock_vectors: list[dict[str, Any]], tmp_path: Path
) -> None:
    simulations = [tau2_simulation(v, trial, expected_reward(v)) for v in mock_vectors for trial in (0, 1)]
    wrong = simulations[0]
    wrong["reward_info"]["reward"] = 1.0 - wrong["reward_info"]["reward"]
    stopped = tau2_simulation(mock_vectors[1], 2, 0.0)
    stopped["termination_reason"] = "too_many_errors"  # τ² scores a run it cut short 0, whatever the state
    simulations.append(stopped)
    path = tmp_path / "tau2_results.json"
    path.write_text(json.dumps({"timestamp": "x", "info": {}, "tasks": [], "simulations": simulations}), "utf-8")

    rescored = invoke("rescore", path, "--env", "tau2-mock", "--task-split-name", "base")
    assert rescored.exit_code == 1, explain_result(rescored)
    total = len(simulations)
    assert f"rescored {total} trajectories: {total - 1} agree, 1 differ" in rescored.stdout
    assert f"task {wrong['task_id']} trial 0: recorded {wrong['reward_info']['reward']}" in rescored.stdout


def test_a_trajectory_the_services_refuse_is_reported_and_the_others_rescored(
    mock_vectors: list[dict[str, Any]], tmp_path: Path
) -> None:
    good = tau2_simulation(mock_vectors[0], 0, expected_reward(mock_vectors[0]))
    unknown = tau2_simulation(mock_vectors[1], 0, 1.0)
    unknown["task_id"] = "no_such_task"
    path = tmp_path / "tau2_results.json"
    path.write_text(json.dumps({"timestamp": "x", "info": {}, "tasks": [], "simulations": [good, unknown]}), "utf-8")

    rescored = invoke("rescore", path, "--env", "tau2-mock", "--task-split-name", "base", "--out", tmp_path / "r.json")
    assert rescored.exit_code == 1, explain_result(rescored)  # not a traceback: a row of its own
    assert "rescored 1 trajectories: 1 agree, 0 differ" in rescored.stdout
    assert "could not rescore 1:" in rescored.stdout
    assert "task no_such_task trial 0: NOT_FOUND" in rescored.stdout
    rows = {row["task_id"]: row for row in json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))}
    assert rows["no_such_task"]["failed"] and rows["no_such_task"]["reward"] is None
    assert rows[good["task_id"]]["reward"] == expected_reward(mock_vectors[0])


def test_rescore_takes_the_domain_from_the_file(tmp_path: Path) -> None:
    """Both layouts of a run record its domain: neither needs --env; a file that records none names the flag."""
    run = invoke("run", "--domain", "mock", "--output-format", "both", *ORACLE, "--log-dir", tmp_path)
    assert run.exit_code == 0, explain_result(run)
    (document,) = tmp_path.glob("*.tau2.json")
    listed = document.with_name(document.name.removesuffix(".tau2.json") + ".json")
    for path in (document, listed):
        rescored = invoke("rescore", path)
        assert rescored.exit_code == 0, explain_result(rescored)
        assert "0 differ" in rescored.stdout

    bare = json.loads(listed.read_text(encoding="utf-8"))
    for entry in bare:
        entry["info"].pop("run")  # as τ-bench's run.py writes it: no fingerprint
    unknown = tmp_path / "run_py.json"
    unknown.write_text(json.dumps(bare), encoding="utf-8")
    refused = invoke("rescore", unknown)
    assert refused.exit_code == 2 and "pass --env" in refused.output and "Traceback" not in refused.output


def test_rescore_help_shows_no_rst_markup() -> None:
    shown = invoke("rescore", "--help")
    assert shown.exit_code == 0 and "``" not in shown.stdout and "tau2-airline" in shown.stdout
