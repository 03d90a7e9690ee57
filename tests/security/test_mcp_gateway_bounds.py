"""``serve mcp`` probed as an attacker would: oversized bodies, foreign Host and Origin, cross-origin simple POSTs,
a full session table, and an episode whose env session was reaped. A real env service over gRPC, a real uvicorn."""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
from collections.abc import AsyncIterator, Callable
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
from taumesh.orchestrator.episode.mcp_gateway import EPISODE_EXPIRED, GatewayLimits, McpGateway, gateway_app
from taumesh.rpc.http_guard import HostPolicy
from taumesh.rpc.server import start_server as start_grpc
from taumesh.services.env import env_service
from tests.helpers.cli import tasks, taumesh_executable
from tests.helpers.paths import V1_DATA
from tests.helpers.processes import start_server

IDLE = 1.0
"""The env's idle timeout in these tests: an episode left alone this long is reaped by the env."""
OPEN = {"domain": "retail", "split": "test", "task_id": "0"}
LISTENING = r"MCP gateway listening on http://(?P<address>\S+) "
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@dataclass
class Served:
    base: str
    port: int
    http: httpx.AsyncClient
    gateway: McpGateway

    async def open(self, **headers: str) -> httpx.Response:
        return await self.http.post(f"{self.base}/episodes", json=OPEN, headers=headers)


Start = Callable[..., Any]


