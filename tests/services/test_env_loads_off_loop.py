"""A domain's first load runs in a worker thread: the env server keeps answering other calls meanwhile."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import grpc
import pytest

from taumesh.common.v1 import common_pb2
from taumesh.domains import Catalog
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from taumesh.rpc.server import start_server
from taumesh.services.env import env_service, servicer


def test_other_calls_are_answered_while_a_domain_loads(v1_data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    loads: list[str] = []
    prepare = servicer._prepare

    def slow_prepare(domain: Any) -> None:
        loads.append(domain.name)
        assert release.wait(30), "the test never released the load"
        prepare(domain)

    monkeypatch.setattr(servicer, "_prepare", slow_prepare)

    async def scenario() -> None:
        server = await start_server([env_service(Catalog(v1_data_dir))])
        try:
            async with grpc.aio.insecure_channel(server.address) as channel:
                stub = env_pb2_grpc.EnvServiceStub(channel)
                request = env_pb2.OpenSessionRequest(
                    task=common_pb2.TaskRef(domain="retail", split="test", task_id="0")
                )
                opens = [asyncio.ensure_future(stub.OpenSession(request, timeout=60)) for _ in range(3)]
                while not loads:  # the first OpenSession is now blocked inside the load
                    await asyncio.sleep(0.01)
                listed = await stub.ListDomains(env_pb2.ListDomainsRequest(), timeout=30)
                assert "retail" in [d.name for d in listed.domains]
                assert not any(call.done() for call in opens)
                release.set()
                sessions = await asyncio.gather(*opens)
                assert len({s.session_id for s in sessions}) == 3
                assert loads == ["retail"]  # three callers, one load
        finally:
            release.set()
            await server.stop(grace=1.0)

    asyncio.run(scenario())
