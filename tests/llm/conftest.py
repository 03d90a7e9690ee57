"""Fixtures of the LLM tests: the scripted OpenAI-compatible server, fast retry settings, benchmark configs."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from taumesh.domains import Catalog, Task
from taumesh.llm import complete
from taumesh.llm.access import ALLOWED_API_BASES_ENV
from taumesh.models import AgentSettings, ModelSettings, UserSettings
from taumesh.orchestrator.config import RunConfig
from tests.llm.fake_openai import FakeOpenAI, text
from tests.llm.scripts import AGENT_MODEL, USER_MODEL, TaskIndex

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

FAKE_KEY = "sk-taumesh-test-not-a-real-key"


@pytest.fixture(scope="session")
def fake_server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def fake(fake_server: FakeOpenAI, monkeypatch: pytest.MonkeyPatch) -> FakeOpenAI:
    """The server, emptied, with an API key in the environment and retries fast enough for tests.

    This process is the operator of the services it starts in-process: it allows their model calls to the server.
    """
    fake_server.reset()
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    monkeypatch.setenv(ALLOWED_API_BASES_ENV, fake_server.url)
    monkeypatch.setenv("TAUMESH_LLM_BACKOFF_INITIAL", "0.01")
    monkeypatch.setenv("TAUMESH_LLM_BACKOFF_MAX", "0.05")
    monkeypatch.setenv("TAUMESH_LLM_TIMEOUT", "20")
    return fake_server


@pytest.fixture(scope="session")
def retail_tasks(v1_data_dir: Path) -> list[Task]:
    return Catalog(v1_data_dir).get("retail").tasks("test")


@pytest.fixture(scope="session")
def task_index(retail_tasks: list[Task]) -> TaskIndex:
    return TaskIndex(retail_tasks)


async def warm_up(fake: FakeOpenAI) -> None:
    """One call first: litellm's first request in a process is slow, and would trip a test's short timeout."""
    fake.reset(lambda request, ordinal: text("warm"))
    await complete(
        ModelSettings(model=AGENT_MODEL, provider="openai", api_base=fake.url), [{"role": "user", "content": "hi"}]
    )
    fake.reset()


def run_config(
    fake: FakeOpenAI,
    data_dir: Path,
    log_dir: Path,
    task_ids: list[int],
    agent: str = "tool-calling",
    user: str = "llm-taumesh",
    few_shot: str = "",
    concurrency: int = 4,
) -> RunConfig:
    """A retail-test run whose agent and user models are served by ``fake``."""
    return RunConfig(
        env="retail",
        task_split="test",
        task_ids=task_ids,
        agent=AgentSettings(
            strategy=agent,
            model=ModelSettings(model=AGENT_MODEL, provider="openai", api_base=fake.url, seed=10),
            few_shot_displays_path=few_shot,
        ),
        user=UserSettings(
            strategy=user, model=ModelSettings(model=USER_MODEL, provider="openai", api_base=fake.url, seed=10)
        ),
        log_dir=log_dir,
        data_dir=data_dir,
        max_concurrency=concurrency,
        show_progress=False,
    )
