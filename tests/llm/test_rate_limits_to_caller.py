"""A 429 goes back at once to a caller that limits calls itself; the orchestrator's interceptor learns from it.

Over litellm's real HTTP path to the scripted server, and over real gRPC to an AgentService.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest

from taumesh.agent.v1 import agent_pb2, agent_pb2_grpc
from taumesh.convert import episode_to_proto, message_to_proto, model_to_proto
from taumesh.domains import Catalog
from taumesh.llm import complete
from taumesh.llm.errors import ModelRateLimited
from taumesh.llm.retry import RATE_LIMITS_METADATA, rate_limits_to_caller
from taumesh.llm.status import RATE_LIMITED_REASON
from taumesh.models import AgentSettings, ChatMessage, EpisodeContext, ModelSettings, TaskRef, UserSettings
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.provider_limits import interceptors_for, provider_limits
from taumesh.rpc.errors import error_details
from taumesh.rpc.server import RunningServer, start_server
from taumesh.services.agent import agent_service
from tests.helpers.fake_model import FakeOpenAI, Reply, in_turn, rate_limited, text
from tests.helpers.paths import V1_DATA
from tests.llm.scripts import AGENT_MODEL

HI = [{"role": "user", "content": "hi"}]


def _first_refused(request: dict[str, Any], ordinal: int) -> Reply:
    return rate_limited("2") if ordinal == 0 else text("hello")


def _settings(fake: FakeOpenAI) -> ModelSettings:
    return ModelSettings(model=AGENT_MODEL, provider="openai", api_base=fake.url)


async def test_complete_leaves_a_429_to_a_caller_that_asked(fake: FakeOpenAI) -> None:
    fake.reset(_first_refused)
    with rate_limits_to_caller([RATE_LIMITS_METADATA]), pytest.raises(ModelRateLimited) as refused:
        await complete(_settings(fake), HI)
    assert (refused.value.attempts, refused.value.retry_after) == (1, 2.0)
    assert len(fake.served) == 1
    fake.reset(_first_refused)
    with rate_limits_to_caller([("other", "metadata")]), pytest.MonkeyPatch.context() as patch:
        patch.setenv("TAUMESH_LLM_MAX_WAIT", "0.01")  # the Retry-After of 2 s, capped for the test
        done = await complete(_settings(fake), HI)  # no one else retries it: retried here
    assert done.message.content == "hello" and len(fake.served) == 2


@pytest.fixture
async def agent() -> AsyncIterator[RunningServer]:
    running = await start_server([agent_service(Catalog(V1_DATA))])
    yield running
    await running.stop(grace=0.5)


def _request(fake: FakeOpenAI) -> agent_pb2.NextMessageRequest:
    return agent_pb2.NextMessageRequest(
        config=agent_pb2.AgentConfig(strategy="tool-calling", model=model_to_proto(_settings(fake))),
        episode=episode_to_proto(EpisodeContext(task=TaskRef(domain="retail", split="test", task_id="0"))),
        policy="Help.",
        conversation=[message_to_proto(ChatMessage(role="user", content="hi"))],
    )


async def test_the_agent_service_answers_a_429_at_once_when_asked(fake: FakeOpenAI, agent: RunningServer) -> None:
    fake.reset(_first_refused)
    async with grpc.aio.insecure_channel(agent.address) as channel:
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await agent_pb2_grpc.AgentServiceStub(channel).NextMessage(_request(fake), metadata=(RATE_LIMITS_METADATA,))
    assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
    assert error_details(refused.value) == {"reason": RATE_LIMITED_REASON, "retry_after": 2.0}
    assert len(fake.served) == 1


async def test_the_interceptor_backs_off_and_calls_again(fake: FakeOpenAI, agent: RunningServer) -> None:
    fake.reset(in_turn(rate_limited("0.2"), rate_limited("0.2"), text("hello")))
    config = RunConfig(
        agent=AgentSettings(strategy="tool-calling", model=_settings(fake)),
        user=UserSettings(strategy="scripted"),
        max_concurrency=8,
        provider_limits={"openai": 8},
    )
    with provider_limits(config) as limits:
        async with grpc.aio.insecure_channel(agent.address, interceptors=interceptors_for("agent")) as channel:
            answer = await agent_pb2_grpc.AgentServiceStub(channel).NextMessage(_request(fake))
    assert answer.message.content == "hello"
    [openai] = limits.stats()
    assert (openai.provider, openai.rate_limited, openai.calls, openai.in_flight) == ("openai", 2, 1, 0)
    assert openai.window == 4  # 8 halved by the first 429; the call after it judges that decrease: no second one
    first, second, third = (served.received_at for served in fake.served)
    assert second - first >= 0.2 and third - second >= 0.2  # each Retry-After waited out before the next call
