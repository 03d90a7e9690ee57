"""``taumesh serve a2a`` as a remote caller would probe it: keys, other callers' tasks, cancel, limits, sizes.

One green agent process holds a canary key (``OPENAI_API_KEY``) and three caller keys, with small limits (one
evaluation per caller, two in all, requests of 64 KiB), over JSON-RPC and gRPC. A "slow" purple agent (a loopback
listener serving a card, then never answering) keeps evaluations running as long as a test needs; the gold agent
plays a real one. Everything goes through the A2A SDK's client or raw HTTP/gRPC, as a caller's would.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import httpx
import pytest
from a2a.client import ClientConfig, ClientFactory
from a2a.client.client import Client
from a2a.helpers import get_text_parts, new_data_message, new_text_message
from a2a.types import a2a_pb2_grpc
from a2a.types.a2a_pb2 import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    CancelTaskRequest,
    GetTaskRequest,
    ListTasksRequest,
    Role,
    SendMessageConfiguration,
    SendMessageRequest,
    SubscribeToTaskRequest,
    Task,
    TaskState,
)
from google.protobuf.json_format import MessageToDict

from tests.a2a.conftest import Agents
from tests.a2a.test_green_agent import ask, start_green
from tests.helpers.cli import taumesh
from tests.helpers.fake_model import FakeOpenAI, text
from tests.helpers.processes import free_port
from tests.security.canary import CANARY, Listener, Seen, json_answer

pytestmark = pytest.mark.slow  # a green agent process (~3 s) and evaluations

KEYS = {name: f"{name}-key-{name * 8}" for name in ("alice", "bob", "carol")}
LIMIT_BYTES = 64 * 1024


@dataclass
class Green:
    url: str
    grpc_target: str
    gold: str
    slow: str
    attacker: Listener
    models: FakeOpenAI
    """The model endpoint the operator allowed (``TAUMESH_ALLOWED_API_BASES``)."""


def slow_purple(release: threading.Event) -> Listener:
    """An A2A agent whose card is served and whose every message waits until ``release`` (then fails)."""
    listener = Listener()
    card = AgentCard(
        name="slow",
        description="never answers",
        version="1",
        supported_interfaces=[
            AgentInterface(url=listener.url + "/", protocol_binding="JSONRPC", protocol_version="1.0")
        ],
        capabilities=AgentCapabilities(streaming=False),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
    )
    card_answer = json_answer(MessageToDict(card))

    def answer(seen: Seen) -> tuple[int, dict[str, str], bytes]:
        if seen.method == "GET":
            return card_answer(seen)
        release.wait(120)
        return 503, {}, b""

    listener.answer = answer
    return listener


@pytest.fixture(scope="module")
def green(v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Green]:
    folder = tmp_path_factory.mktemp("green-security")
    release = threading.Event()
    agents = Agents(v1_data_dir / "retail" / "tasks_test.json", folder)
    with Listener() as attacker, slow_purple(release) as slow, FakeOpenAI(text("###STOP###")) as models:
        gold = agents.start("text", grpc=False, garbage_once=False)
        grpc_port = free_port()
        flags = ["--allow-agent", slow.url, "--allow-agent", attacker.url, "--grpc-port", str(grpc_port)]
        for name, token in KEYS.items():
            flags += ["--caller-key", f"{name}={token}"]
        flags += [
            "--max-evaluations",
            "2",
            "--max-evaluations-per-caller",
            "1",
            "--max-request-bytes",
            str(LIMIT_BYTES),
        ]
        env = {"OPENAI_API_KEY": CANARY, "TAUMESH_ALLOWED_API_BASES": models.url, "TAUMESH_LLM_MAX_ATTEMPTS": "1"}
        url, proc = start_green(folder, v1_data_dir, gold, *flags, env=env)
        try:
            yield Green(url, f"127.0.0.1:{grpc_port}", gold, slow.url, attacker, models)
        finally:
            release.set()
            proc.terminate()
            proc.wait(timeout=20)
            agents.stop()


@pytest.fixture
async def callers(green: Green) -> AsyncIterator[dict[str, Client]]:
    """An SDK client per caller (non-streaming: requests return at once with the task)."""
    https = {name: httpx.AsyncClient(timeout=60, headers={"Authorization": f"Bearer {t}"}) for name, t in KEYS.items()}
    try:
        clients = {}
        for name, http in https.items():
            config = ClientConfig(streaming=False, httpx_client=http)
            clients[name] = await ClientFactory(config).create_from_url(green.url)
        yield clients
    finally:
        for http in https.values():
            await http.aclose()


def request(agent: str, **config: object) -> dict[str, object]:
    return {
        "participants": {"agent": agent},
        "config": {"domain": "retail", "split": "test", "user_strategy": "scripted", **config},
    }


async def submit(client: Client, body: dict[str, object]) -> Task:
    """Send without waiting for the evaluation: the task as it stands."""
    message = new_data_message(body, role=Role.ROLE_USER)
    configuration = SendMessageConfiguration(return_immediately=True)
    task = None
    async for event in client.send_message(SendMessageRequest(message=message, configuration=configuration)):
        if event.HasField("task"):
            task = event.task
    assert task is not None
    return task


async def state_of(client: Client, task_id: str, want: int) -> Task:
    """The task once it is in state ``want`` (within 60 s)."""
    for _ in range(600):
        task = await client.get_task(GetTaskRequest(id=task_id))
        if task.status.state == want:
            return task
        await asyncio.sleep(0.1)
    raise AssertionError(f"task {task_id} never reached {TaskState.Name(want)}: {task}")


def said(task: Task) -> str:
    return " ".join(get_text_parts(task.status.message.parts))


async def test_callers_are_authenticated_over_http_and_grpc(green: Green) -> None:
    async with httpx.AsyncClient(timeout=30) as http:
        body = {"jsonrpc": "2.0", "id": 1, "method": "ListTasks", "params": {}}
        for headers in ({}, {"Authorization": "Bearer not-a-key-of-this-server"}, {"Authorization": KEYS["bob"]}):
            refused = await http.post(green.url + "/", json=body, headers={**headers, "A2A-Version": "1.0"})
            assert refused.status_code == 401, refused.text
            assert "unauthenticated" in refused.json()["error"]["message"]
        card = await http.get(green.url + "/.well-known/agent-card.json")
        assert card.status_code == 200  # the card stays public, and says how to authenticate
        assert card.json()["securitySchemes"]["caller_key"]["httpAuthSecurityScheme"]["scheme"] == "Bearer"
    async with grpc.aio.insecure_channel(green.grpc_target) as channel:
        stub = a2a_pb2_grpc.A2AServiceStub(channel)  # type: ignore[no-untyped-call]
        with pytest.raises(grpc.aio.AioRpcError) as unauthenticated:
            await stub.ListTasks(ListTasksRequest(), timeout=10)
        assert unauthenticated.value.code() == grpc.StatusCode.UNAUTHENTICATED
        mine = [("authorization", f"Bearer {KEYS['carol']}")]
        listed = await stub.ListTasks(ListTasksRequest(), metadata=mine, timeout=10)
        assert all(task.id for task in listed.tasks)


async def test_a_caller_sees_and_cancels_only_its_own_tasks_within_the_limits(
    green: Green, callers: dict[str, Client]
) -> None:
    alice, bob, carol = callers["alice"], callers["bob"], callers["carol"]
    mine = await submit(alice, request(green.slow, task_ids=[0]))
    await state_of(alice, mine.id, TaskState.TASK_STATE_WORKING)

    second = await submit(alice, request(green.slow, task_ids=[1]))
    second = await state_of(alice, second.id, TaskState.TASK_STATE_REJECTED)
    assert "limit 1 per caller" in said(second), said(second)

    theirs = await submit(bob, request(green.slow, task_ids=[0]))
    await state_of(bob, theirs.id, TaskState.TASK_STATE_WORKING)
    third = await submit(carol, request(green.slow, task_ids=[0]))
    third = await state_of(carol, third.id, TaskState.TASK_STATE_REJECTED)
    assert "limit 2 in all" in said(third), said(third)

    listed = await bob.list_tasks(ListTasksRequest(include_artifacts=True))
    assert {task.id for task in listed.tasks} == {theirs.id}
    for call in (bob.get_task(GetTaskRequest(id=mine.id)), bob.cancel_task(CancelTaskRequest(id=mine.id))):
        with pytest.raises(Exception, match=r"(?i)task not found"):
            await call
    into_hers = new_text_message("me too", context_id=mine.context_id, task_id=mine.id, role=Role.ROLE_USER)
    with pytest.raises(Exception, match=r"(?i)not found"):  # nor write into it
        async for _ in bob.send_message(SendMessageRequest(message=into_hers)):
            pass
    async with grpc.aio.insecure_channel(green.grpc_target) as channel:  # subscribing: over gRPC, as bob
        stub = a2a_pb2_grpc.A2AServiceStub(channel)  # type: ignore[no-untyped-call]
        stream = stub.SubscribeToTask(
            SubscribeToTaskRequest(id=mine.id), metadata=[("authorization", f"Bearer {KEYS['bob']}")], timeout=10
        )
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await anext(aiter(stream))
        assert refused.value.code() == grpc.StatusCode.NOT_FOUND, refused.value
    assert (await alice.get_task(GetTaskRequest(id=mine.id))).status.state == TaskState.TASK_STATE_WORKING
    listed = await alice.list_tasks(ListTasksRequest())
    assert {task.id for task in listed.tasks} == {mine.id, second.id}

    canceled = await alice.cancel_task(CancelTaskRequest(id=mine.id))
    assert canceled.status.state == TaskState.TASK_STATE_CANCELED
    canceled = await state_of(alice, mine.id, TaskState.TASK_STATE_CANCELED)
    assert "canceled by the caller" in said(canceled), said(canceled)

    # the canceled run's services stopped and its place is free: carol's evaluation runs to its end, in full
    progress, data, _, state = await ask(green.url, request(green.gold, task_ids=[0, 1]), KEYS["carol"])
    assert state == TaskState.TASK_STATE_COMPLETED, progress
    [result] = data
    assert isinstance(result, dict) and result["solved"] == 2, result
    await bob.cancel_task(CancelTaskRequest(id=theirs.id))
    await state_of(bob, theirs.id, TaskState.TASK_STATE_CANCELED)


async def test_the_canary_key_never_reaches_an_agent_url_named_as_the_user_model(
    green: Green, callers: dict[str, Client]
) -> None:
    """The attacker is an allowed *agent*: as ``user_api_base`` it is refused, and hears nothing; the model endpoint
    the operator allowed gets the key."""
    body = request(
        green.gold,
        task_ids=[0],
        user_strategy="llm-taumesh",
        user_model="gpt-4o",
        user_model_provider="openai",
        user_api_base=green.attacker.url,
    )
    task = await submit(callers["alice"], body)
    task = await state_of(callers["alice"], task.id, TaskState.TASK_STATE_REJECTED)
    assert "config.user_api_base" in said(task) or "model endpoint" in said(task), said(task)

    green.models.reset()
    body["config"]["user_api_base"] = green.models.url  # type: ignore[index]  # the operator's model endpoint
    progress, _, _, state = await ask(green.url, body, KEYS["alice"])
    assert state == TaskState.TASK_STATE_COMPLETED, progress
    assert green.models.served, progress
    keys = {{k.lower(): v for k, v in served.headers.items()}.get("authorization") for served in green.models.served}
    assert keys == {f"Bearer {CANARY}"}
    assert green.attacker.seen == [], "the attacker heard from the green agent"


async def test_oversized_requests_are_refused_over_http_and_grpc(green: Green) -> None:
    big = "x" * (LIMIT_BYTES + 1024)
    body = {"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": {"text": big}}}
    async with httpx.AsyncClient(timeout=30, headers={"Authorization": f"Bearer {KEYS['alice']}"}) as http:
        refused = await http.post(green.url + "/", json=body, headers={"A2A-Version": "1.0"})
        assert refused.status_code == 413 or "Payload too large" in refused.text, (refused.status_code, refused.text)

        async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: counted as it arrives
            encoded = json.dumps(body).encode()
            for start in range(0, len(encoded), 8192):
                yield encoded[start : start + 8192]

        refused = await http.post(green.url + "/", content=chunks(), headers={"A2A-Version": "1.0"})
        assert refused.status_code == 413 or "Payload too large" in refused.text, (refused.status_code, refused.text)
    async with grpc.aio.insecure_channel(green.grpc_target) as channel:
        stub = a2a_pb2_grpc.A2AServiceStub(channel)  # type: ignore[no-untyped-call]
        message = new_text_message(big, role=Role.ROLE_USER)
        with pytest.raises(grpc.aio.AioRpcError) as too_big:
            await stub.SendMessage(
                SendMessageRequest(message=message), metadata=[("authorization", f"Bearer {KEYS['alice']}")], timeout=10
            )
        assert too_big.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_without_caller_keys_the_green_agent_listens_on_loopback_only() -> None:
    done = taumesh("serve", "a2a", "--host", "0.0.0.0", "--port", str(free_port()), timeout=60)
    assert done.returncode == 2, done.stderr
    said = " ".join(done.stderr.replace("│", " ").split())
    assert "needs caller keys" in said and "--caller-key" in said, done.stderr
