"""The act/react prompt is τ-bench's, returned as ``system_prompt``; Describe names built-in and external agents.

The prompt vectors were made by running τ-bench v1's own expression (sierra-research/tau-bench,
tau_bench/agents/chat_react_agent.py: ``wiki + "\\n#Available tools\\n" + json.dumps(tools_info) + instruction``,
REACT_INSTRUCTION when ``use_reasoning`` else ACT_INSTRUCTION) over the shared ``wiki.md`` and ``tools.json``;
the SHA-256 and length of each prompt are recorded below. Here the same prompt is built through the real path:
the env service hands out the policy and tools, the agent service builds and returns the prompt.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator
from concurrent import futures
from pathlib import Path

import grpc
import pytest

from examples.external_agent_server import OracleAgent, TaskFiles
from taumesh.agent.v1 import agent_pb2, agent_pb2_grpc
from taumesh.convert import episode_to_proto, message_to_proto, model_to_proto, task_ref_to_proto
from taumesh.domains import Catalog
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from taumesh.models import ChatMessage, EpisodeContext, ModelSettings, TaskRef
from taumesh.rpc.server import RunningServer, start_server
from taumesh.services.agent import agent_service
from taumesh.services.agent.servicer import taumesh_version
from taumesh.services.env import env_service
from tests.helpers.fake_model import FakeOpenAI, text
from tests.llm.scripts import AGENT_MODEL

TAU_BENCH_PROMPTS = {
    # (domain, strategy): (length in characters, SHA-256 of the UTF-8 text) of τ-bench's prompt
    ("retail", "react"): (18853, "00a3f58318aba490d0866da7f27cdf428d82c50347e6a9e615e90c1cb8eec805"),
    ("retail", "act"): (18600, "18f186175a6486a6abf86eafb3184dd539845f39e2df388047238797d1ea9d94"),
    ("airline", "react"): (17234, "d7485e897582986b33c81f6bee5402adaac8b202f997873e53c90ff3ba87a518"),
    ("airline", "act"): (16981, "581c228d7b7d7029d73ecaf10497de32b64ca6f11f4a6e280880c3899a9147b4"),
}


Stubs = tuple[env_pb2_grpc.EnvServiceStub, agent_pb2_grpc.AgentServiceStub]
REACT_REPLY = 'Thought:\nGreet.\nAction:\n{"name": "respond", "arguments": {"content": "Hi"}}'


def fake_model(fake: FakeOpenAI) -> ModelSettings:
    return ModelSettings(model=AGENT_MODEL, provider="openai", api_base=fake.url)


@pytest.fixture
async def stack(v1_data_dir: Path) -> AsyncIterator[Stubs]:
    catalog = Catalog(v1_data_dir)
    running: RunningServer = await start_server([env_service(catalog), agent_service(catalog)])
    channel = grpc.aio.insecure_channel(running.address)
    try:
        yield env_pb2_grpc.EnvServiceStub(channel), agent_pb2_grpc.AgentServiceStub(channel)
    finally:
        await channel.close()
        await running.stop(grace=0.5)


@pytest.mark.parametrize(("domain", "strategy"), list(TAU_BENCH_PROMPTS))
async def test_act_and_react_prompts_are_tau_bench_s_and_are_returned(
    fake: FakeOpenAI,
    stack: Stubs,
    v1_data_dir: Path,
    domain: str,
    strategy: str,
) -> None:
    env, agent = stack
    task = TaskRef(domain=domain, split="test", task_id="0")
    session = await env.OpenSession(env_pb2.OpenSessionRequest(task=task_ref_to_proto(task)))
    fake.reset(text('Thought:\nGreet.\nAction:\n{"name": "respond", "arguments": {"content": "Hi"}}'))
    request = agent_pb2.NextMessageRequest(
        config=agent_pb2.AgentConfig(
            strategy=strategy,
            model=model_to_proto(fake_model(fake)),
        ),
        episode=episode_to_proto(EpisodeContext(task=task)),
        policy=session.policy,
        tools=session.tools,
        conversation=[message_to_proto(ChatMessage(role="user", content="Hi, I need help with an order."))],
    )
    answer = await agent.NextMessage(request)
    length, digest = TAU_BENCH_PROMPTS[(domain, strategy)]
    assert (len(answer.system_prompt), hashlib.sha256(answer.system_prompt.encode()).hexdigest()) == (length, digest)
    [sent] = fake.requests
    assert sent["messages"][0] == {"role": "system", "content": answer.system_prompt}  # what the model was told
    wiki = (v1_data_dir / domain / "wiki.md").read_text(encoding="utf-8")
    tools = json.loads((v1_data_dir / domain / "tools.json").read_text(encoding="utf-8"))
    assert answer.system_prompt.startswith(wiki + "\n#Available tools\n" + json.dumps(tools) + "\n# Instruction\n")
    assert answer.message.content == "Hi"


async def test_tool_calling_returns_the_policy_as_its_system_prompt(fake: FakeOpenAI, stack: Stubs) -> None:
    _, agent = stack
    fake.reset(text("Hello! How can I help?"))
    request = agent_pb2.NextMessageRequest(
        config=agent_pb2.AgentConfig(
            strategy="tool-calling",
            model=model_to_proto(fake_model(fake)),
        ),
        episode=episode_to_proto(EpisodeContext(task=TaskRef(domain="retail", split="test", task_id="0"))),
        policy="Be kind.",
        conversation=[message_to_proto(ChatMessage(role="user", content="Hi"))],
    )
    assert (await agent.NextMessage(request)).system_prompt == "Be kind."


async def test_the_built_in_agent_describes_itself(
    stack: Stubs,
) -> None:
    _, agent = stack
    described = await agent.Describe(agent_pb2.DescribeRequest())
    assert described.name == "taumesh"
    assert described.version == taumesh_version() != "unknown"
    assert all(name in described.description for name in ("oracle", "tool-calling", "act", "react", "few-shot"))


def test_the_external_test_agent_describes_itself(v1_data_dir: Path) -> None:
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    agent_pb2_grpc.add_AgentServiceServicer_to_server(OracleAgent(TaskFiles(v1_data_dir)), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            described = agent_pb2_grpc.AgentServiceStub(channel).Describe(agent_pb2.DescribeRequest(), timeout=10)
    finally:
        server.stop(grace=None)
    assert (described.name, described.version) == ("external-oracle", "1.1.0")
    assert described.description
