"""LLM test helpers: a first call to warm litellm up, a retail run config served by the fake model, and a user-sim
service on loopback with a user configured to call the fake model."""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator
from pathlib import Path

import grpc

from taumesh.common.v1 import common_pb2
from taumesh.llm import complete
from taumesh.models import AgentSettings, ModelSettings, UserSettings
from taumesh.orchestrator.config import RunConfig
from taumesh.rpc.server import start_server
from taumesh.services.user_sim import user_sim_service
from taumesh.user_sim.v1 import user_sim_pb2, user_sim_pb2_grpc
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


@contextlib.asynccontextmanager
async def user_sim_stub(data_dir: Path) -> AsyncIterator[user_sim_pb2_grpc.UserSimServiceStub]:
    """A user-sim service over ``data_dir`` on loopback (its τ-bench prompts), and a stub connected to it."""
    server = await start_server([user_sim_service(data_dir=data_dir)])
    try:
        async with grpc.aio.insecure_channel(server.address) as channel:
            yield user_sim_pb2_grpc.UserSimServiceStub(channel)
    finally:
        await server.stop(grace=1.0)


def user_config(strategy: str, fake: FakeOpenAI, model: str = USER_MODEL) -> user_sim_pb2.UserConfig:
    """The user-sim's configuration of ``strategy`` playing ``model``, served by ``fake``."""
    return user_sim_pb2.UserConfig(
        strategy=strategy, model=common_pb2.ModelConfig(model=model, provider="openai", api_base=fake.url)
    )
