"""Local mode (issue 40, item 6): the REST fork's keyless calls answer on loopback when the operator opted in.

Over real HTTP: a server in local mode and one with the default settings, each from a thread of this process; the
startup checks through the real commands (``taumesh serve api``, ``tau-bench-server``) as processes.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from taumesh.api.local_mode import LOCAL_KEY_ID
from tests.helpers.api_thread import ThreadApi
from tests.helpers.client import thread_api
from tests.helpers.processes import free_port, wait_for_http

FORK_BODY: dict[str, Any] = {
    "model_provider": "openai",
    "model": "gpt-4o",
    "env": "retail",
    "num_trials": 1,
    "start_index": 0,
    "end_index": 2,
    "agent_strategy": "oracle",  # no model on this machine: the oracle agent and the scripted user play
    "user_strategy": "scripted",
}
"""The fork README's ``validate-tasks`` body, as its ``curl -H 'Content-Type: application/json' -d …`` sends it."""
BIN = Path(sys.executable).parent


@pytest.fixture(scope="module")
def local(v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadApi]:
    """A server in local mode (``TAUMESH_API_LOCAL=1``) on loopback; its test key is an ordinary, non-admin key."""
    with thread_api(tmp_path_factory.mktemp("local"), v1_data_dir, TAUMESH_API_LOCAL="1") as server:
        yield server


@pytest.fixture(scope="module")
def default(v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadApi]:
    """A server with the default settings, on loopback too."""
    with thread_api(tmp_path_factory.mktemp("default"), v1_data_dir) as server:
        yield server


