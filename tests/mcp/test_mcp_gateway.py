"""The env's tools over MCP: the official SDK's client plays gold actions through an episode's endpoint."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import httpx
import pytest
import uvicorn
from mcp import Client

from taumesh.domains import Catalog
from taumesh.env.v1 import env_pb2_grpc
from taumesh.orchestrator.episode.mcp_gateway import McpGateway, gateway_app
from taumesh.rpc.server import start_server as start_grpc
from taumesh.services.env import env_service
from tests.helpers.cli import tasks, taumesh_executable, vectors
from tests.helpers.paths import V1_DATA
from tests.helpers.processes import start_server


@dataclass
class Gateway:
    base: str
    http: httpx.AsyncClient

    async def open(self, task_id: int) -> dict[str, Any]:
        response = await self.http.post(
            f"{self.base}/episodes", json={"domain": "retail", "split": "test", "task_id": str(task_id)}
        )
        assert response.status_code == 200, response.text
        opened: dict[str, Any] = response.json()
        return opened

    async def finish(self, episode: dict[str, Any]) -> dict[str, Any]:
        response = await self.http.post(f"{self.base}/episodes/{episode['episode']}/finish")
        assert response.status_code == 200, response.text
        finished: dict[str, Any] = response.json()
        return finished


@pytest.fixture
async def gateway() -> AsyncIterator[Gateway]:
    if not V1_DATA.is_dir():
        pytest.skip(f"reference data not found at {V1_DATA}")
    env = await start_grpc([env_service(Catalog(V1_DATA))])
    channel = grpc.aio.insecure_channel(env.address)
    server = uvicorn.Server(
        uvicorn.Config(gateway_app(McpGateway(env_pb2_grpc.EnvServiceStub(channel))), host="127.0.0.1", port=0,
                       log_level="warning")
    )  # fmt: skip
    serving = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        async with httpx.AsyncClient() as http:
            yield Gateway(f"http://127.0.0.1:{port}", http)
    finally:
        server.should_exit = True
        await serving
        await channel.close()
        await env.stop(grace=None)


def gold(task_id: int) -> list[dict[str, Any]]:
    actions: list[dict[str, Any]] = tasks("retail", "test")[task_id]["actions"]
    return actions


@pytest.mark.slow
async def test_an_mcp_client_plays_the_gold_actions_to_the_oracles_hash(gateway: Gateway) -> None:
    schemas = Catalog(V1_DATA).get("retail").tool_schemas
    for task_id in (0, 2, 5):
        episode = await gateway.open(task_id)
        async with Client(gateway.base + episode["mcp_path"]) as client:
            listed = (await client.list_tools()).tools
            assert [t.name for t in listed] == [s["function"]["name"] for s in schemas]
            assert [t.input_schema for t in listed] == [s["function"]["parameters"] for s in schemas]
            observations = []
            for action in gold(task_id):
                result = await client.call_tool(action["name"], action["kwargs"])
                observations.append(result.content[0].text)  # type: ignore[union-attr]
        finished = await gateway.finish(episode)
        vector = vectors("retail", "test")[task_id]
        assert finished["data_hash"] == vector["final_hash"]
        assert observations == vector["action_outputs"]
        assert [c["name"] for c in finished["tool_calls"]] == [a["name"] for a in gold(task_id)]


async def test_a_call_repeated_with_the_same_request_id_changes_nothing(gateway: Gateway) -> None:
    task_id = 0  # its last gold action is a write (an exchange)
    actions = gold(task_id)
    episode = await gateway.open(task_id)
    url = gateway.base + episode["mcp_path"]
    async with Client(url) as client:
        for action in actions[:-1]:
            await client.call_tool(action["name"], action["kwargs"])
    last = actions[-1]
    body = {
        "jsonrpc": "2.0",
        "id": 4242,
        "method": "tools/call",
        "params": {"name": last["name"], "arguments": last["kwargs"]},
    }
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    headers["Mcp-Session-Id"] = await _raw_session(gateway.http, url, headers)
    answers = []
    for _ in range(2):  # the same request twice, as a client retrying after a lost answer
        response = await gateway.http.post(url, content=json.dumps(body), headers=headers)
        assert response.status_code == 200, response.text
        answers.append(response.text)
    finished = await gateway.finish(episode)
    vector = vectors("retail", "test")[task_id]
    assert finished["data_hash"] == vector["final_hash"], "the write ran once"
    assert len(finished["tool_calls"]) == len(actions), "recorded once"
    assert finished["env_tool_call_count"] == len(actions), "run once in the env session"
    first = _result(answers[0])
    assert first["content"][0]["text"] == vector["action_outputs"][-1] and not first["isError"]
    assert _result(answers[1]) == first


async def _raw_session(http: httpx.AsyncClient, url: str, headers: dict[str, str]) -> str:
    """Open an MCP session by hand (initialize, then initialized), as a client that sends its own JSON-RPC does."""
    hello = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
    }
    response = await http.post(url, content=json.dumps(hello), headers=headers)
    assert response.status_code == 200, response.text
    session = response.headers["mcp-session-id"]
    done = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    response = await http.post(url, content=json.dumps(done), headers={**headers, "Mcp-Session-Id": session})
    assert response.status_code in (200, 202), response.text
    return session


def _result(text: str) -> Any:
    for line in text.splitlines():  # an SSE stream or a JSON body
        payload = line.removeprefix("data:").strip()
        if payload.startswith("{"):
            return json.loads(payload).get("result")
    return json.loads(text).get("result")


async def test_a_finished_episode_has_no_endpoint(gateway: Gateway) -> None:
    episode = await gateway.open(1)
    await gateway.finish(episode)
    async with Client(gateway.base + episode["mcp_path"]) as client:
        with pytest.raises(Exception, match="no episode at this endpoint"):
            await client.list_tools()


async def test_an_unknown_task_is_a_clear_error(gateway: Gateway) -> None:
    response = await gateway.http.post(f"{gateway.base}/episodes", json={"domain": "retail", "task_id": "99999"})
    assert response.status_code == 404 and "task" in response.text.lower()
    response = await gateway.http.post(f"{gateway.base}/episodes", json={"domain": "retail"})
    assert response.status_code == 400 and "task_id" in response.text


@pytest.mark.slow
async def test_taumesh_serve_mcp(tmp_path: Path) -> None:
    """The command: its own env on loopback, episodes opened over HTTP, tools listed by the SDK's client."""
    if not V1_DATA.is_dir():
        pytest.skip(f"reference data not found at {V1_DATA}")
    server = start_server(
        [taumesh_executable(), "serve", "mcp", "--port", "0", "--data-dir", str(V1_DATA)],
        r"MCP gateway listening on http://(?P<address>\S+) ",
        tmp_path / "stderr.log",
    )
    try:
        async with httpx.AsyncClient() as http:
            gateway = Gateway(f"http://{server.address}", http)
            episode = await gateway.open(3)
            async with Client(gateway.base + episode["mcp_path"]) as client:
                assert "exchange_delivered_order_items" in {t.name for t in (await client.list_tools()).tools}
            finished = await gateway.finish(episode)
            assert finished["data_hash"] == episode["initial_data_hash"]
    finally:
        assert server.terminate(timeout=10) == 0, server.stderr()
