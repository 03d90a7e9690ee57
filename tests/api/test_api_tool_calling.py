"""validate-tasks with the tool-calling agent and the llm user, their models served by the scripted
OpenAI-compatible server: the API's operator allow-list lets the request name that endpoint, and only that one.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from taumesh.domains import Catalog
from tests.helpers.api import ApiServer
from tests.helpers.api_thread import start_thread_server
from tests.helpers.fake_model import FAKE_KEY, FakeOpenAI
from tests.llm.scripts import AGENT_MODEL, USER_MODEL, GoldAgent, Router, ScriptedLlmUser, TaskIndex

pytestmark = pytest.mark.slow  # an API server and a run with model calls: seconds


@pytest.fixture(scope="module")
def fake_models(v1_data_dir: Path) -> Iterator[FakeOpenAI]:
    index = TaskIndex(Catalog(v1_data_dir).get("retail").tasks("test"))
    with FakeOpenAI(Router(GoldAgent(index), ScriptedLlmUser(index))) as server:
        yield server


@pytest.fixture(scope="module")
def llm_api(
    fake_models: FakeOpenAI, v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ApiServer]:
    root = tmp_path_factory.mktemp("llm-api")
    server = start_thread_server(
        f"sqlite:///{root / 'api.db'}",
        root,
        v1_data_dir,
        OPENAI_API_KEY=FAKE_KEY,
        TAUMESH_API_ALLOWED_API_BASES=fake_models.url,
        TAUMESH_LLM_BACKOFF_INITIAL="0.01",
        TAUMESH_LLM_BACKOFF_MAX="0.05",
    )
    try:
        yield server
    finally:
        server.stop()


def test_tool_calling_agent_through_the_api(llm_api: ApiServer, fake_models: FakeOpenAI) -> None:
    request = {
        "env": "retail",
        "task_ids": [0, 1],
        "agent_strategy": "tool-calling",
        "model": AGENT_MODEL,
        "model_provider": "openai",
        "api_base": fake_models.url,
        "user_strategy": "llm-taumesh",
        "user_model": USER_MODEL,
        "user_model_provider": "openai",
        "user_api_base": fake_models.url,
        "max_concurrency": 2,
    }
    response = httpx.post(
        f"{llm_api.base_url}/api/v1/validate-tasks", json=request, headers=llm_api.headers, timeout=180
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] == "completed", body.get("error")
    assert [r["reward"] for r in sorted(body["results"], key=lambda r: r["task_id"])] == [1.0, 1.0]
    assert all(r["info"]["agent_usage"]["calls"] >= 2 for r in body["results"])
    assert fake_models.completions(AGENT_MODEL) and fake_models.completions(USER_MODEL)

    elsewhere = {**request, "api_base": "http://127.0.0.1:9/v1"}
    refused = httpx.post(f"{llm_api.base_url}/api/v1/validate-tasks", json=elsewhere, headers=llm_api.headers)
    assert refused.status_code == 422 and refused.json()["details"]["errors"][0]["loc"] == ["body", "api_base"]