@pytest.fixture(autouse=True)
def no_client_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fork's client reads ``$TAUMESH_API_KEY``; the fork's user has none."""
    monkeypatch.delenv("TAUMESH_API_KEY", raising=False)


def test_the_forks_literal_calls_answer_without_a_key(local: ThreadApi) -> None:
    from tau_bench.api.client import TauBenchAPIClient

    answer = httpx.post(f"{local.base_url}/api/v1/validate-tasks", json=FORK_BODY, timeout=120)
    assert answer.status_code == 200, answer.text
    assert answer.json()["metrics"]["success_rate"] == 1.0
    listed = httpx.post(f"{local.base_url}/api/v1/list-tasks", json={"env": "retail", "task_split": "test"}, timeout=60)
    assert listed.status_code == 200 and listed.json()["total_tasks"] == 115

    client = TauBenchAPIClient(base_url=local.base_url)  # the fork README's client, no key given or in the env
    response = client.validate_tasks(**FORK_BODY)
    assert response.status == "completed" and response.metrics is not None and response.metrics.success_rate == 1.0
    run = httpx.get(f"{local.base_url}/api/v1/runs/{response.run_id}", timeout=30)
    assert run.status_code == 200 and run.json()["status"] == "completed"


def test_keyless_callers_are_the_local_key_and_keys_keep_their_runs(local: ThreadApi) -> None:
    body = {**FORK_BODY, "wait": False}
    keyless_run = httpx.post(f"{local.base_url}/api/v1/validate-tasks", json=body, timeout=60).json()["run_id"]
    keyed_run = httpx.post(
        f"{local.base_url}/api/v1/validate-tasks", json=body, headers=local.headers, timeout=60
    ).json()["run_id"]

    row = local.store().get_run(keyless_run)
    assert row is not None and row.owner_key_id == LOCAL_KEY_ID
    listed = [key for key in local.store().list_keys() if key.id == LOCAL_KEY_ID]
    assert len(listed) == 1 and not listed[0].admin  # a real key, listed, not an admin

    def status(run_id: str, headers: dict[str, str] | None = None) -> int:
        return httpx.get(f"{local.base_url}/api/v1/runs/{run_id}", headers=headers, timeout=30).status_code

    # ownership as between any two keys: each sees its own run, and 404 for the other's; an admin key sees both
    assert status(keyless_run) == 200 and status(keyed_run) == 404
    assert status(keyed_run, local.headers) == 200 and status(keyless_run, local.headers) == 404
    admin = {"X-API-Key": local.store().create_key("ops", admin=True)[1]}
    assert status(keyless_run, admin) == 200 and status(keyed_run, admin) == 200
    # a key that is sent is checked as always: a wrong one is not let through as the local key
    wrong = httpx.get(f"{local.base_url}/api/v1/runs", headers={"X-API-Key": "tmk_local.guess"}, timeout=30)
    assert wrong.status_code == 401 and wrong.json()["message"] == "the API key is not valid"


def test_a_client_that_is_not_loopback_still_needs_a_key(local: ThreadApi) -> None:
    # uvicorn takes the client address from a loopback proxy's X-Forwarded-For: a request relayed from elsewhere
    relayed = httpx.get(f"{local.base_url}/api/v1/runs", headers={"X-Forwarded-For": "203.0.113.7"}, timeout=30)
    assert relayed.status_code == 401
    assert "only to loopback clients" in relayed.json()["message"]
    assert httpx.get(f"{local.base_url}/api/v1/runs", timeout=30).status_code == 200


def test_health_says_authentication_is_off_only_in_local_mode(local: ThreadApi, default: ThreadApi) -> None:
    off = httpx.get(f"{local.base_url}/health", timeout=60).json()
    assert off["auth_required"] is False and off["local_key_id"] == LOCAL_KEY_ID
    on = httpx.get(f"{default.base_url}/health", timeout=60).json()
    assert on["auth_required"] is True and on["local_key_id"] is None


def test_the_default_still_answers_401_without_a_key(default: ThreadApi) -> None:
    for method, path, body in [
        ("POST", "/api/v1/validate-tasks", FORK_BODY),
        ("POST", "/api/v1/list-tasks", {"env": "retail"}),
        ("GET", "/api/v1/runs", None),
        ("GET", "/scores?model=openai_gpt-4o&subset=airline&taskID=1", None),
    ]:
        answer = httpx.request(method, f"{default.base_url}{path}", json=body, timeout=30)
        assert answer.status_code == 401, path
        assert answer.json()["message"] == "an API key is required (Authorization: Bearer or X-API-Key)"
    assert all(key.id != LOCAL_KEY_ID for key in default.store().list_keys())


def test_revoking_the_local_key_ends_keyless_access(v1_data_dir: Path, tmp_path: Path) -> None:
    with thread_api(tmp_path, v1_data_dir, TAUMESH_API_LOCAL="1") as server:
        assert httpx.get(f"{server.base_url}/api/v1/runs", timeout=30).status_code == 200
        assert server.store().revoke_key(LOCAL_KEY_ID)
        refused = httpx.get(f"{server.base_url}/api/v1/runs", timeout=30)
        assert refused.status_code == 401 and LOCAL_KEY_ID in refused.json()["message"]
        assert httpx.get(f"{server.base_url}/api/v1/runs", headers=server.headers, timeout=30).status_code == 200


def listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


@pytest.mark.parametrize(
    ("command", "env"),
    [
        ([str(BIN / "taumesh"), "serve", "api", "--local", "--host", "0.0.0.0"], {}),
        ([str(BIN / "taumesh"), "serve", "api", "--host", "::"], {"TAUMESH_API_LOCAL": "1"}),
        ([str(BIN / "tau-bench-server")], {"TAUMESH_API_LOCAL": "1"}),  # the fork's default host: 0.0.0.0
    ],
    ids=["serve-api-flag", "serve-api-env", "tau-bench-server-default-host"],
)
def test_local_mode_on_a_host_that_is_not_loopback_does_not_start(
    command: list[str], env: dict[str, str], tmp_path: Path
) -> None:
    port = free_port()
    variables = {**os.environ, "TAUMESH_API_DATA_ROOT": str(tmp_path), **env}
    for inherited in ("TAUMESH_API_HOST", "HOST"):
        variables.pop(inherited, None)
    done = subprocess.run([*command, "--port", str(port)], capture_output=True, text=True, timeout=60, env=variables)
    assert done.returncode == 2, done.stderr
    assert "local mode" in done.stderr and "is not loopback" in done.stderr and "127.0.0.1" in done.stderr
    assert "Traceback" not in done.stderr
    assert not listening(port) and not (tmp_path / "taumesh-api.db").exists()  # refused before anything started


@pytest.mark.slow
def test_tau_bench_server_in_local_mode_says_so_and_serves_the_forks_client(v1_data_dir: Path, tmp_path: Path) -> None:
    from tau_bench.api.client import TauBenchAPIClient

    port = free_port()
    variables = {
        **os.environ,
        "TAUMESH_API_LOCAL": "1",
        "TAUMESH_API_DATA_ROOT": str(tmp_path),
        "TAUMESH_API_DATA_DIR": str(v1_data_dir),
    }
    log = tmp_path / "server.log"
    command = [str(BIN / "tau-bench-server"), "--host", "127.0.0.1", "--port", str(port), "--log-dir", str(tmp_path)]
    server = subprocess.Popen(command, env=variables, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    try:
        wait_for_http(server, f"http://127.0.0.1:{port}/health", log, seconds=120, poll=0.2)
        started = log.read_text()
        assert "LOCAL MODE: authentication is off" in started and LOCAL_KEY_ID in started
        client = TauBenchAPIClient(base_url=f"http://127.0.0.1:{port}")
        assert client.health_check().status == "healthy"
        response = client.validate_tasks(**FORK_BODY)
        assert response.metrics is not None and response.metrics.success_rate == 1.0
    finally:
        server.terminate()
        server.wait(timeout=30)
