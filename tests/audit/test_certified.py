"""Certified task sets: ``domain audit --write`` stores the verdicts; ``--tasks certified`` plays the unflagged tasks.

Through every door a run has: ``taumesh run`` (a subprocess), ``POST /api/v1/validate-tasks`` (real HTTP), the Gym
environment and the A2A green agent (a process, against the gold A2A agent). The audit is stored in a throwaway
``TAUMESH_CACHE_DIR``, made once per module by the command itself; without one, each door refuses before playing,
naming the command that makes it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium as gym
import httpx
import pytest
from a2a.types.a2a_pb2 import TaskState

from taumesh.audit import AUDIT_VERSION, StoredAudit
from taumesh.orchestrator.gym import AGENT_ENV_ID
from tests.a2a.conftest import Agents
from tests.a2a.test_green_agent import ask, start_green
from tests.helpers.api_thread import ThreadApi
from tests.helpers.audit import own_cache, write_airline_audit
from tests.helpers.cli import ORACLE, assert_ok, explain, load_json, results_path, taumesh
from tests.helpers.client import thread_api

MAKE_ONE = "taumesh domain audit airline --task-split test --write"


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A taumesh cache of this module's own (the stored audits go there), set for the module's processes."""
    yield from own_cache(tmp_path_factory)


@pytest.fixture(scope="module")
def stored(cache: Path, v1_data_dir: Path) -> StoredAudit:
    """v1 airline's audit, stored by ``taumesh domain audit --write``."""
    audit, path, printed = write_airline_audit(v1_data_dir)
    assert path.is_relative_to(cache) and f"wrote {path}" in printed.replace("\n", "")
    assert 0 < len(audit.unflagged()) < 50 and audit.unflagged() | audit.flagged() == {str(i) for i in range(50)}
    return audit


def certified_ids(audit: StoredAudit) -> list[int]:
    return sorted(int(task_id) for task_id in audit.unflagged())


def test_run_without_a_stored_audit_names_the_command(tmp_path: Path, v1_data_dir: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("TAUMESH_CACHE_DIR", str(tmp_path / "empty"))
    run = taumesh(
        "run", "--env", "airline", "--tasks", "certified", *ORACLE, "--data-dir", v1_data_dir,
        "--log-dir", tmp_path / "run",
    )  # fmt: skip
    assert run.returncode == 2, explain(run)
    assert MAKE_ONE in run.stderr.replace("\n", " ") and "Traceback" not in run.stderr
    assert not (tmp_path / "run").exists() or not list((tmp_path / "run").iterdir())


def test_run_certified_plays_only_the_unflagged_tasks(stored: StoredAudit, tmp_path: Path, v1_data_dir: Path) -> None:
    run = taumesh(
        "run", "--env", "airline", "--tasks", "certified", *ORACLE, "--data-dir", v1_data_dir,
        "--log-dir", tmp_path,
    )  # fmt: skip
    assert_ok(run)
    results = load_json(results_path(tmp_path))
    assert sorted(entry["task_id"] for entry in results) == certified_ids(stored)
    for entry in results:
        assert entry["info"]["validity"] == {"audit_version": AUDIT_VERSION, "tasks": "certified", "grader": "faithful"}
        assert entry["info"]["run"]["tasks"] == "certified" and entry["info"]["run"]["audit_version"] == AUDIT_VERSION
    # a range narrows the certified set: the certified tasks among the first ten
    ranged = taumesh(
        "run", "--env", "airline", "--tasks", "certified", "--end-index", "10", *ORACLE,
        "--data-dir", v1_data_dir, "--log-dir", tmp_path / "ranged",
    )  # fmt: skip
    assert_ok(ranged)
    played = sorted(entry["task_id"] for entry in load_json(results_path(tmp_path / "ranged")))
    assert played == [i for i in certified_ids(stored) if i < 10]


@pytest.fixture(scope="module")
def api(stored: StoredAudit, v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadApi]:
    with thread_api(tmp_path_factory.mktemp("api"), v1_data_dir) as server:
        yield server


def test_rest_body_tasks_certified(api: ThreadApi, stored: StoredAudit, monkeypatch: Any, tmp_path: Path) -> None:
    body = {"env": "airline", "agent_strategy": "oracle", "user_strategy": "scripted", "tasks": "certified"}
    with httpx.Client(base_url=api.base_url, headers=api.headers, timeout=300) as http:
        answer = http.post("/api/v1/validate-tasks", json=body)
        assert answer.status_code == 200, answer.text
        played = answer.json()
        assert played["status"] == "completed"
        assert sorted(result["task_id"] for result in played["results"]) == certified_ids(stored)
        assert all(result["info"]["validity"]["tasks"] == "certified" for result in played["results"])

        monkeypatch.setenv("TAUMESH_CACHE_DIR", str(tmp_path / "empty"))  # the server reads the cache per request
        refused = http.post("/api/v1/validate-tasks", json=body)
    assert refused.status_code == 422, refused.text
    error = refused.json()
    assert error["details"]["errors"][0]["loc"][:2] == ["body", "tasks"] and MAKE_ONE in error["message"]


def test_gym_draws_only_certified_tasks(stored: StoredAudit, v1_data_dir: Path) -> None:
    env = gym.make(AGENT_ENV_ID, domain="airline", data_dir=str(v1_data_dir), tasks="certified")
    try:
        drawn = {env.reset(seed=seed)[1]["task_id"] for seed in range(12)}
        assert drawn and drawn <= stored.unflagged()
        flagged = sorted(stored.flagged(), key=int)[0]
        with pytest.raises(ValueError, match="not certified"):
            env.reset(options={"task_id": flagged})
    finally:
        env.close()


@pytest.mark.slow
async def test_green_agent_config_tasks_certified(
    stored: StoredAudit, cache: Path, v1_data_dir: Path, tmp_path: Path
) -> None:
    tasks = json.loads((v1_data_dir / "airline" / "tasks_test.json").read_text(encoding="utf-8"))
    (tmp_path / "tasks.json").write_text(json.dumps(tasks), encoding="utf-8")
    agents = Agents(tmp_path / "tasks.json", tmp_path)
    purple = agents.start("text", grpc=False, garbage_once=False)
    green, proc = start_green(tmp_path, v1_data_dir, purple, env={"TAUMESH_CACHE_DIR": str(cache)})
    try:
        flagged, certified = sorted(stored.flagged(), key=int)[0], certified_ids(stored)[0]
        config = {"domain": "airline", "user_strategy": "scripted", "tasks": "certified"}
        config["task_ids"] = [int(flagged), certified]
        progress, _, parts, state = await ask(green, {"participants": {"agent": purple}, "config": config})
        assert state == TaskState.TASK_STATE_COMPLETED, progress
        played = json.loads(next(p for p in parts if p.HasField("raw")).raw)  # type: ignore[attr-defined]
        assert [entry["task_id"] for entry in played] == [certified]
        assert played[0]["info"]["validity"]["tasks"] == "certified"
    finally:
        proc.kill()
        proc.wait()
        agents.stop()
