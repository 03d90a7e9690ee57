"""``taumesh run --env healthcare:v1`` (release 1) end to end over gRPC: the oracle and the scripted user.

The oracle plays the agent's gold actions and hands over where the patient's come next; the scripted user plays the
patient's (unlocking the phone, reading the code, the card, the monitor, the calendar). Every task scores 1.0.
Rescoring and the discrimination test are release 2's (tests/domains/healthcare/test_v2.py); release 1's results
rescored as themselves and against release 2: tests/domains/healthcare/test_releases.py.
"""

from __future__ import annotations

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
from tests.helpers.cli import ORACLE, explain_result, invoke, load_json, results_path, taumesh_executable
from tests.helpers.healthcare import PLUGIN_PATH, V1, healthcare
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
            "run", "--env", V1, "--task-split", "base", *ORACLE, "--max-concurrency", "8",
            "--output-format", "both", "--log-dir", log_dir,
        )  # fmt: skip
    assert result.exit_code == 0, explain_result(result)
    yield log_dir


@functools.cache
def _healthcare() -> Domain:
    """The domain, found once for this module: each discovery reads every installed package's metadata (~0.2 s)."""
    return healthcare(V1)


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
        "run", "--env", V1, "--task-split", "base", *ORACLE, "--start-index", "143",
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
