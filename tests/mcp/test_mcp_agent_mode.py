"""``taumesh run --agent-tools mcp``: an external agent takes its tools over MCP, its calls land in the trajectory."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from mcp import Client

from taumesh.agent.v1 import agent_pb2, agent_pb2_grpc
from taumesh.common.v1 import common_pb2
from tests.helpers.cli import check_oracle_results, explain_result, invoke, load_json, results_path, tasks, vectors
from tests.helpers.paths import V1_DATA


class McpGoldAgent(agent_pb2_grpc.AgentServiceServicer):
    """Plays the gold actions over the episode's MCP endpoint, then says the reference run's closing words."""

    def __init__(self) -> None:
        self.seen: list[agent_pb2.NextMessageRequest] = []

    async def NextMessage(self, request: agent_pb2.NextMessageRequest, context: Any) -> agent_pb2.NextMessageResponse:
        self.seen.append(request)
        if not request.mcp_url:
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION, "this agent takes its tools over MCP")
        task_id = int(request.episode.task.task_id)
        async with Client(request.mcp_url) as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            for action in tasks("retail", "test")[task_id]["actions"]:
                assert action["name"] in names
                await client.call_tool(action["name"], action["kwargs"])
        text = vectors("retail", "test")[task_id]["respond_content"]
        return agent_pb2.NextMessageResponse(message=common_pb2.Message(role=common_pb2.ROLE_ASSISTANT, content=text))


@pytest.fixture
def mcp_agent() -> Iterator[tuple[str, McpGoldAgent]]:
    if not V1_DATA.is_dir():
        pytest.skip(f"reference data not found at {V1_DATA}")
    agent = McpGoldAgent()
    ready: list[str] = []
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()

    async def serve() -> None:
        server = grpc.aio.server()
        agent_pb2_grpc.add_AgentServiceServicer_to_server(agent, server)
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        ready.append(f"127.0.0.1:{port}")
        await stop.wait()
        await server.stop(grace=None)

    thread = threading.Thread(target=loop.run_until_complete, args=(serve(),), daemon=True)
    thread.start()
    while not ready:
        thread.join(0.02)
    yield ready[0], agent
    loop.call_soon_threadsafe(stop.set)
    thread.join(10)


@pytest.mark.slow
def test_an_agent_playing_over_mcp_passes_and_its_calls_are_the_trajectory(
    mcp_agent: tuple[str, McpGoldAgent], tmp_path: Path
) -> None:
    address, agent = mcp_agent
    ids = [0, 1, 2, 3, 4]
    result = invoke(
        "run", "--env", "retail", "--task-split", "test", "--user-strategy", "scripted", "--quiet",
        "--data-dir", V1_DATA, "--log-dir", tmp_path, "--agent-addr", address, "--agent-tools", "mcp",
        "--max-concurrency", "3", *[arg for i in ids for arg in ("--task-ids", str(i))],
    )  # fmt: skip
    assert result.exit_code == 0, explain_result(result)
    check_oracle_results(load_json(results_path(tmp_path)), "retail", "test", ids, call_id_prefix="mcp_")
    assert all(not request.tools and request.mcp_url.startswith("http://127.0.0.1:") for request in agent.seen)
    assert len({request.mcp_url for request in agent.seen}) == len(ids), "one endpoint per episode"
