"""In a τ² domain the user's ``###STOP###``, ``###TRANSFER###`` and ``###OUT-OF-SCOPE###`` each end the episode.

τ²'s orchestrator checks the user's message itself (``UserSimulator.is_stop``), so taumesh's does too: a user-sim
whose reply holds a token but does not set ``stop`` (a user-sim of someone else's making, over gRPC) still ends the
episode there. The model-played user ends it through the real user-sim as well.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from taumesh.common.v1 import common_pb2
from taumesh.domains.tau2 import TRANSFER_TOKEN, DatasetMissing, require
from taumesh.models import USER_STOP_TOKENS, AgentSettings, ModelSettings, UserSettings
from taumesh.orchestrator.benchmark import run_benchmark
from taumesh.orchestrator.config import RunConfig, ServiceAddresses
from taumesh.rpc.server import RunningServer, Service, start_server
from taumesh.user_sim.v1 import user_sim_pb2, user_sim_pb2_grpc
from tests.helpers.cli import load_json
from tests.helpers.fake_model import FakeOpenAI, text
from tests.helpers.tau2 import tau2_domain

TASK_ID = "create_task_1"
"""A τ² mock task: the oracle creates a task, then speaks once."""


@pytest.fixture(scope="module", autouse=True)
def tau2_data() -> None:
    try:
        require()
    except DatasetMissing as exc:
        pytest.skip(f"τ² data not fetched: {exc}")


class TokenUser(user_sim_pb2_grpc.UserSimServiceServicer):
    """Opens with the instruction, then answers with ``token`` in its text and never sets ``stop``."""

    def __init__(self, token: str) -> None:
        self.token = token
        self.replies = 0

    async def StartConversation(
        self, request: user_sim_pb2.StartConversationRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> user_sim_pb2.StartConversationResponse:
        return user_sim_pb2.StartConversationResponse(
            message=common_pb2.Message(role=common_pb2.ROLE_USER, content=request.instruction)
        )

    async def Reply(
        self, request: user_sim_pb2.ReplyRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> user_sim_pb2.ReplyResponse:
        self.replies += 1
        said = f"I can't say more than that. {self.token}"
        return user_sim_pb2.ReplyResponse(message=common_pb2.Message(role=common_pb2.ROLE_USER, content=said))


async def serve(user: TokenUser) -> AsyncIterator[RunningServer]:
    running = await start_server(
        [
            Service(
                name=user_sim_pb2.DESCRIPTOR.services_by_name["UserSimService"].full_name,
                register=user_sim_pb2_grpc.add_UserSimServiceServicer_to_server,
                servicer=user,
            )
        ]
    )
    try:
        yield running
    finally:
        await running.stop(grace=1)


def mock_run(log_dir: Path, user: UserSettings, user_addr: str | None = None) -> RunConfig:
    position = [task.id for task in tau2_domain("mock").tasks("base")].index(TASK_ID)
    return RunConfig(
        env="tau2-mock",
        task_split="base",
        task_ids=[position],
        agent=AgentSettings(strategy="oracle"),
        user=user,
        addresses=ServiceAddresses(user=user_addr),
        log_dir=log_dir,
        output_format="both",
        show_progress=False,
    )


@pytest.mark.parametrize("token", USER_STOP_TOKENS)
async def test_the_orchestrator_stops_at_the_users_token(token: str, tmp_path: Path) -> None:
    user = TokenUser(token)
    async for running in serve(user):
        summary = await run_benchmark(mock_run(tmp_path, UserSettings(strategy="scripted"), running.address))
    (result,) = summary.results
    assert result.info["termination"] == "user_stop"
    assert result.traj[-1] == {"role": "user", "content": f"I can't say more than that. {token}"}
    assert user.replies == 1, "asked once: the episode ended at the first token"
    assert result.reward == 1.0  # the oracle's work stands: a user stop is evaluated
    (document,) = tmp_path.glob("*.tau2.json")
    assert [s["termination_reason"] for s in load_json(document)["simulations"]] == ["user_stop"]


@pytest.mark.parametrize("said", ["I don't know that. ###OUT-OF-SCOPE###", f"Thanks, I'll hold. {TRANSFER_TOKEN}"])
async def test_a_model_played_user_stops_with_tau2s_tokens(said: str, tmp_path: Path, fake: FakeOpenAI) -> None:
    # the user model opens (its prompt: the system prompt and τ²'s greeting), then answers ``said``
    fake.reset(lambda request, n: text("I want a task made." if len(request["messages"]) == 2 else said))
    model = ModelSettings(model="gpt-4o-mini", provider="openai", api_base=fake.url)
    summary = await run_benchmark(mock_run(tmp_path, UserSettings(strategy="llm", model=model)))
    served = fake.completions()
    (result,) = summary.results
    assert result.info["termination"] == "user_stop"
    assert result.traj[-1] == {"role": "user", "content": said}
    assert len(served) == 2, "the user was asked to open and to answer once"
