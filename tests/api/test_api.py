"""The REST API against a real uvicorn on loopback, raw HTTP (httpx), over SQLite and PostgreSQL.

Benchmarks run with the offline oracle agent and scripted user on τ-bench v1 retail. The module's server runs in a
thread of the test process; the restart test SIGKILLs a uvicorn process of its own, over a database of its own.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from tests.helpers.api import FAKE_PROVIDER_KEY, ApiServer, start_server
from tests.helpers.api_thread import ThreadApi, start_thread_server

ORACLE = {"env": "retail", "agent_strategy": "oracle", "user_strategy": "scripted"}
ERROR_KEYS = {"error_type", "message", "details", "timestamp"}


@pytest.fixture(scope="module")
def api(thread_api: ThreadApi) -> ApiServer:
    """The module's server, in a thread: these tests are about what the API answers, not about its process."""
    return thread_api


@pytest.fixture
def client(api: ApiServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=api.base_url, headers=api.headers, timeout=120) as http:
        yield http


def assert_error(response: httpx.Response, status: int, error_type: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert set(body) >= ERROR_KEYS, body
    assert body["error_type"] == error_type
    assert "Traceback" not in response.text and 'File "' not in response.text
    return body


def wait_for_run(client: httpx.Client, run_id: str, timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run: dict[str, Any] = client.get(f"/api/v1/runs/{run_id}").json()
        if run["status"] in ("completed", "failed", "cancelled"):
            return run
        time.sleep(0.1)
    raise AssertionError(f"run {run_id} did not end within {timeout} s")


def sse_events(client: httpx.Client, run_id: str) -> list[tuple[str, dict[str, Any]]]:
    """Every event of the stream, read until the server ends it."""
    events, kind = [], "message"
    with client.stream("GET", f"/api/v1/runs/{run_id}/events") as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        for line in response.iter_lines():
            if line.startswith("event:"):
                kind = line.split(":", 1)[1].strip()
            elif line.startswith("data:"):
                events.append((kind, json.loads(line.split(":", 1)[1])))
    return events


def test_health_names_providers_without_keys(client: httpx.Client) -> None:
    # no key needed; the first /health imports litellm for its model lists (seconds on a loaded machine)
    response = httpx.get(f"{client.base_url}/health", timeout=120)
    body = response.json()
    assert response.status_code == 200 and body["status"] == "healthy"
    assert {"retail", "airline"} <= set(body["supported_environments"])
    assert {"provider": "openai", "configured": True} in body["providers"]
    assert FAKE_PROVIDER_KEY not in response.text


def test_openapi_documents_every_model(api: ApiServer) -> None:
    assert httpx.get(f"{api.base_url}/docs", timeout=60).status_code == 200
    assert httpx.get(f"{api.base_url}/redoc", timeout=60).status_code == 200
    schema = httpx.get(f"{api.base_url}/openapi.json", timeout=60).json()  # built on the first call
    models = schema["components"]["schemas"]
    ours = {"ValidateTasksRequest", "ValidateTasksResponse", "RunAccepted", "Run", "RunList", "ErrorResponse"}
    assert ours <= set(models)
    assert [name for name, model in models.items() if not model.get("description")] == []
    assert "HTTPValidationError" not in models  # 422 is documented as the API's own ErrorResponse
    security = schema["components"]["securitySchemes"]
    assert {s["type"] for s in security.values()} == {"http", "apiKey"}


def test_validate_tasks_runs_synchronously(client: httpx.Client) -> None:
    response = client.post("/api/v1/validate-tasks", json={**ORACLE, "task_ids": [0, 1, 2], "num_trials": 2})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] == "completed" and body["request_id"] == response.headers["x-request-id"]
    # the REST fork's contract: integer ids, task order trial after trial
    assert [(r["task_id"], r["trial"]) for r in body["results"]] == [(t, k) for k in (0, 1) for t in (0, 1, 2)]
    assert all(r["reward"] == 1.0 and r["success"] for r in body["results"])
    assert body["results"][0]["info"]["reward_info"]["info"]["r_actions"] == 1.0
    metrics = body["metrics"]
    assert metrics["total_tasks"] == 3 and metrics["successful_tasks"] == 3 and metrics["failed_tasks"] == 0
    assert metrics["total_episodes"] == 6 and metrics["successful_episodes"] == 6
    assert metrics["success_rate"] == 1.0 and metrics["average_reward"] == 1.0
    assert metrics["pass_hat_k"] == {"1": 1.0, "2": 1.0}
    assert body["config_used"]["task_ids"] == [0, 1, 2] and body["execution_time_seconds"] > 0


def test_x_api_key_header_authenticates(api: ApiServer) -> None:
    response = httpx.post(
        f"{api.base_url}/api/v1/validate-tasks", json={**ORACLE, "task_ids": [5]}, headers={"X-API-Key": api.token}
    )
    assert response.status_code == 200 and response.json()["results"][0]["reward"] == 1.0


def test_async_run_streams_events_then_serves_results(client: httpx.Client) -> None:
    response = client.post("/api/v1/validate-tasks", json={**ORACLE, "start_index": 10, "end_index": 16, "wait": False})
    assert response.status_code == 202, response.text
    accepted = response.json()
    run_id = accepted["run_id"]
    assert accepted["links"]["events"] == f"/api/v1/runs/{run_id}/events"

    events = sse_events(client, run_id)
    progress = [data for kind, data in events if kind == "episode_done"]
    assert [p["done"] for p in progress] == [1, 2, 3, 4, 5, 6]
    assert {p["total"] for p in progress} == {6} and progress[-1]["pass_rate"] == 1.0
    assert all("cost_usd" in p for p in progress)
    assert events[-1][0] == "run_completed" and events[-1][1]["metrics"]["successful_tasks"] == 6

    run = client.get(f"/api/v1/runs/{run_id}").json()
    assert run["status"] == "completed" and run["done_episodes"] == run["total_episodes"] == 6
    results = client.get(f"/api/v1/runs/{run_id}/results").json()
    assert sorted(int(r["task_id"]) for r in results) == list(range(10, 16))
    trajectories = client.get(f"/api/v1/runs/{run_id}/trajectories", params={"limit": 2}).json()
    assert len(trajectories) == 2 and trajectories[0]["messages"][0]["role"] == "system"
    listed = client.get("/api/v1/runs", params={"status": "completed", "limit": 100}).json()
    assert run_id in [r["id"] for r in listed["runs"]]


@pytest.mark.slow  # 3.5 s of waiting: the worker notices the cancel at its next lease renewal, then nothing more
def test_cancel_stops_an_async_run(client: httpx.Client) -> None:
    run_id = client.post("/api/v1/validate-tasks", json={**ORACLE, "wait": False}).json()["run_id"]
    cancelled = client.post(f"/api/v1/runs/{run_id}/cancel")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    events = sse_events(client, run_id)
    assert events[-1][0] == "run_cancelled"
    time.sleep(2)  # the worker notices within a third of the 3 s lease
    done = client.get(f"/api/v1/runs/{run_id}").json()["done_episodes"]
    time.sleep(1.5)
    after = client.get(f"/api/v1/runs/{run_id}").json()
    assert after["status"] == "cancelled" and after["done_episodes"] == done < 115


def test_list_tasks_paginates(client: httpx.Client) -> None:
    seen: list[int] = []
    page: int | None = 1
    while page is not None:
        body = client.post("/api/v1/list-tasks", json={"env": "retail", "page": page, "page_size": 50}).json()
        assert body["total"] == 115 and body["task_split"] == "test"
        seen += [t["task_id"] for t in body["tasks"]]
        page = body["next_page"]
    assert seen == list(range(115))
    first = client.post("/api/v1/list-tasks", json={"env": "retail", "page_size": 1}).json()["tasks"][0]
    assert first["user_id"] == "yusuf_rossi_9620" and first["action_count"] == first["num_actions"] == 5
    assert len(first["instruction_preview"]) == 200
    past = client.post("/api/v1/list-tasks", json={"env": "retail", "page": 4, "page_size": 50}).json()
    assert past["tasks"] == [] and past["next_page"] is None and past["total"] == 115


def test_authentication_errors(api: ApiServer) -> None:
    url = f"{api.base_url}/api/v1/runs"
    assert_error(httpx.get(url), 401, "authentication_error")
    assert_error(
        httpx.get(url, headers={"Authorization": "Bearer tmk_000000000000.wrong"}), 401, "authentication_error"
    )
    assert_error(httpx.get(url, headers={"X-API-Key": api.token + "x"}), 401, "authentication_error")
    store = api.store()
    row, token = store.create_key("revoked")
    assert httpx.get(url, headers={"X-API-Key": token}).status_code == 200
    store.revoke_key(row.id)
    assert_error(httpx.get(url, headers={"X-API-Key": token}), 401, "authentication_error")


def test_validation_and_not_found_errors(client: httpx.Client) -> None:
    body = assert_error(
        client.post("/api/v1/validate-tasks", json={**ORACLE, "num_trials": 11}), 422, "validation_error"
    )
    assert body["details"]["errors"][0]["loc"] == ["body", "num_trials"]
    assert_error(client.post("/api/v1/validate-tasks", json={**ORACLE, "temperature": 2.5}), 422, "validation_error")
    assert_error(client.post("/api/v1/validate-tasks", json={**ORACLE, "unknown": 1}), 422, "validation_error")
    refused = assert_error(
        client.post("/api/v1/validate-tasks", json={**ORACLE, "agent_address": "evil.example:443"}),
        422,
        "validation_error",
    )
    assert refused["details"]["errors"][0]["loc"] == ["body", "agent_address"]
    assert_error(
        client.post("/api/v1/validate-tasks", json={**ORACLE, "api_base": "http://evil.example"}),
        422,
        "validation_error",
    )
    assert_error(client.get("/api/v1/runs/no-such-run"), 404, "not_found")
    assert_error(client.get("/api/v1/runs/no-such-run/events"), 404, "not_found")
    assert_error(client.get("/api/v1/nowhere"), 404, "not_found")
    assert_error(client.post("/api/v1/list-tasks", json={"env": "atlantis"}), 404, "not_found")
    assert_error(
        client.get("/scores", params={"model": "nobody", "subset": "retail", "fresh": "false"}), 404, "not_found"
    )


def test_internal_error_has_no_stack_trace(api: ApiServer, client: httpx.Client) -> None:
    run_id = client.post("/api/v1/validate-tasks", json={**ORACLE, "task_ids": [3]}).json()["run_id"]
    engine = api.store().engine
    with engine.begin() as connection:  # the database loses a table under the running server
        connection.execute(text("ALTER TABLE results RENAME TO results_away"))
    try:
        body = assert_error(client.get(f"/api/v1/runs/{run_id}/results"), 500, "internal_error")
        assert "results" not in body["message"].lower() and "sql" not in json.dumps(body).lower()
    finally:
        with engine.begin() as connection:
            connection.execute(text("ALTER TABLE results_away RENAME TO results"))
    assert client.get(f"/api/v1/runs/{run_id}/results").status_code == 200


def test_scores_jsonl_of_the_latest_run(client: httpx.Client) -> None:
    client.post("/api/v1/validate-tasks", json={**ORACLE, "task_ids": [0, 7]})
    stored = {"model": "oracle", "subset": "retail", "fresh": "false"}
    response = client.get("/scores", params=stored)
    assert response.status_code == 200 and response.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in response.text.splitlines()]
    assert sorted(line["task-id"] for line in lines) == ["task-0", "task-7"]  # the MT fork's spelling
    assert set(lines[0]) == {"task-id", "prompt", "result", "truth", "score", "duration"}
    seven = next(line for line in lines if line["task-id"] == "task-7")
    assert seven["score"] == 1.0 and seven["result"] == seven["truth"] and seven["result"].startswith("find_user_id")
    only = client.get("/scores", params={**stored, "taskID": "7"}).text.splitlines()
    assert [json.loads(line)["task-id"] for line in only] == ["task-7"]
    also = client.get("/scores", params={**stored, "taskID": "task-7"}).text
    assert also.splitlines() == only


