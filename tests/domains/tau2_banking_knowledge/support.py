"""What the banking tests share: the shared fixtures' folder, the checkout import, real gRPC servers, a judge script.

The tools' texts come from upstream's sources, so every test that calls a tool imports the checkout named by
``TAUMESH_TAU2_CHECKOUT`` into a fresh cache (and skips without one).
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import grpc
import pytest

from taumesh.domains import Catalog
from taumesh.rpc.server import CHANNEL_OPTIONS, RunningServer, start_server
from taumesh.services.env import env_service
from taumesh.services.scorer import scorer_service
from tests.helpers.fake_model import Reply, text

T = TypeVar("T")

SHARED = Path(os.environ.get("TAUMESH_SHARED", Path(__file__).resolve().parents[3].parent / "shared"))
FIXTURES = SHARED / "tau2" / "head_banking_knowledge"
CHECKOUT = os.environ.get("TAUMESH_TAU2_CHECKOUT")
NEEDS_CHECKOUT = "TAUMESH_TAU2_CHECKOUT (an upstream checkout with its sources) not set"
NEEDS_FIXTURES = pytest.mark.skipif(not FIXTURES.is_dir(), reason=f"{FIXTURES} is not there")
NEEDS_FIXTURES_AND_CHECKOUT = [NEEDS_FIXTURES, pytest.mark.skipif(not CHECKOUT, reason=NEEDS_CHECKOUT)]
"""The marks of a test that calls the domain's tools: the shared fixtures, and a checkout for the tools' texts."""
ENV = "tau2-banking-knowledge"
"""The domain's plain name: upstream's default configuration, ``alltools`` (an embedding model and bubblewrap)."""
NO_KNOWLEDGE = f"{ENV}:no_knowledge"
"""The configuration upstream's reference vectors (``vectors.jsonl``, the MANIFEST's replays) were made with."""
RPC_TIMEOUT = 60.0


def vectors() -> list[dict[str, Any]]:
    """The 97 records of ``vectors.jsonl`` (none when the fixtures are absent)."""
    if not FIXTURES.is_dir():
        return []
    with (FIXTURES / "vectors.jsonl").open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


@contextmanager
def imported_cache(cache: Path) -> Iterator[Path]:
    """The checkout imported into ``cache``, which is ``TAUMESH_CACHE_DIR`` meanwhile."""
    from taumesh.data import import_tau2

    previous = os.environ.get("TAUMESH_CACHE_DIR")
    os.environ["TAUMESH_CACHE_DIR"] = str(cache)
    try:
        import_tau2(Path(str(CHECKOUT)))
        yield cache
    finally:
        if previous is None:
            os.environ.pop("TAUMESH_CACHE_DIR", None)
        else:
            os.environ["TAUMESH_CACHE_DIR"] = previous


def data_dir_with_fixtures(folder: Path) -> Path:
    """A ``--data-dir`` whose ``banking_knowledge`` is the shared copy of upstream's data."""
    (folder / "banking_knowledge").symlink_to(FIXTURES / "data", target_is_directory=True)
    return folder


class LoopThread:
    """An asyncio loop in a daemon thread, where the servers run as they do in production (``grpc.aio``)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="banking-grpc", daemon=True)
        self.thread.start()

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(RPC_TIMEOUT)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()


@contextmanager
def env_and_scorer(data_dir: Path) -> Iterator[tuple[grpc.Channel, grpc.Channel]]:
    """EnvService and ScorerService over ``data_dir`` on 127.0.0.1, and a channel to each."""
    catalog = Catalog(data_dir)
    loop = LoopThread()
    servers: list[RunningServer] = []
    try:
        servers.append(loop.run(start_server([env_service(catalog)])))
        servers.append(loop.run(start_server([scorer_service(catalog)])))
        with (
            grpc.insecure_channel(servers[0].address, options=CHANNEL_OPTIONS) as env,
            grpc.insecure_channel(servers[1].address, options=CHANNEL_OPTIONS) as scorer,
        ):
            yield env, scorer
    finally:
        for server in servers:
            loop.run(server.stop(grace=1.0))
        loop.close()


def judge_all_met(request: dict[str, Any], ordinal: int) -> Reply:
    """A judge that finds every expectation of the question met."""
    asked = request["messages"][1]["content"]
    expectations = [line.split(". ", 1)[1] for line in asked.split("# Expectations\n", 1)[1].splitlines()]
    results = [{"expectedOutcome": said, "reasoning": "Said so.", "metExpectation": True} for said in expectations]
    return text("```json\n" + json.dumps({"results": results}) + "\n```")


@contextmanager
def serving_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[grpc.Channel]:
    """An EnvService over the shared banking data, the checkout imported, in this process: a channel to it."""
    with (
        imported_cache(tmp_path_factory.mktemp("cache")),
        env_and_scorer(data_dir_with_fixtures(tmp_path_factory.mktemp("data"))) as (channel, _),
    ):
        yield channel
