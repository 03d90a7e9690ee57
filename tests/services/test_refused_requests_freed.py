"""A refused request is freed when its call ends, by reference counting alone: no collection is needed.

grpc.aio's abort raises an error that the call's state keeps; its traceback holds the handler's frames, and they
hold the context (which holds that state) and the request: a cycle that only a full collection frees, and
taumesh.rpc.loop makes those rare. Each test here runs real servers and a real client in one process with the
collector off, and counts the request messages and servicer contexts still alive after the refused calls.
bench/refused_memory.py (and test_refused_memory.py, marked slow) measure the same on separate processes.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc._cython import cygrpc  # type: ignore[attr-defined]

from taumesh.agent.v1 import agent_pb2
from taumesh.common.v1 import common_pb2
from taumesh.domains import Catalog
from taumesh.env.v1 import env_pb2
from taumesh.rpc.errors import error_reason
from taumesh.rpc.security import ServerSecurity
from taumesh.rpc.server import CHANNEL_OPTIONS, Service, start_server
from taumesh.scorer.v1 import scorer_pb2
from taumesh.services.agent import agent_service
from taumesh.services.env import env_service
from taumesh.services.scorer import scorer_service
from taumesh.services.user_sim import user_sim_service
from taumesh.user_sim.v1 import user_sim_pb2

CALLS = 5
PAYLOAD = "refused " * 8_000
"""64 KB of conversation in each request."""


def conversation() -> list[common_pb2.Message]:
    return [common_pb2.Message(role=common_pb2.ROLE_USER, content=PAYLOAD)]


REFUSED: dict[str, tuple[Callable[[Catalog], Service], str, Any, str]] = {
    # service: (builder, method, refused request, the reason it is refused with)
    "env": (
        env_service,
        "/taumesh.env.v1.EnvService/CallTool",
        env_pb2.CallToolRequest(
            session_id="no-such-session", tool_call=common_pb2.ToolCall(name="x", arguments_json=PAYLOAD)
        ),
        "SESSION_NOT_FOUND",
    ),
    "agent": (
        agent_service,
        "/taumesh.agent.v1.AgentService/NextMessage",
        agent_pb2.NextMessageRequest(config=agent_pb2.AgentConfig(strategy="nosuch"), conversation=conversation()),
        "INVALID_ARGUMENT",
    ),
    "user_sim": (
        lambda catalog: user_sim_service(),
        "/taumesh.user_sim.v1.UserSimService/Reply",
        user_sim_pb2.ReplyRequest(
            config=user_sim_pb2.UserConfig(strategy="nosuch"), instruction="x", conversation=conversation()
        ),
        "INVALID_ARGUMENT",
    ),
    "scorer": (
        scorer_service,
        "/taumesh.scorer.v1.ScorerService/ScoreEpisode",
        scorer_pb2.ScoreEpisodeRequest(
            task=common_pb2.TaskRef(domain="nosuch", split="test", task_id="0"), conversation=conversation()
        ),
        "INVALID_ARGUMENT",
    ),
}


def alive(kinds: Sequence[type]) -> int:
    """Objects of these types made since the collector was turned off and still alive (without collecting).

    With the collector off nothing leaves the youngest generation, so it alone holds them: scanning it, not the
    whole heap, keeps the count cheap however many objects the tests before left in this process.
    """
    return sum(1 for o in gc.get_objects(generation=0) if type(o) in kinds)


@pytest.fixture
def collector_off() -> Iterator[None]:
    """The collector off, as it mostly is in a long-lived taumesh process: only reference counting frees.

    The youngest generation is collected first (not the whole heap): it starts empty, and holds only what the test
    makes.
    """
    gc.collect(0)
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


async def refuse(
    service: Service,
    method: str,
    raw: bytes,
    metadata: tuple[tuple[str, str], ...] = (),
    security: ServerSecurity | None = None,
) -> list[grpc.aio.AioRpcError]:
    """Send ``raw`` CALLS times to a real server of ``service``; the errors received."""
    server = await start_server([service], security=security)
    errors: list[grpc.aio.AioRpcError] = []
    try:
        async with grpc.aio.insecure_channel(server.address, options=CHANNEL_OPTIONS) as channel:
            call = channel.unary_unary(method, None, None)  # raw bytes: the client holds no request message
            for _ in range(CALLS):
                with pytest.raises(grpc.aio.AioRpcError) as caught:
                    await call(raw, metadata=metadata, timeout=30)
                errors.append(caught.value)
    finally:
        await server.stop(grace=1.0)
    return errors


@pytest.mark.usefixtures("collector_off")
@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_request_the_servicer_refuses_is_freed(name: str, tmp_path: Path) -> None:
    build, method, request, reason = REFUSED[name]
    kinds = (type(request), cygrpc._ServicerContext)
    raw = request.SerializeToString()
    before = alive(kinds)
    errors = asyncio.run(refuse(build(Catalog(tmp_path)), method, raw))
    assert [error_reason(e) for e in errors] == [reason] * CALLS
    assert alive(kinds) - before == 0


@pytest.mark.usefixtures("collector_off")
def test_undecodable_bytes_are_freed(tmp_path: Path) -> None:
    before = alive([cygrpc._ServicerContext])
    errors = asyncio.run(refuse(scorer_service(Catalog(tmp_path)), REFUSED["scorer"][1], b"\xff" * 100_000))
    assert {e.code() for e in errors} == {grpc.StatusCode.INVALID_ARGUMENT}
    assert {error_reason(e) for e in errors} == {"UNDECODABLE_REQUEST"}
    assert alive([cygrpc._ServicerContext]) - before == 0


@pytest.mark.usefixtures("collector_off")
def test_a_call_without_the_token_is_freed(tmp_path: Path) -> None:
    _, method, request, _ = REFUSED["scorer"]
    before = alive([cygrpc._ServicerContext])
    service, security = scorer_service(Catalog(tmp_path)), ServerSecurity(token="t")
    errors = asyncio.run(refuse(service, method, request.SerializeToString(), security=security))
    assert {e.code() for e in errors} == {grpc.StatusCode.UNAUTHENTICATED}
    assert {error_reason(e) for e in errors} == {"TOKEN_REQUIRED"}
    assert alive([cygrpc._ServicerContext]) - before == 0