@pytest.fixture
async def serve() -> AsyncIterator[Start]:
    """Starts the gateway app (limits and host policy as given) over an env whose sessions expire after ``IDLE``."""
    if not V1_DATA.is_dir():
        pytest.skip(f"reference data not found at {V1_DATA}")
    env = await start_grpc([env_service(Catalog(V1_DATA), idle_timeout=IDLE)])
    channel = grpc.aio.insecure_channel(env.address)
    servers: list[tuple[uvicorn.Server, asyncio.Task[None]]] = []
    http = httpx.AsyncClient(timeout=30)

    async def start(
        limits: GatewayLimits | None = None,
        policy: HostPolicy | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> Served:
        gateway = McpGateway(env_pb2_grpc.EnvServiceStub(channel), limits=limits, policy=policy, clock=clock)
        app = gateway_app(gateway)
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
        serving = asyncio.create_task(server.serve())
        servers.append((server, serving))
        while not server.started:
            await asyncio.sleep(0.02)
        port = server.servers[0].sockets[0].getsockname()[1]
        return Served(f"http://127.0.0.1:{port}", port, http, gateway)

    try:
        yield start
    finally:
        for server, serving in servers:
            server.should_exit = True
            await serving
        await http.aclose()
        await channel.close(grace=None)
        await env.stop(grace=0)


async def test_an_oversized_open_request_is_refused_with_413(serve: Start) -> None:
    served: Served = await serve(GatewayLimits(max_body_bytes=64 * 1024))
    padding = "x" * (1024 * 1024)  # 1 MiB of JSON, a valid body but for its size
    body = json.dumps({**OPEN, "padding": padding})
    response = await served.http.post(f"{served.base}/episodes", content=body, headers=MCP_HEADERS)
    assert response.status_code == 413, response.text
    assert "65536" in response.text and "bytes" in response.text
    chunks = (padding.encode()[i : i + 65536] for i in range(0, len(padding), 65536))

    async def streamed() -> AsyncIterator[bytes]:  # no Content-Length: the limit counts what arrives
        for chunk in chunks:
            yield chunk

    response = await served.http.post(f"{served.base}/episodes", content=streamed(), headers=MCP_HEADERS)
    assert response.status_code == 413, response.text
    mcp_path = (await served.open()).json()["mcp_path"]
    big_call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x", "arguments": {"p": padding}}}
    response = await served.http.post(served.base + mcp_path, content=json.dumps(big_call), headers=MCP_HEADERS)
    assert response.status_code == 413, response.text


async def test_a_foreign_host_is_refused_before_anything_runs(serve: Start) -> None:
    served: Served = await serve()
    opened = (await served.open()).json()
    for host in ("evil.example", f"evil.example:{served.port}", "127.0.0.1.nip.io"):
        response = await served.open(Host=host)
        assert response.status_code in (400, 421), (host, response.text)
        assert "host" in response.text.lower()
        response = await served.http.post(f"{served.base}/episodes/{opened['episode']}/finish", headers={"Host": host})
        assert response.status_code in (400, 421), response.text
        foreign = {**MCP_HEADERS, "Host": host}
        response = await served.http.post(served.base + opened["mcp_path"], content="{}", headers=foreign)
        assert response.status_code in (400, 421), response.text
    for host in (f"localhost:{served.port}", f"127.0.0.1:{served.port}", f"[::1]:{served.port}", "localhost"):
        assert (await served.open(Host=host)).status_code == 200, host


async def test_allowed_hosts_and_origins_are_the_operators_choice(serve: Start) -> None:
    policy = HostPolicy(allowed_hosts=["mcp.internal"], allowed_origins=["https://console.example"])
    served: Served = await serve(policy=policy)
    assert (await served.open(Host="mcp.internal")).status_code == 200
    assert (await served.open(Host="mcp.internal:9000", Origin="http://mcp.internal:9000")).status_code == 200
    assert (await served.open(Origin="https://console.example")).status_code == 200
    assert (await served.open(Host="other.internal")).status_code in (400, 421)
    assert (await served.open(Origin="https://other.example")).status_code == 403


async def test_a_cross_origin_browser_post_opens_no_episode(serve: Start) -> None:
    served: Served = await serve()
    open_before = len(served.gateway.episodes)
    # what a page on another site can send without a preflight: a simple content type, its own Origin
    simple = {"Content-Type": "text/plain", "Origin": "https://evil.example"}
    response = await served.http.post(f"{served.base}/episodes", content=json.dumps(OPEN), headers=simple)
    assert response.status_code == 403, response.text
    assert "origin" in response.text.lower()
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        response = await served.http.post(
            f"{served.base}/episodes", content=json.dumps(OPEN), headers={"Content-Type": content_type}
        )
        assert response.status_code == 415, (content_type, response.text)
        assert "application/json" in response.text
    response = await served.open(Origin="https://evil.example")
    assert response.status_code == 403, response.text
    response = await served.open(Origin="null")
    assert response.status_code == 403, response.text
    assert len(served.gateway.episodes) == open_before, "no episode was opened"
    assert (await served.open(Origin=f"http://localhost:{served.port}")).status_code == 200


async def test_each_client_has_a_cap_on_open_episodes_and_finishing_one_frees_a_place(serve: Start) -> None:
    served: Served = await serve(GatewayLimits(max_episodes_per_client=2, max_episodes=10))
    first, _second = [(await served.open()).json() for _ in range(2)]
    refused = await served.open()
    assert refused.status_code == 429, refused.text
    assert (
        "2 open episodes" in refused.text and "finish" in refused.text and "--max-episodes-per-client" in refused.text
    )
    assert int(refused.headers["retry-after"]) >= 1
    response = await served.http.post(f"{served.base}/episodes/{first['episode']}/finish")
    assert response.status_code == 200, response.text
    assert (await served.open()).status_code == 200


async def test_the_gateway_has_a_total_cap_on_open_episodes(serve: Start) -> None:
    served: Served = await serve(GatewayLimits(max_episodes_per_client=10, max_episodes=3))
    for _ in range(3):
        assert (await served.open()).status_code == 200
    refused = await served.open()
    assert refused.status_code == 429, refused.text
    assert "3 open episodes" in refused.text and "--max-episodes" in refused.text


async def test_an_episode_unused_past_the_idle_timeout_no_longer_counts(serve: Start) -> None:
    now = [1000.0]
    served: Served = await serve(GatewayLimits(max_episodes_per_client=1, idle_timeout=60), clock=lambda: now[0])
    first = (await served.open()).json()["episode"]
    now[0] += 59
    refused = await served.open()
    assert refused.status_code == 429 and refused.headers["retry-after"] == "1"
    now[0] += 2  # unused for 61 s: it no longer counts, and its calls are still kept for a finish
    assert (await served.open()).status_code == 200
    assert first in served.gateway.episodes
    now[0] += 59  # the first unused for twice the timeout: forgotten at the next open
    assert (await served.open()).status_code == 429, "the second episode, unused for 59 s, still counts"
    assert first not in served.gateway.episodes


async def test_finish_after_the_env_reaped_the_session_keeps_the_recorded_calls(serve: Start) -> None:
    served: Served = await serve()
    action = tasks("retail", "test")[0]["actions"][0]
    opened = (await served.open()).json()
    async with Client(served.base + opened["mcp_path"]) as client:
        result = await client.call_tool(action["name"], action["kwargs"])
        assert not result.is_error
    await asyncio.sleep(IDLE + 0.3)  # the env reaps the session; the gateway still holds its calls
    response = await served.http.post(f"{served.base}/episodes/{opened['episode']}/finish")
    assert response.status_code == 410, response.text
    finished = response.json()
    assert "expired" in finished["error"]
    assert [c["name"] for c in finished["tool_calls"]] == [action["name"]]
    again = await served.http.post(f"{served.base}/episodes/{opened['episode']}/finish")
    assert again.status_code == 404, "answered once: the episode is gone after it"


async def test_a_call_after_the_env_reaped_the_session_is_a_clean_json_rpc_error(serve: Start) -> None:
    served: Served = await serve()
    action = tasks("retail", "test")[0]["actions"][0]
    opened = (await served.open()).json()
    url = served.base + opened["mcp_path"]
    headers = dict(MCP_HEADERS)
    hello = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
    }
    response = await served.http.post(url, content=json.dumps(hello), headers=headers)
    headers["Mcp-Session-Id"] = response.headers["mcp-session-id"]
    done = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    await served.http.post(url, content=json.dumps(done), headers=headers)
    await asyncio.sleep(IDLE + 0.3)
    call = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": action["name"],
                                                                         "arguments": action["kwargs"]}}  # fmt: skip
    response = await served.http.post(url, content=json.dumps(call), headers=headers)
    error = _error(response.text)
    assert error["code"] == EPISODE_EXPIRED, error
    assert "expired" in error["message"] and "finish" in error["message"]
    for raw in ("AioRpcError", "StatusCode", "debug_error_string", "<", "grpc"):
        assert raw not in error["message"], error["message"]


