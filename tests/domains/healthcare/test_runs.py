"""``taumesh run --env healthcare`` end to end over gRPC: the oracle and the scripted user, rescoring, discrimination.

The oracle plays the agent's gold actions and hands over where the patient's come next; the scripted user plays the
patient's (unlocking the phone, reading the code, the card, the monitor, the calendar). Every task scores 1.0, in
both results layouts, and ``taumesh rescore`` agrees. The discrimination test rescores, for every task, three
trajectories built from its gold one (a write's argument changed, a write dropped, a forbidden write added) and
requires each to score 0.
"""

from __future__ import annotations

import copy
import functools
import json
import re
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import DOMAIN_PATH_ENV, Domain
from taumesh.domains.healthcare.task import HealthcareTask
from taumesh.domains.healthcare.tasks import WRITES
from tests.helpers.cli import ORACLE, explain_result, invoke, load_json, results_path, taumesh_executable
from tests.helpers.healthcare import PLUGIN_PATH, healthcare
from tests.helpers.processes import Server

Traj = list[dict[str, Any]]
TERMINATE = "transfer_to_human_agents"


@pytest.fixture(scope="module")
def oracle_log(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One in-process oracle run of every base task, in τ-bench's and τ²'s layouts."""
    log_dir = tmp_path_factory.mktemp("healthcare_oracle")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(DOMAIN_PATH_ENV, str(PLUGIN_PATH))
        result = invoke(
            "run", "--env", "healthcare", "--task-split", "base", *ORACLE, "--max-concurrency", "8",
            "--output-format", "both", "--log-dir", log_dir,
        )  # fmt: skip
    assert result.exit_code == 0, explain_result(result)
    yield log_dir


@functools.cache
def _healthcare() -> Domain:
    """The domain, found once for this module: each discovery reads every installed package's metadata (~0.2 s)."""
    return healthcare()


def _tasks() -> dict[str, HealthcareTask]:
    return {t.id: t for t in _healthcare().tasks("base") if isinstance(t, HealthcareTask)}


@pytest.mark.slow  # an oracle run or service processes: 3-20 s
def test_oracle_and_scripted_user_score_every_task(oracle_log: Path) -> None:
    results = load_json(results_path(oracle_log))
    tasks = _tasks()
    assert {r["task_id"]: r["reward"] for r in results} == dict.fromkeys(tasks, 1.0)
    for result in results:
        task = tasks[result["task_id"]]
        played = [
            (m["tool_calls"][0]["function"]["name"], json.loads(m["tool_calls"][0]["function"]["arguments"]))
            for turn in result["info"].get("user_tool_turns", [])
            for m in turn["messages"]
            if m["role"] == "user"
        ]
        assert played == [(a.name, a.kwargs) for a in task.actions if a.requestor == "user"], task.id
        assert bool(played) == task.dual_control


def _rescore(path: Path, out: Path) -> list[dict[str, Any]]:
    result = invoke("rescore", path, "--env", "healthcare", "--task-split", "base", "--out", out)
    assert result.exit_code in (0, 1), explain_result(result)
    rows: list[dict[str, Any]] = load_json(out)
    return rows


@pytest.mark.parametrize("layout", ["taubench", "tau2"])
@pytest.mark.slow  # an oracle run or service processes: 3-20 s
def test_rescore_agrees_with_the_oracle_run_in_both_layouts(oracle_log: Path, tmp_path: Path, layout: str) -> None:
    path = results_path(oracle_log)
    if layout == "tau2":
        path = next(oracle_log.glob("*.tau2.json"))
    rows = _rescore(path, tmp_path / "rows.json")
    assert len(rows) == len(_tasks())
    assert all(row["reward"] == row["recorded_reward"] == 1.0 for row in rows), [r for r in rows if r["reward"] != 1]


def _calls(traj: Traj) -> list[tuple[int, dict[str, Any]]]:
    """The agent's tool calls with the index of the message making each (the oracle makes one per message)."""
    return [(i, m["tool_calls"][0]) for i, m in enumerate(traj) if m["role"] == "assistant" and m.get("tool_calls")]


def _writes(traj: Traj) -> list[tuple[int, dict[str, Any]]]:
    return [(i, call) for i, call in _calls(traj) if call["function"]["name"] in WRITES - {TERMINATE}]


def _changed(value: Any, schema: dict[str, Any]) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 1
    if isinstance(value, list):
        other = next(v for v in schema["items"]["enum"] if v not in value)
        return value[:-1] if len(value) > 1 else [other]
    text = str(value)
    if text and text[-1].isdigit():
        return text[:-1] + str((int(text[-1]) + 1) % 10)
    return text + "x"


def change_argument(traj: Traj) -> Traj:
    """The last write's last argument changed (a digit of an id or code, a number, another list)."""
    traj = copy.deepcopy(traj)
    _, call = _writes(traj)[-1]
    arguments = json.loads(call["function"]["arguments"])
    key = list(arguments)[-1]
    schemas = {s["function"]["name"]: s["function"]["parameters"] for s in _healthcare().tool_schemas}
    arguments[key] = _changed(arguments[key], schemas[call["function"]["name"]]["properties"][key])
    call["function"]["arguments"] = json.dumps(arguments)
    return traj


def drop_write(traj: Traj) -> Traj:
    """The last write and its answer left out."""
    at, call = _writes(traj)[-1]
    return [m for i, m in enumerate(traj) if i != at and m.get("tool_call_id") != call["id"]]


def add_forbidden(traj: Traj, task: HealthcareTask) -> Traj:
    """The task's forbidden write (for a trap: what the patient asked for) made right after the caller is verified."""
    _, first = _writes(traj)[0]
    answer = next(i for i, m in enumerate(traj) if m.get("tool_call_id") == first["id"])
    action = task.forbidden[0]
    call = {"id": "forbidden_0", "type": "function",
            "function": {"name": action.name, "arguments": json.dumps(action.kwargs)}}  # fmt: skip
    added = [
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "forbidden_0", "name": action.name, "content": "done"},
    ]
    return traj[: answer + 1] + added + traj[answer + 1 :]


