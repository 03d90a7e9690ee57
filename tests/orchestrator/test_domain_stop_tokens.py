"""The user's stop tokens are the domain's: τ-bench v1 stops on ``###STOP###`` only, τ² on its three tokens.

The env sends them with every session (``OpenSessionResponse.user_stop_tokens``); the orchestrator hands them to
the user-sim (``stop_tokens``) and checks the user's texts for them itself. A v1 user saying ``###TRANSFER###`` goes
on talking (τ-bench's ``"###STOP###" in observation``); a τ² user saying it ends the episode (τ²'s ``is_stop``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from taumesh.common.v1 import common_pb2
from taumesh.domains import Catalog
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from taumesh.models import STOP_TOKEN, USER_STOP_TOKENS, AgentSettings, UserSettings
from taumesh.orchestrator.benchmark import run_benchmark
from taumesh.orchestrator.config import RunConfig, ServiceAddresses
from taumesh.rpc.server import RunningServer, Service, start_server
from taumesh.services.env.servicer import env_service
from taumesh.services.user_sim.servicer import user_sim_service
from taumesh.user_sim.v1 import user_sim_pb2, user_sim_pb2_grpc
from tests.helpers.fake_model import FakeOpenAI, text

TRANSFER = "Please transfer me. ###TRANSFER###"
STOP = f"That is all. {STOP_TOKEN}"


class TwoTokenUser(user_sim_pb2_grpc.UserSimServiceServicer):
    """Opens with the instruction, then says ``###TRANSFER###``, then ``###STOP###``; never sets ``stop`` itself."""

    def __init__(self) -> None:
        self.stop_tokens: list[list[str]] = []

    async def StartConversation(
        self, request: user_sim_pb2.StartConversationRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> user_sim_pb2.StartConversationResponse:
        self.stop_tokens.append(list(request.stop_tokens))
        return user_sim_pb2.StartConversationResponse(
            message=common_pb2.Message(role=common_pb2.ROLE_USER, content=request.instruction)
        )

    async def Reply(
        self, request: user_sim_pb2.ReplyRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> user_sim_pb2.ReplyResponse:
        said = [TRANSFER, STOP][min(len(self.stop_tokens) - 1, 1)]
        self.stop_tokens.append(list(request.stop_tokens))
        return user_sim_pb2.ReplyResponse(message=common_pb2.Message(role=common_pb2.ROLE_USER, content=said))


async def serving(user: TwoTokenUser) -> AsyncIterator[RunningServer]:
    service = Service(
        name=user_sim_pb2.DESCRIPTOR.services_by_name["UserSimService"].full_name,
        register=user_sim_pb2_grpc.add_UserSimServiceServicer_to_server,
        servicer=user,
    )
    running = await start_server([service])
    try:
        yield running
    finally:
        await running.stop(grace=1)


async def play(env: str, split: str, data_dir: Path, log_dir: Path) -> tuple[Any, TwoTokenUser]:
    user = TwoTokenUser()
    task = Catalog(data_dir).get(env).tasks(split)[0]
    async for running in serving(user):
        config = RunConfig(
            env=env,
            task_split=split,
            task_ids=[0],
            agent=AgentSettings(strategy="oracle"),
            user=UserSettings(strategy="scripted"),
            addresses=ServiceAddresses(user=running.address),
            data_dir=data_dir,
            log_dir=log_dir,
            show_progress=False,
        )
        summary = await run_benchmark(config)
    assert summary.errors == [], summary.errors
    (result,) = summary.results
    assert str(result.task_id) in (task.id, "0")
    return result, user


def user_texts(result: Any) -> list[str]:
    return [m["content"] for m in result.traj if m["role"] == "user"]


async def test_a_v1_users_transfer_token_does_not_end_the_episode(v1_data_dir: Path, tmp_path: Path) -> None:
    result, user = await play("retail", "test", v1_data_dir, tmp_path)
    assert result.info["termination"] == "user_stop"
    assert user_texts(result)[-2:] == [TRANSFER, STOP], "the user spoke again after its ###TRANSFER###"
    assert user.stop_tokens == [[STOP_TOKEN]] * 3


async def test_a_tau2_users_transfer_token_ends_the_episode(tau2_data: Path, v1_data_dir: Path, tmp_path: Path) -> None:
    result, user = await play("tau2-mock", "base", v1_data_dir, tmp_path)
    assert result.info["termination"] == "user_stop"
    assert user_texts(result)[-1] == TRANSFER
    assert user.stop_tokens == [list(USER_STOP_TOKENS)] * 2, "asked to open and to reply once"


@pytest.mark.parametrize(
    ("env", "split", "tokens", "opening"),
    [("retail", "test", [STOP_TOKEN], False), ("tau2-mock", "base", list(USER_STOP_TOKENS), True)],
)
async def test_the_env_sends_the_domains_stop_tokens(
    env: str, split: str, tokens: list[str], opening: bool, v1_data_dir: Path, tau2_data: Path
) -> None:
    catalog = Catalog(v1_data_dir)
    task = catalog.get(env).tasks(split)[0]
    running = await start_server([env_service(catalog)])
    try:
        async with grpc.aio.insecure_channel(running.address) as channel:
            ref = common_pb2.TaskRef(domain=env, split=split, task_id=task.id)
            opened = await env_pb2_grpc.EnvServiceStub(channel).OpenSession(env_pb2.OpenSessionRequest(task=ref))
    finally:
        await running.stop(grace=1)
    assert list(opened.user_stop_tokens) == tokens
    assert opened.user_opening_stops is opening


@pytest.mark.parametrize(("sent", "stops"), [([STOP_TOKEN], False), ([], True), (list(USER_STOP_TOKENS), True)])
async def test_the_user_sim_stops_on_the_tokens_it_is_sent(
    sent: list[str], stops: bool, tau2_data: Path, fake: FakeOpenAI
) -> None:
    # τ²'s model-played user (its own prompt: no τ-bench import needed) says ###TRANSFER###
    fake.reset(text(TRANSFER))
    config = user_sim_pb2.UserConfig(
        strategy="llm", model=common_pb2.ModelConfig(model="gpt-4o-mini", provider="openai", api_base=fake.url)
    )
    running = await start_server([user_sim_service()])
    try:
        async with grpc.aio.insecure_channel(running.address) as channel:
            reply = await user_sim_pb2_grpc.UserSimServiceStub(channel).Reply(
                user_sim_pb2.ReplyRequest(
                    config=config,
                    instruction="You want a task made.",
                    conversation=[common_pb2.Message(role=common_pb2.ROLE_ASSISTANT, content="Done.")],
                    episode=common_pb2.EpisodeContext(
                        task=common_pb2.TaskRef(domain="tau2-mock", split="base", task_id="create_task_1")
                    ),
                    stop_tokens=sent,
                )
            )
    finally:
        await running.stop(grace=1)
    assert reply.message.content == TRANSFER
    assert reply.stop is stops
