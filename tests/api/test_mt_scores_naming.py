"""The MT fork's ``/scores`` example, verbatim (a fresh run, as the fork's README says), and with ``fresh=false``
after a run of ``openai/gpt-4o`` played by the scripted model server.

The server's operator points the ``openai`` provider at the scripted OpenAI-compatible server (``OPENAI_API_BASE``),
so requests name no endpoint: the run is made exactly as ``model=gpt-4o, model_provider=openai``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from taumesh.domains import Catalog
from tests.helpers.api import ApiServer
from tests.helpers.api_thread import start_thread_server
from tests.helpers.fake_model import FAKE_KEY, FakeOpenAI, Reply
from tests.llm.scripts import GoldAgent, ScriptedLlmUser, TaskIndex

pytestmark = pytest.mark.slow  # every test needs the module's API server and its runs: seconds


class ByTools:
    """The agent's requests carry tools, the simulated user's do not (both are ``gpt-4o`` here)."""

    def __init__(self, index: TaskIndex) -> None:
        self.agent, self.user = GoldAgent(index), ScriptedLlmUser(index)

    def __call__(self, request: dict[str, Any], ordinal: int) -> Reply:
        return self.agent(request) if request.get("tools") else self.user(request)


@pytest.fixture(scope="module")
def models(v1_data_dir: Path) -> Iterator[FakeOpenAI]:
    index = TaskIndex(Catalog(v1_data_dir).get("airline").tasks("test"))
    with FakeOpenAI(ByTools(index)) as server:
        yield server


@pytest.fixture(scope="module")
def api(models: FakeOpenAI, v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    root = tmp_path_factory.mktemp("mt")
    server = start_thread_server(
        f"sqlite:///{root / 'api.db'}",
        root,
        v1_data_dir,
        OPENAI_API_KEY=FAKE_KEY,
        OPENAI_API_BASE=models.url,
        TAUMESH_LLM_BACKOFF_INITIAL="0.01",
        TAUMESH_LLM_BACKOFF_MAX="0.05",
    )
    try:
        yield server
    finally:
        server.stop()


def test_the_forks_scores_example_with_fresh_false_finds_a_run_of_openai_gpt_4o(
    api: ApiServer, models: FakeOpenAI
) -> None:
    run = {
        "env": "airline",
        "model": "gpt-4o",
        "model_provider": "openai",
        "task_ids": [1],
        "user_strategy": "scripted",
    }
    made = httpx.post(f"{api.base_url}/api/v1/validate-tasks", json=run, headers=api.headers, timeout=300).json()
    assert made["status"] == "completed" and made["results"][0]["reward"] == 1.0, made

    # the fork's README but for host and port (and our key), reading the stored run instead of playing one
    answer = httpx.get(
        f"{api.base_url}/scores?model=openai_gpt-4o&subset=airline&taskID=1&fresh=false", headers=api.headers
    )
    assert answer.status_code == 200, answer.text
    lines = [json.loads(line) for line in answer.text.splitlines()]
    assert [(line["task-id"], line["score"]) for line in lines] == [("task-1", 1.0)]
    for spelling in ("openai/gpt-4o", "openai-gpt-4o", "gpt-4o"):
        same = httpx.get(
            f"{api.base_url}/scores",
            params={"model": spelling, "subset": "airline", "taskID": "1", "fresh": "false"},
            headers=api.headers,
        )
        assert same.text == answer.text, spelling
    other = httpx.get(
        f"{api.base_url}/scores",
        params={"model": "anthropic_gpt-4o", "subset": "airline", "fresh": "false"},
        headers=api.headers,
    )
    assert other.status_code == 404


def test_the_forks_example_verbatim_runs_fresh(api: ApiServer, models: FakeOpenAI) -> None:
    """Every call runs the benchmark, as the fork's README says: the tool-calling agent on ``openai``'s ``gpt-4o``
    with the llm user, as the fork runs it.

    Without τ-bench's imported user prompts the llm user cannot play, and the pre-flight every front door runs
    refuses the call (422 naming ``user_strategy``) before a run is stored; with them, the call plays a new run.
    """
    before = httpx.get(f"{api.base_url}/api/v1/runs", headers=api.headers).json()["total"]
    answer = httpx.get(
        f"{api.base_url}/scores?model=openai_gpt-4o&subset=airline&taskID=1", headers=api.headers, timeout=300
    )  # the fork's README, verbatim but for host and port (and our key)
    assert answer.status_code in (200, 422), answer.text
    if answer.status_code == 200:
        # one line, or none when the episode could not be scored (an infrastructure error is never a 0)
        assert [json.loads(line)["task-id"] for line in answer.text.splitlines()] in ([], ["task-1"])
    assert not models.completions("openai_gpt-4o")  # the provider never hears the fork's spelling
    runs = httpx.get(f"{api.base_url}/api/v1/runs", params={"limit": 1}, headers=api.headers).json()
    if answer.status_code == 422:  # refused up front, nothing stored or paid for
        assert "prompts are not imported" in answer.json()["message"] and runs["total"] == before
        return
    assert runs["total"] == before + 1  # a new run, played by this call
    config = runs["runs"][0]["config_used"]
    assert (config["model_provider"], config["model"], config["task_ids"]) == ("openai", "gpt-4o", [1])
    assert config["agent_strategy"] == "tool-calling" and config["user_strategy"] == "llm"
