"""Every front door runs ``taumesh run``'s one pre-flight (:func:`taumesh.orchestrator.run.preflight.run_problems`).

The CLI reports every problem it finds at once, not the first. The REST API refuses a model whose credentials its
own services lack with a 422 naming the field, before anything is stored or played (it used to accept the run, end
it ``completed`` and pay for the user simulator). The A2A green agent rejects such a request before it starts work;
its default user is the CLI's (``llm`` on ``gpt-4o``), so a request that names none needs that model's key.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from a2a.types.a2a_pb2 import TaskState

from tests.a2a.test_green_agent import ask, start_green
from tests.helpers.api_thread import ThreadApi
from tests.helpers.cli import invoke
from tests.helpers.client import thread_api

KEYLESS = {"agent_strategy": "tool-calling", "model": "gpt-4o", "model_provider": "openai"}
"""An agent whose model needs OPENAI_API_KEY, which no test process holds unless a test sets it."""


@pytest.fixture(autouse=True)
def no_openai_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


@pytest.fixture(scope="module")
def api(v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadApi]:
    with thread_api(tmp_path_factory.mktemp("api"), v1_data_dir) as server:
        yield server


def test_the_cli_reports_every_problem_at_once(tmp_path: Path) -> None:
    result = invoke("run", "--env", "retail", "--agent-strategy", "tool-calling", "--user-strategy", "nobody",
                    "--log-dir", tmp_path)  # fmt: skip
    assert result.exit_code == 2
    assert "--agent-strategy tool-calling needs --model" in result.output
    assert "unknown user strategy 'nobody'" in result.output
    assert not list(tmp_path.iterdir())  # nothing ran, nothing was written


def test_the_cli_names_the_missing_key_of_each_model(tmp_path: Path) -> None:
    result = invoke("run", "--env", "retail", "--model", "gpt-4o", "--model-provider", "openai",
                    "--user-model", "gpt-4o", "--user-model-provider", "openai", "--log-dir", tmp_path)  # fmt: skip
    assert result.exit_code == 2
    assert "--model 'gpt-4o' needs OPENAI_API_KEY" in result.output
    assert "--user-model 'gpt-4o' needs OPENAI_API_KEY" in result.output


def test_the_api_refuses_a_model_without_credentials_before_storing_a_run(api: ThreadApi) -> None:
    body = {"env": "retail", "user_strategy": "scripted", "task_ids": [0], **KEYLESS}
    with httpx.Client(base_url=api.base_url, headers=api.headers, timeout=120) as http:
        before = http.get("/api/v1/runs").json()["total"]
        refused = http.post("/api/v1/validate-tasks", json=body)
        checked = http.post("/api/v1/validate-tasks/check", json=body)
        after = http.get("/api/v1/runs").json()["total"]
    assert refused.status_code == 422, refused.text
    errors = refused.json()["details"]["errors"]
    assert [e["loc"] for e in errors] == [["body", "model"]]
    assert "OPENAI_API_KEY" in errors[0]["msg"]
    assert checked.status_code == 422 and checked.json()["details"]["errors"] == errors  # the same checks
    assert after == before


def test_the_api_still_plays_a_run_that_needs_no_key(api: ThreadApi) -> None:
    body = {"env": "retail", "agent_strategy": "oracle", "user_strategy": "scripted", "task_ids": [0]}
    with httpx.Client(base_url=api.base_url, headers=api.headers, timeout=120) as http:
        played = http.post("/api/v1/validate-tasks", json=body)
    assert played.status_code == 200 and played.json()["status"] == "completed", played.text


async def test_the_green_agent_rejects_its_default_user_without_a_key(v1_data_dir: Path, tmp_path: Path) -> None:
    purple = "http://127.0.0.1:9"  # allowed, never contacted: the request is refused before any episode
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    green, proc = start_green(tmp_path, v1_data_dir, purple, env=env)
    try:
        progress, data, _, state = await ask(green, {"participants": {"agent": purple}, "config": {"task_ids": [0]}})
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert state == TaskState.TASK_STATE_REJECTED and not data
    assert "config.user_model" in progress[-1] and "OPENAI_API_KEY" in progress[-1]


def test_the_cli_checks_the_judges_key_before_anything_runs(tmp_path: Path) -> None:
    result = invoke("run", "--env", "tau2-mock", "--agent-strategy", "oracle", "--user-strategy", "scripted",
                    "--judge-model", "openai/gpt-4o", "--log-dir", tmp_path)  # fmt: skip
    assert result.exit_code == 2
    assert "--judge-model 'openai/gpt-4o' needs OPENAI_API_KEY" in result.output
    assert not list(tmp_path.iterdir())


def test_an_a2a_agent_without_its_url_is_refused_before_anything_runs(api: ThreadApi, tmp_path: Path) -> None:
    result = invoke("run", "--env", "retail", "--agent-strategy", "a2a", "--model", "jsonrpc",
                    "--user-strategy", "scripted", "--log-dir", tmp_path)  # fmt: skip
    assert result.exit_code == 2 and "--agent-strategy a2a needs --api-base" in result.output
    body = {"env": "retail", "agent_strategy": "a2a", "model": "jsonrpc", "user_strategy": "scripted", "task_ids": [0]}
    with httpx.Client(base_url=api.base_url, headers=api.headers, timeout=120) as http:
        refused = http.post("/api/v1/validate-tasks", json=body)
    assert refused.status_code == 422, refused.text
    assert refused.json()["details"]["errors"][0]["loc"] == ["body", "api_base"]
