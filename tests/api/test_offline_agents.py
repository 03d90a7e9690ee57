"""Strategies that call no model are offline in the API as their classes declare them (``calls_model``).

Over real HTTP (uvicorn in a thread, SQLite): the ``null`` agent runs with a model name litellm lists for no
provider (its model is never called, so never checked), and the run is known by the strategy's name, as ``oracle``'s.
A strategy that calls a model, the agent's or the user's, has that model checked before anything runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.helpers.api_thread import ThreadApi
from tests.helpers.client import thread_api


@pytest.fixture(scope="module")
def api(v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadApi]:
    with thread_api(tmp_path_factory.mktemp("api"), v1_data_dir) as server:
        yield server


def test_null_agent_is_offline(api: ThreadApi) -> None:
    body = {"env": "airline", "agent_strategy": "null", "user_strategy": "scripted", "model": "no-such-model-anywhere"}
    body["user_model"] = "no-such-user-model"  # the scripted user calls no model either (its own declaration)
    with httpx.Client(base_url=api.base_url, headers=api.headers, timeout=120) as http:
        answer = http.post("/api/v1/validate-tasks", json={**body, "task_ids": [0, 12]})
        assert answer.status_code == 200, answer.text
        played = answer.json()
        assert played["status"] == "completed"
        run = http.get(f"/api/v1/runs/{played['run_id']}").json()
        # a tool-calling agent with the same model name is refused: the model check still runs for a model agent
        refused = http.post("/api/v1/validate-tasks", json={**body, "agent_strategy": "tool-calling"})
    assert run["model"] == "null"
    assert {r["task_id"]: r["reward"] for r in played["results"]} == {0: 0.0, 12: 1.0}
    assert refused.status_code == 422 and refused.json()["details"]["errors"][0]["loc"][:2] == ["body", "model"]


@pytest.mark.parametrize(
    ("calling", "field"), [({"agent_strategy": "tool-calling"}, "model"), ({"user_strategy": "llm"}, "user_model")]
)
def test_only_a_strategy_that_calls_a_model_has_it_checked(api: ThreadApi, calling: dict[str, str], field: str) -> None:
    body = {"env": "airline", "agent_strategy": "oracle", "user_strategy": "scripted", "task_ids": [12]}
    body |= {"model": "no-such-model-anywhere", "user_model": "no-such-user-model"}
    with httpx.Client(base_url=api.base_url, headers=api.headers, timeout=120) as http:
        played = http.post("/api/v1/validate-tasks", json=body)
        refused = http.post("/api/v1/validate-tasks", json={**body, **calling})
    assert played.status_code == 200 and played.json()["status"] == "completed", played.text
    assert refused.status_code == 422 and refused.json()["details"]["errors"][0]["loc"][:2] == ["body", field]
