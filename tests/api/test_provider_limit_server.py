"""The API operator's ``--provider-limit``: one cap per provider over every run a worker plays at once (issue 29).

Two runs posted together, each with two episodes in flight (four calls at once without the cap), against a model
server that counts the requests it is answering at once: with ``TAUMESH_API_PROVIDER_LIMIT=openai=3`` no more than
three are ever in flight.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from taumesh.domains import Catalog
from tests.helpers.api_thread import ThreadApi, start_thread_server
from tests.helpers.fake_model import FAKE_KEY, FakeOpenAI
from tests.llm.scripts import AGENT_MODEL, USER_MODEL, CountingScript, GoldAgent, Router, ScriptedLlmUser, TaskIndex

pytestmark = pytest.mark.slow
CAP = 3


@pytest.fixture
def counted(v1_data_dir: Path) -> Iterator[tuple[FakeOpenAI, CountingScript]]:
    index = TaskIndex(Catalog(v1_data_dir).get("retail").tasks("test"))
    counter = CountingScript(Router(GoldAgent(index), ScriptedLlmUser(index)), refusals=0.0, latency=0.05)
    with FakeOpenAI(counter) as server:
        yield server, counter


@pytest.fixture
def capped_api(counted: tuple[FakeOpenAI, CountingScript], v1_data_dir: Path, tmp_path: Path) -> Iterator[ThreadApi]:
    """The API served from a thread of this process (the cap is the executor's, not the process's)."""
    fake, _ = counted
    server = start_thread_server(
        f"sqlite:///{tmp_path / 'api.db'}",
        tmp_path,
        v1_data_dir,
        OPENAI_API_KEY=FAKE_KEY,
        TAUMESH_API_ALLOWED_API_BASES=fake.url,
        TAUMESH_API_PROVIDER_LIMIT=f"openai={CAP}",
    )
    try:
        yield server
    finally:
        server.stop()


def test_two_runs_at_once_share_the_servers_cap(
    capped_api: ThreadApi, counted: tuple[FakeOpenAI, CountingScript]
) -> None:
    fake, counter = counted

    def run(task_ids: list[int]) -> dict[str, Any]:
        request = {
            "env": "retail",
            "task_ids": task_ids,
            "agent_strategy": "tool-calling",
            "model": AGENT_MODEL,
            "model_provider": "openai",
            "api_base": fake.url,
            "user_strategy": "llm-taumesh",
            "user_model": USER_MODEL,
            "user_model_provider": "openai",
            "user_api_base": fake.url,
            "max_concurrency": 2,
        }
        url = f"{capped_api.base_url}/api/v1/validate-tasks"
        response = httpx.post(url, json=request, headers=capped_api.headers, timeout=300)
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    with ThreadPoolExecutor(max_workers=2) as pool:
        bodies = list(pool.map(run, [[0, 1], [2, 3]]))
    for body in bodies:
        assert body["status"] == "completed", body.get("error")
        assert [r["reward"] for r in body["results"]] == [1.0] * 2
    assert counter.peak <= CAP, f"{counter.peak} model calls were in flight at once"
    assert counter.peak >= 2  # the cap, not the runs, held the calls back
