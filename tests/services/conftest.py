"""Real gRPC servers for the service tests: EnvService and ScorerService over the v1 reference data.

The servers run on their own asyncio loop in a background thread (the way they run in production:
``grpc.aio``), and the tests talk to them through ordinary synchronous stubs over 127.0.0.1. One
pair of servers serves the whole test session, so the domain data is loaded and hashed once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from taumesh.domains import Catalog
from taumesh.env.v1 import env_pb2_grpc
from taumesh.rpc.server import CHANNEL_OPTIONS, start_server
from taumesh.scorer.v1 import scorer_pb2_grpc
from taumesh.services.env import env_service
from taumesh.services.scorer import scorer_service
from tests.helpers.grpc_services import EnvClient, LoopThread, Servers, Tau2Stubs


@pytest.fixture(scope="session")
def catalog(v1_data_dir: Path) -> Catalog:
    return Catalog(v1_data_dir)


@pytest.fixture(scope="session")
def servers(catalog: Catalog) -> Iterator[Servers]:
    loop = LoopThread()
    try:
        env = loop.run(start_server([env_service(catalog)]))
        scorer = loop.run(start_server([scorer_service(catalog)]))
        try:
            yield Servers(catalog, env, scorer)
        finally:
            loop.run(env.stop(grace=1.0))
            loop.run(scorer.stop(grace=1.0))
    finally:
        loop.close()


@pytest.fixture(scope="session")
def env_channel(servers: Servers) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(servers.env.address, options=CHANNEL_OPTIONS) as channel:
        grpc.channel_ready_future(channel).result(timeout=10)
        yield channel


@pytest.fixture(scope="session")
def scorer_channel(servers: Servers) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(servers.scorer.address, options=CHANNEL_OPTIONS) as channel:
        grpc.channel_ready_future(channel).result(timeout=10)
        yield channel


@pytest.fixture(scope="session")
def env_stub(env_channel: grpc.Channel) -> env_pb2_grpc.EnvServiceStub:
    return env_pb2_grpc.EnvServiceStub(env_channel)


@pytest.fixture(scope="session")
def scorer_stub(scorer_channel: grpc.Channel) -> scorer_pb2_grpc.ScorerServiceStub:
    return scorer_pb2_grpc.ScorerServiceStub(scorer_channel)


@pytest.fixture(scope="module")
def tau2_stubs(tau2_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tau2Stubs]:
    """Env and scorer servers over a catalog whose only data is τ²'s (v1 folders absent); skips without it."""
    catalog = Catalog(tmp_path_factory.mktemp("no_v1_data"))
    loop = LoopThread()
    try:
        env = loop.run(start_server([env_service(catalog)]))
        scorer = loop.run(start_server([scorer_service(catalog)]))
        try:
            with (
                grpc.insecure_channel(env.address, options=CHANNEL_OPTIONS) as env_channel,
                grpc.insecure_channel(scorer.address, options=CHANNEL_OPTIONS) as scorer_channel,
            ):
                yield env_pb2_grpc.EnvServiceStub(env_channel), scorer_pb2_grpc.ScorerServiceStub(scorer_channel)
        finally:
            loop.run(env.stop(grace=1.0))
            loop.run(scorer.stop(grace=1.0))
    finally:
        loop.close()


@pytest.fixture(scope="session")
def env(env_stub: env_pb2_grpc.EnvServiceStub) -> EnvClient:
    return EnvClient(env_stub)