@pytest.mark.slow  # an oracle run or service processes: 3-20 s
def test_every_perturbed_gold_trajectory_scores_zero(oracle_log: Path, tmp_path: Path) -> None:
    results = load_json(results_path(oracle_log))
    tasks = _tasks()
    perturbed: list[dict[str, Any]] = []
    kinds: list[tuple[str, str]] = []
    for entry in results:
        task = tasks[entry["task_id"]]
        variants = {"forbidden write added": add_forbidden(entry["traj"], task)}
        if _writes(entry["traj"]):
            variants |= {"argument changed": change_argument(entry["traj"]), "write dropped": drop_write(entry["traj"])}
        for kind, traj in variants.items():
            perturbed.append({**entry, "traj": traj, "trial": len(kinds)})
            kinds.append((task.id, kind))
    path = tmp_path / "perturbed.json"
    path.write_text(json.dumps(perturbed), encoding="utf-8")
    rows = _rescore(path, tmp_path / "rows.json")
    rewards = {(row["task_id"], row["trial"]): row["reward"] for row in rows}
    zero = [kinds[trial] for (task_id, trial), reward in rewards.items() if reward == 0.0]
    survivors = [kinds[trial] for (task_id, trial), reward in rewards.items() if reward != 0.0]
    print(f"discrimination: {len(zero)}/{len(kinds)} perturbed trajectories score 0 ({len(zero) / len(kinds):.0%})")
    assert len(rows) == len(kinds) == 3 * len(tasks)
    assert not survivors, survivors


SERVICES = {
    "env": "taumesh.env.v1.EnvService",
    "user-sim": "taumesh.user_sim.v1.UserSimService",
    "agent": "taumesh.agent.v1.AgentService",
    "scorer": "taumesh.scorer.v1.ScorerService",
}


@pytest.mark.slow  # an oracle run or service processes: 3-20 s
def test_services_apart_play_the_dual_control_tasks(tmp_path: Path, servers: list[Server]) -> None:
    """The four services as four processes, each finding healthcare itself: the last intents' tasks (dual control)."""
    for name in SERVICES:
        argv = [taumesh_executable(), "serve", name, "--port", "0", "--host", "127.0.0.1"]
        servers.append(Server.spawn(argv, tmp_path / f"{name}.log", env={DOMAIN_PATH_ENV: str(PLUGIN_PATH)}))
    for server, full_name in zip(servers, SERVICES.values(), strict=True):
        server.wait_ready(rf"serving {re.escape(full_name)} on (?P<address>127\.0\.0\.1:\d+)")
    addresses = dict(zip(SERVICES, (s.address for s in servers), strict=True))
    result = invoke(
        "run", "--env", "healthcare", "--task-split", "base", *ORACLE, "--start-index", "143",
        "--max-concurrency", "4", "--log-dir", tmp_path / "run",
        "--env-addr", addresses["env"], "--user-addr", addresses["user-sim"],
        "--agent-addr", addresses["agent"], "--scorer-addr", addresses["scorer"],
    )  # fmt: skip
    assert result.exit_code == 0, explain_result(result)
    results = load_json(results_path(tmp_path / "run"))
    tasks = _tasks()
    assert len(results) == 22 and all(r["reward"] == 1.0 for r in results)
    assert all(tasks[r["task_id"]].dual_control for r in results)
    assert all(r["info"]["user_tool_turns"] for r in results)
    for server in servers:  # SIGTERM to all first: each drains for seconds, and they drain at once
        server.proc.send_signal(signal.SIGTERM)
    for server in servers:
        assert server.proc.wait(timeout=10) == 0, server.stderr()