def test_fresh_scores_play_a_new_run(client: httpx.Client) -> None:
    before = client.get("/api/v1/runs").json()["total"]
    response = client.get("/scores", params={"model": "oracle", "subset": "retail", "taskID": "9"})  # fresh: default
    assert response.status_code == 200, response.text
    assert [json.loads(line)["task-id"] for line in response.text.splitlines()] == ["task-9"]
    newest = client.get("/api/v1/runs", params={"limit": 1}).json()
    assert newest["total"] == before + 1 and newest["runs"][0]["config_used"]["task_ids"] == [9]
    assert_error(client.get("/scores", params={"model": "oracle", "subset": "atlantis"}), 404, "not_found")


def test_audit_line_per_request_without_secrets(api: ApiServer, client: httpx.Client) -> None:
    response = client.post("/api/v1/validate-tasks", json={**ORACLE, "task_ids": [4]})
    run_id, request_id = response.json()["run_id"], response.headers["x-request-id"]
    seen = client.get(f"/api/v1/runs/{run_id}")
    missing = httpx.get(f"{api.base_url}/api/v1/runs", headers={"X-API-Key": "tmk_deadbeef0000.not-a-key"})
    ids = [r.headers["x-request-id"] for r in (response, seen, missing)]
    deadline = time.monotonic() + 10  # each line is written once its answer has gone out
    while not all(i in (text_ := api.audit_path.read_text()) for i in ids):
        assert time.monotonic() < deadline, "a request has no audit line"
        time.sleep(0.02)
    assert api.token not in text_ and api.token.split(".")[1] not in text_ and "not-a-key" not in text_
    assert FAKE_PROVIDER_KEY not in text_
    lines = [json.loads(line) for line in text_.splitlines()]
    assert all({"time", "key_id", "route", "status", "latency_ms", "request_id", "run_id"} <= set(x) for x in lines)
    by_id = {line["request_id"]: line for line in lines}
    line = by_id[request_id]
    assert line["key_id"] == api.key_id and line["route"] == "/api/v1/validate-tasks"
    assert line["status"] == 200 and line["run_id"] == run_id
    got = [x for x in lines if x["route"] == "/api/v1/runs/{run_id}" and x["run_id"] == run_id]
    assert got and got[-1]["status"] == 200
    refused = by_id[missing.headers["x-request-id"]]
    assert refused["status"] == 401 and refused["key_id"] is None


