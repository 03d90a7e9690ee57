"""``task_ids`` in ``POST /api/v1/validate-tasks`` and the Python client: τ²'s task ids (texts) beside indexes.

The API answers over real HTTP (uvicorn in a thread, SQLite) and plays with the offline oracle agent and scripted
user: τ² mock by its ids, τ-bench v1 retail by the REST fork's integers. The ids are resolved by the orchestrator,
as ``taumesh run --task-ids`` resolves them; an id the split lacks is 422 naming ``task_ids`` before any run is
stored.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from taumesh.client import InvalidRequestError, TaumeshClient
from tests.helpers.api_thread import ThreadApi
from tests.helpers.client import thread_api

OFFLINE = {"agent_strategy": "oracle", "user_strategy": "scripted"}
MOCK = {"env": "tau2-mock", **OFFLINE}


@pytest.fixture(scope="module")
def api(v1_data_dir: Path, tau2_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadApi]:
    with thread_api(tmp_path_factory.mktemp("api"), v1_data_dir) as server:
        yield server


@pytest.fixture
def client(api: ThreadApi) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=api.base_url, headers=api.headers, timeout=120) as http:
        yield http


def run_count(client: httpx.Client) -> int:
    total: int = client.get("/api/v1/runs").json()["total"]
    return total


def refused(client: httpx.Client, body: dict[str, Any]) -> str:
    """The message of the 422 naming ``task_ids`` that ``body`` gets, waiting or not; no run is stored."""
    before = run_count(client)
    messages = []
    for wait in (True, False):
        answer = client.post("/api/v1/validate-tasks", json={**body, "wait": wait})
        assert answer.status_code == 422, answer.text
        error = answer.json()
        assert error["error_type"] == "validation_error"
        assert all(e["loc"][:2] == ["body", "task_ids"] for e in error["details"]["errors"]), error
        messages.append(" ".join([error["message"], *(e["msg"] for e in error["details"]["errors"])]))
    assert run_count(client) == before
    assert messages[0] == messages[1]
    return messages[0]


def test_tau2_ids_choose_tasks_by_name(client: httpx.Client) -> None:
    """A text is the split's task id; an integer stays an index (0 is create_task_1), in one request."""
    answer = client.post("/api/v1/validate-tasks", json={**MOCK, "task_ids": ["update_task_1", 0]})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert sorted((r["task_id"], r["reward"]) for r in body["results"]) == [
        ("create_task_1", 1.0),
        ("update_task_1", 1.0),
    ]
    assert body["config_used"]["task_ids"] == ["update_task_1", 0]


def test_an_unknown_tau2_id_is_refused_with_the_resolver_s_message(client: httpx.Client) -> None:
    said = refused(client, {**MOCK, "task_ids": ["create_task_1", "create_task_9"]})
    assert "task ids ['create_task_9'] name no task of tau2-mock base" in said
    assert "create_task_1, create_task_1_with_env_assertions" in said


def test_one_task_under_two_spellings_is_refused(client: httpx.Client) -> None:
    said = refused(client, {**MOCK, "task_ids": ["create_task_1", 0]})
    assert "task ids ['create_task_1'] are given more than once" in said


def test_v1_integers_stay_indexes_and_a_numeric_text_is_the_task_of_that_id(client: httpx.Client) -> None:
    """The REST fork's body unchanged: integers are indexes, answered as integers; ``"1"`` is retail's task 1."""
    answer = client.post("/api/v1/validate-tasks", json={"env": "retail", **OFFLINE, "task_ids": [3, "1"]})
    assert answer.status_code == 200, answer.text
    assert sorted((r["task_id"], r["reward"]) for r in answer.json()["results"]) == [(1, 1.0), (3, 1.0)]
    assert "outside 0..114" in refused(client, {"env": "retail", **OFFLINE, "task_ids": [115]})
    assert "outside 0..114" in refused(client, {"env": "retail", **OFFLINE, "task_ids": ["115"]})


@pytest.mark.parametrize(
    ("task_ids", "said"),
    [
        ([-1], "greater than or equal to 0"),
        ([1.5], "fractional part"),
        ([""], "at least 1 character"),
        (["x" * 201], "at most 200 characters"),
        ([None], "a task id is a task's index (an integer) or its id (a text)"),
        ([{"id": "task_001"}], "a task id is a task's index (an integer) or its id (a text)"),
    ],
)
def test_a_malformed_id_is_refused_naming_task_ids(client: httpx.Client, task_ids: list[Any], said: str) -> None:
    assert said in refused(client, {**MOCK, "task_ids": task_ids})


def test_openapi_documents_indexes_and_ids(api: ThreadApi) -> None:
    schema = httpx.get(f"{api.base_url}/openapi.json").json()["components"]["schemas"]["ValidateTasksRequest"]
    field = schema["properties"]["task_ids"]
    task_ids = next(kind for kind in field["anyOf"] if kind.get("type") == "array")
    assert field["uniqueItems"] is True and task_ids["maxItems"] == 1000
    kinds = {kind["type"]: kind for kind in task_ids["items"]["oneOf"]}
    assert (kinds["integer"]["minimum"], kinds["integer"]["maximum"]) == (0, 1_000_000)
    assert (kinds["string"]["minLength"], kinds["string"]["maxLength"]) == (1, 200)
    assert "task_001" in field["description"]


def test_the_python_client_sends_tau2_ids(api: ThreadApi) -> None:
    with TaumeshClient(api.base_url, api.token) as sdk:
        answer = sdk.validate_tasks(**MOCK, task_ids=["create_task_1_with_env_assertions"])
        assert [(r.task_id, r.reward) for r in answer.results] == [("create_task_1_with_env_assertions", 1.0)]
        with pytest.raises(InvalidRequestError) as unknown:
            sdk.runs.create(**MOCK, task_ids=["no_such_task"])
    assert "task ids ['no_such_task'] name no task of tau2-mock base" in str(unknown.value)


def test_fresh_scores_of_one_tau2_task_play_only_that_task(client: httpx.Client) -> None:
    """``/scores?taskID=update_task_1&fresh=true``: one episode of that task, not the whole subset."""
    answer = client.get(
        "/scores", params={"model": "oracle", "subset": "tau2-mock", "taskID": "update_task_1", "fresh": True}
    )
    assert answer.status_code == 200, answer.text
    assert [json.loads(line)["task-id"] for line in answer.text.splitlines()] == ["task-update_task_1"]
    newest = client.get("/api/v1/runs", params={"limit": 1}).json()["runs"][0]
    assert newest["config_used"]["task_ids"] == ["update_task_1"] and newest["total_episodes"] == 1


@pytest.mark.parametrize(
    ("task_id", "field", "said"),
    [
        ("create_task_9", ["body", "task_ids"], "task ids ['create_task_9'] name no task of tau2-mock base"),
        ("99999999999", ["query", "taskID"], "less than or equal to 1000000"),
    ],
)
def test_fresh_scores_of_a_task_the_subset_lacks_are_refused(
    client: httpx.Client, task_id: str, field: list[str], said: str
) -> None:
    before = run_count(client)
    params = {"model": "oracle", "subset": "tau2-mock", "taskID": task_id, "fresh": True}
    answer = client.get("/scores", params=params)
    assert answer.status_code == 422, answer.text
    error = answer.json()
    assert error["error_type"] == "validation_error" and said in error["message"], error
    assert error["details"]["errors"][0]["loc"] == field
    assert run_count(client) == before
