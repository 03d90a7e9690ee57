"""LLM test helpers: a first call to warm litellm up, and a retail run config served by the fake model."""

from __future__ import annotations

import os
from pathlib import Path

from taumesh.llm import complete
from taumesh.models import AgentSettings, ModelSettings, UserSettings
from taumesh.orchestrator.config import RunConfig
from tests.helpers.fake_model import FakeOpenAI, text
from tests.llm.scripts import AGENT_MODEL, USER_MODEL

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


async def warm_up(fake: FakeOpenAI) -> None:
    """One call first: litellm's first request in a process is slow, and would trip a test's short timeout."""
    fake.reset(text("warm"))
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
