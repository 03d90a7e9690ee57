"""The gRPC spans over a real loopback server: server spans continue the caller's trace and record status and peer;
a call that a taumesh span stands for carries the trace context but gets no client span of its own."""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc
import pytest
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from taumesh.common.v1 import common_pb2
from taumesh.domains import Catalog
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from taumesh.rpc.server import start_server
from taumesh.services.env import env_service
from taumesh.telemetry import current, setup_telemetry, shutdown_telemetry, tracer
from taumesh.telemetry.call_spans import call_span
from taumesh.telemetry.rpc import peer_attributes
from tests.helpers.telemetry import received

LIST_TASKS = "/taumesh.env.v1.EnvService/ListTasks"
OPEN_SESSION = "/taumesh.env.v1.EnvService/OpenSession"


async def calls(v1_data_dir: Path) -> None:
    """ListTasks alone, ListTasks inside a span that stands for it, and an OpenSession the env refuses."""
    telemetry = current()
    server = await start_server(
        [env_service(Catalog(v1_data_dir))], interceptors=telemetry.service("env").server_interceptors()
    )
    channel = grpc.aio.insecure_channel(server.address, interceptors=telemetry.primary.client_interceptors())
    env = env_pb2_grpc.EnvServiceStub(channel)
    try:
        await env.ListTasks(env_pb2.ListTasksRequest(domain="retail", split="test"))
        with tracer().start_as_current_span("stands for ListTasks") as span, call_span(span):
            await env.ListTasks(env_pb2.ListTasksRequest(domain="retail", split="test"))
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await env.OpenSession(
                env_pb2.OpenSessionRequest(task=common_pb2.TaskRef(domain="no-such-domain", split="test", task_id="0"))
            )
        assert refused.value.code() == grpc.StatusCode.NOT_FOUND
    finally:
        await channel.close(None)
        await server.stop(grace=0.0)


@pytest.mark.usefixtures("clean_otel_env")
def test_server_spans_and_the_calls_a_span_stands_for(v1_data_dir: Path, memory: InMemorySpanExporter) -> None:
    setup_telemetry("orchestrator", set_global=False, span_exporter=memory)
    try:
        asyncio.run(calls(v1_data_dir))
    finally:
        shutdown_telemetry()
    spans = received(memory.get_finished_spans())
    servers = sorted((s for s in spans if s.kind == 2), key=lambda s: s.start_ns)
    clients = sorted((s for s in spans if s.kind == 3), key=lambda s: s.start_ns)
    wrapper = next(s for s in spans if s.name == "stands for ListTasks")

    assert [s.name for s in servers] == [LIST_TASKS, LIST_TASKS, OPEN_SESSION]
    assert {s.service for s in servers} == {"taumesh-env"}
    assert [s.name for s in clients] == [LIST_TASKS, OPEN_SESSION]  # none for the call the span stands for
    first, covered, refused = servers
    assert (first.trace_id, first.parent_span_id) == (clients[0].trace_id, clients[0].span_id)
    assert (covered.trace_id, covered.parent_span_id) == (wrapper.trace_id, wrapper.span_id)
    assert (refused.trace_id, refused.parent_span_id) == (clients[1].trace_id, clients[1].span_id)

    assert first.attributes["rpc.system"] == "grpc"
    assert first.attributes["rpc.service"] == "taumesh.env.v1.EnvService"
    assert first.attributes["rpc.method"] == "ListTasks"
    assert first.attributes["rpc.grpc.status_code"] == 0
    assert first.attributes["net.peer.ip"] == "127.0.0.1"
    assert first.attributes["net.peer.name"] == "localhost"
    assert first.attributes["rpc.user_agent"].startswith("grpc-python")
    assert first.status_code == 0
    # NOT_FOUND is the caller's fault: the code is recorded, the server span is not an error
    assert refused.attributes["rpc.grpc.status_code"] == grpc.StatusCode.NOT_FOUND.value[0]
    assert refused.status_code == 0
    assert clients[1].attributes["rpc.grpc.status_code"] == grpc.StatusCode.NOT_FOUND.value[0]


@pytest.mark.parametrize(
    ("peer", "expected"),
    [
        ("ipv4:127.0.0.1:57284", {"net.peer.ip": "127.0.0.1", "net.peer.port": "57284", "net.peer.name": "localhost"}),
        ("ipv6:[::1]:57284", {"net.peer.ip": "[::1]", "net.peer.port": "57284", "net.peer.name": "localhost"}),
        ("ipv6:%5B::1%5D:8080", {"net.peer.ip": "[::1]", "net.peer.port": "8080", "net.peer.name": "localhost"}),
        ("ipv4:10.2.1.1:443,127.0.0.1:57284", {"net.peer.ip": "10.2.1.1", "net.peer.port": "443"}),
        ("unix:/tmp/socket", {}),
        ("", {}),
    ],
)
def test_peer_attributes(peer: str, expected: dict[str, str]) -> None:
    assert peer_attributes(peer) == expected