def test_rate_limit_answers_429_with_retry_after(api: ApiServer, tmp_path: Path) -> None:
    limited = start_thread_server(api.database_url, tmp_path, api.data_dir, TAUMESH_API_RATE_LIMIT="3/minute")
    try:
        url, headers = f"{limited.base_url}/api/v1/runs", limited.headers
        assert [httpx.get(url, headers=headers).status_code for _ in range(3)] == [200, 200, 200]
        response = httpx.get(url, headers=headers)
        body = assert_error(response, 429, "rate_limit_error")
        assert 0 < body["retry_after"] <= 60
        assert 1 <= int(response.headers["retry-after"]) <= 60
        other = limited.store().create_key("another")[1]  # the limit is per key
        assert httpx.get(url, headers={"X-API-Key": other}).status_code == 200
    finally:
        limited.stop()


@pytest.mark.kill
def test_restart_mid_run_resumes_without_duplicates(own_database_url: str, v1_data_dir: Path, tmp_path: Path) -> None:
    # a process to SIGKILL, alone on its database; a short lease: the restarted process need not wait 3 s for it
    api = start_server(
        own_database_url, tmp_path, v1_data_dir, TAUMESH_API_LEASE_SECONDS="1.5", TAUMESH_API_POLL_SECONDS="0.2"
    )
    try:
        with httpx.Client(base_url=api.base_url, headers=api.headers, timeout=120) as client:
            resume_after_a_crash(api, client)
    finally:
        api.stop()


def resume_after_a_crash(api: ApiServer, client: httpx.Client) -> None:
    # one episode at a time (max_concurrency 1): the kill comes long before the 20th; the size shows nothing more
    request = {**ORACLE, "start_index": 20, "end_index": 40, "wait": False}
    run_id = client.post("/api/v1/validate-tasks", json=request).json()["run_id"]
    deadline = time.monotonic() + 60
    while client.get(f"/api/v1/runs/{run_id}").json()["done_episodes"] < 5:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    api.stop(kill=True)  # a crash: the lease stays until it expires
    stored_before = api.store().result_count(run_id)
    assert 5 <= stored_before < 20
    api.start()
    run = wait_for_run(client, run_id)
    assert run["status"] == "completed" and run["done_episodes"] == run["total_episodes"] == 20
    results = client.get(f"/api/v1/runs/{run_id}/results").json()
    keys = [(r["task_id"], r["trial"]) for r in results]
    assert len(keys) == len(set(keys)) == 20 and sorted(int(k) for k, _ in keys) == list(range(20, 40))
    assert run["metrics"]["successful_tasks"] == 20