def _error(text: str) -> dict[str, Any]:
    for line in text.splitlines():  # an SSE stream or a JSON body
        payload = line.removeprefix("data:").strip()
        if payload.startswith("{"):
            found: dict[str, Any] = json.loads(payload)["error"]
            return found
    found = json.loads(text)["error"]
    return found


@pytest.mark.slow
async def test_taumesh_serve_mcp_takes_its_limits_and_allowed_hosts_from_flags(tmp_path: Path) -> None:
    if not V1_DATA.is_dir():
        pytest.skip(f"reference data not found at {V1_DATA}")
    command = [taumesh_executable(), "serve", "mcp", "--port", "0", "--data-dir", str(V1_DATA)]
    refused = subprocess.run([*command, "--allowed-host", "http://mcp.test/"], capture_output=True, text=True)
    assert refused.returncode == 2 and "not a host name" in refused.stderr, refused.stderr
    flags = ["--max-episodes-per-client", "1", "--max-body-bytes", "2048", "--allowed-host", "mcp.test"]
    server = start_server([*command, *flags], LISTENING, tmp_path / "stderr.log")
    try:
        async with httpx.AsyncClient() as http:
            base = f"http://{server.address}"
            opened = await http.post(f"{base}/episodes", json=OPEN, headers={"Host": "mcp.test"})
            assert opened.status_code == 200, opened.text
            assert (await http.post(f"{base}/episodes", json=OPEN)).status_code == 429
            assert (await http.post(f"{base}/episodes", json=OPEN, headers={"Host": "evil.test"})).status_code == 400
            too_big = await http.post(f"{base}/episodes", json={**OPEN, "padding": "x" * 4096})
            assert too_big.status_code == 413 and "2048 bytes" in too_big.text
            finished = await http.post(f"{base}/episodes/{opened.json()['episode']}/finish")
            assert finished.status_code == 200, finished.text
            assert (await http.post(f"{base}/episodes", json=OPEN)).status_code == 200
    finally:
        assert server.terminate(timeout=10) == 0, server.stderr()
