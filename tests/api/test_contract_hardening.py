"""The API's contract where hostile and careless requests probed it (issue 22): a real uvicorn, raw HTTP.

* ``Last-Event-ID`` out of range or not a number is 422 before the stream starts (and audited as such);
* duplicate task ids are refused, by the API (422, nothing stored) and by ``taumesh run`` (one line, exit 2);
* the OpenAPI document says what the server does: error statuses, ``agent_address``, events as objects;
* the key is checked before the body is read; failed authentication is rate-limited per client address.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.helpers.api import ApiServer
from tests.helpers.api_thread import start_thread_server
from tests.helpers.cli import assert_no_traceback, taumesh

ORACLE = {"env": "retail", "agent_strategy": "oracle", "user_strategy": "scripted"}
BODY_BYTES = 50 * 1024 * 1024
FAILURES_ALLOWED = 3


@pytest.fixture(scope="module")
def api(v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    root = tmp_path_factory.mktemp("hardening")
    server = start_thread_server(
        f"sqlite:///{root / 'api.db'}", root, v1_data_dir, TAUMESH_API_AUTH_FAILURE_LIMIT=f"{FAILURES_ALLOWED}/minute"
    )
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def finished_run(api: ApiServer) -> str:
    response = httpx.post(
        f"{api.base_url}/api/v1/validate-tasks", json={**ORACLE, "task_ids": [0]}, headers=api.headers, timeout=120
    )
    assert response.status_code == 200, response.text
    run_id: str = response.json()["run_id"]
    return run_id


def audit_status(api: ApiServer, request_id: str) -> int:
    for _ in range(50):  # the line is written once the answer has gone
        for line in api.audit_path.read_text().splitlines():
            record = json.loads(line)
            if record["request_id"] == request_id:
                status: int = record["status"]
                return status
        time.sleep(0.1)
    raise AssertionError(f"no audit line for {request_id}")


@pytest.mark.slow
@pytest.mark.parametrize("value", ["99999999999999999999", str(2**63), "-1", "abc", "1e3", ""])
def test_last_event_id_out_of_range_or_not_a_number_is_422(api: ApiServer, finished_run: str, value: str) -> None:
    url = f"{api.base_url}/api/v1/runs/{finished_run}/events"
    response = httpx.get(url, headers={**api.headers, "Last-Event-ID": value})
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["error_type"] == "validation_error"
    assert body["details"]["errors"][0]["loc"] == ["header", "last-event-id"]
    assert audit_status(api, response.headers["x-request-id"]) == 422


@pytest.mark.slow
def test_last_event_id_in_range_resumes(api: ApiServer, finished_run: str) -> None:
    url = f"{api.base_url}/api/v1/runs/{finished_run}/events"
    whole = httpx.get(url, headers=api.headers).text
    ids = [int(line[3:]) for line in whole.splitlines() if line.startswith("id:")]
    assert len(ids) == 2  # episode_done, run_completed
    after_first = httpx.get(url, headers={**api.headers, "Last-Event-ID": str(ids[0])})
    assert after_first.status_code == 200
    assert [line for line in after_first.text.splitlines() if line.startswith("id:")] == [f"id: {ids[1]}"]
    largest = httpx.get(url, headers={**api.headers, "Last-Event-ID": str(2**63 - 1)})
    assert largest.status_code == 200 and "id:" not in largest.text


@pytest.mark.slow
def test_duplicate_task_ids_are_refused_by_the_api_before_anything_runs(api: ApiServer) -> None:
    admin = api.store().create_key("ops", admin=True)[1]
    runs = f"{api.base_url}/api/v1/runs"
    before = httpx.get(runs, headers={"X-API-Key": admin}).json()["total"]
    response = httpx.post(
        f"{api.base_url}/api/v1/validate-tasks", json={**ORACLE, "task_ids": [0, 0, 0, 0, 0]}, headers=api.headers
    )
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["error_type"] == "validation_error" and body["details"]["errors"][0]["loc"] == ["body", "task_ids"]
    assert "task ids [0] are given more than once" in body["message"]
    assert httpx.get(runs, headers={"X-API-Key": admin}).json()["total"] == before


def test_duplicate_task_ids_are_refused_by_taumesh_run(v1_data_dir: Path, tmp_path: Path) -> None:
    proc = taumesh(
        "run", "--env", "retail", "--task-ids", "0", "3", "0", "--agent-strategy", "oracle", "--user-strategy",
        "scripted", "--quiet", "--data-dir", v1_data_dir, "--log-dir", tmp_path / "logs", timeout=120,
    )  # fmt: skip
    assert_no_traceback(proc)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    said = [line for line in (proc.stdout + proc.stderr).splitlines() if line.strip()]
    assert said == ["error: task ids [0] are given more than once; use --num-trials for more trials"]
    assert not (tmp_path / "logs").exists() or not any((tmp_path / "logs").iterdir())


def openapi(api: ApiServer) -> dict[str, Any]:
    schema: dict[str, Any] = httpx.get(f"{api.base_url}/openapi.json").json()
    return schema


@pytest.mark.slow
def test_every_authenticated_operation_lists_the_errors_it_can_answer(api: ApiServer) -> None:
    schema = openapi(api)
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if not operation.get("security"):
                continue
            listed = set(operation["responses"])
            assert {"401", "422", "429", "500"} <= listed, (method, path, listed)
            if "{run_id}" in path or path in ("/api/v1/validate-tasks", "/api/v1/list-tasks", "/scores"):
                assert "404" in listed, (method, path)
    validate = schema["paths"]["/api/v1/validate-tasks"]["post"]["responses"]["422"]["description"]
    assert "not valid JSON" in validate


@pytest.mark.slow
def test_a_malformed_body_gets_the_listed_422(api: ApiServer) -> None:
    response = httpx.post(
        f"{api.base_url}/api/v1/validate-tasks",
        content=b'{"env": "retail",',
        headers={**api.headers, "Content-Type": "application/json"},
    )
    assert response.status_code == 422 and response.json()["error_type"] == "validation_error"


@pytest.mark.slow
def test_agent_address_schema_and_server_agree(api: ApiServer) -> None:
    field = openapi(api)["components"]["schemas"]["ValidateTasksRequest"]["properties"]["agent_address"]
    text_schema = next(option for option in field["anyOf"] if option.get("type") == "string")
    assert text_schema["minLength"] == 1  # "" is outside the schema, and the server refuses it
    response = httpx.post(
        f"{api.base_url}/api/v1/validate-tasks",
        json={**ORACLE, "task_ids": [0], "agent_address": ""},
        headers=api.headers,
    )
    assert response.status_code == 422
    assert response.json()["details"]["errors"][0]["loc"] == ["body", "agent_address"]


@pytest.mark.slow
def test_the_events_schema_describes_objects(api: ApiServer) -> None:
    schema = openapi(api)
    content = schema["paths"]["/api/v1/runs/{run_id}/events"]["get"]["responses"]["200"]["content"]
    assert list(content) == ["text/event-stream"]
    assert content["text/event-stream"]["schema"] == {"type": "object", "$ref": "#/components/schemas/RunEvent"}
    event = schema["components"]["schemas"]["RunEvent"]
    assert event["type"] == "object" and {"id", "event", "data"} <= set(event["properties"])
    data = {ref["$ref"].rsplit("/", 1)[-1] for ref in event["properties"]["data"]["anyOf"]}
    assert data == {"EpisodeDone", "RunEnded"}
    assert set(schema["components"]["schemas"]["EpisodeDone"]["properties"]) == {
        "task_id", "trial", "reward", "done", "total", "pass_rate", "cost_usd",
    }  # fmt: skip


@pytest.mark.slow
def test_the_key_is_checked_before_the_body_is_read(api: ApiServer) -> None:
    """A 50 MB body without a key: the 401 comes while almost all of the body is still unsent.

    The server answers from the headers; had it read the body first, it would wait for the 50 MB this client
    never sends, and the read below would time out.
    """
    head = (
        "POST /api/v1/validate-tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {BODY_BYTES}\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", api.port), timeout=30) as sock:
        sock.sendall(head + b'{"env": "' + b"x" * 65_536)  # then nothing more
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(65_536)
            if not chunk:
                break
            answer += chunk
    status_line = answer.split(b"\r\n", 1)[0]
    assert status_line == b"HTTP/1.1 401 Unauthorized", answer[:500]


@pytest.mark.slow
def test_failed_authentication_is_rate_limited_per_client_address(api: ApiServer) -> None:
    """Guesses from 127.0.0.3 use up that address's window; 127.0.0.2 (and this module's 127.0.0.1) go on."""
    url = f"{api.base_url}/api/v1/runs"
    with (
        httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.3")) as guesser,
        httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2")) as other,
    ):
        assert guesser.get(url, headers=api.headers).status_code == 200
        guesses = [
            guesser.get(url, headers={"X-API-Key": f"tmk_000000000000.guess-{n}"}) for n in range(FAILURES_ALLOWED + 1)
        ]
        assert [r.status_code for r in guesses] == [401] * FAILURES_ALLOWED + [429]
        limited = guesses[-1]
        assert limited.json()["error_type"] == "rate_limit_error"
        assert 1 <= int(limited.headers["retry-after"]) <= 60 and 0 < limited.json()["retry_after"] <= 60
        # the address is refused whatever it sends until its window frees; another address is not
        assert guesser.get(url, headers=api.headers).status_code == 429
        assert other.get(url, headers=api.headers).status_code == 200
        assert other.get(url, headers={"X-API-Key": "tmk_000000000000.guess"}).status_code == 401
