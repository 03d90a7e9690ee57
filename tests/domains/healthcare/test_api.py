"""The REST API serves healthcare: /health lists it, list-tasks pages it, validate-tasks plays it (oracle)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from taumesh.domains import DOMAIN_PATH_ENV
from tests.helpers.api import ApiServer
from tests.helpers.api_thread import start_thread_server
from tests.helpers.healthcare import PLUGIN_PATH, V1

pytestmark = pytest.mark.slow  # every test needs the module's API server: seconds to start

ORACLE = {"env": V1, "task_split": "base", "agent_strategy": "oracle", "user_strategy": "scripted"}


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    root = tmp_path_factory.mktemp("api")
    server = start_thread_server(
        f"sqlite:///{root / 'api.db'}", root, root / "no-data", **{DOMAIN_PATH_ENV: str(PLUGIN_PATH)}
    )
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def client(api: ApiServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=api.base_url, headers=api.headers, timeout=120) as http:
        yield http


def test_health_lists_healthcare(client: httpx.Client) -> None:
    body = httpx.get(f"{client.base_url}/health", timeout=120).json()  # its first answer imports litellm
    assert "healthcare" in body["supported_environments"]


def test_list_tasks_pages_the_split(client: httpx.Client) -> None:
    response = client.post("/api/v1/list-tasks", json={"env": V1, "task_split": "test", "page_size": 5})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["total_tasks"] == 45 and len(body["tasks"]) == 5
    assert body["tasks"][0]["task_id"] == "book_appointment-03"


def test_validate_tasks_plays_dual_control_tasks_with_the_oracle(client: httpx.Client, tmp_path: Path) -> None:
    response = client.post("/api/v1/validate-tasks", json={**ORACLE, "start_index": 148, "end_index": 158})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] == "completed"
    assert len(body["results"]) == 10 and all(r["reward"] == 1.0 for r in body["results"])
    assert {str(r["task_id"]).rsplit("-", 1)[0] for r in body["results"]} == {"home_reading", "insurance_update"}
    assert body["metrics"]["success_rate"] == 1.0
