"""AsyncTaumeshClient against a real uvicorn on loopback: the same methods, awaited, and typed errors."""

from __future__ import annotations

from typing import Any

import pytest

from taumesh.client import (
    AsyncTaumeshClient,
    AuthenticationError,
    EpisodeDone,
    InvalidRequestError,
    NotFoundError,
    RunEnded,
)
from tests.helpers.api import ApiServer

ORACLE: dict[str, Any] = {"env": "retail", "agent_strategy": "oracle", "user_strategy": "scripted"}


async def test_async_client_every_method(api: ApiServer) -> None:
    async with AsyncTaumeshClient(api.base_url, api.token, auth_header="x-api-key") as client:
        health = await client.health_check()
        assert "retail" in health.supported_environments

        answer = await client.validate_tasks(**ORACLE, task_ids=[2])
        assert answer.status == "completed" and [r.reward for r in answer.results] == [1.0]

        page = await client.list_tasks("retail", page=2, page_size=100)
        assert len(page.tasks) == 15 and page.next_page is None and page.tasks[0].task_id == 100
        assert len([t async for t in client.iter_tasks("retail", page_size=60)]) == 115

        accepted = await client.runs.create(**ORACLE, start_index=30, end_index=33)
        events = [event async for event in client.stream_events(accepted.run_id)]
        assert [e.done for e in events if isinstance(e, EpisodeDone)] == [1, 2, 3]
        assert isinstance(events[-1], RunEnded) and events[-1].status == "completed"

        run = await client.runs.get(accepted.run_id)
        assert run.status == "completed" and run.done_episodes == 3
        assert sorted(r.task_id for r in await client.runs.results(accepted.run_id)) == [30, 31, 32]
        assert len(await client.runs.trajectories(accepted.run_id, limit=1)) == 1
        assert accepted.run_id in [r.id for r in (await client.runs.list(limit=200)).runs]

        waited = await client.runs.wait((await client.runs.create(**ORACLE, task_ids=[7])).run_id)
        assert waited.status == "completed"

        queued = await client.runs.create(**ORACLE)
        assert (await client.runs.cancel(queued.run_id)).status == "cancelled"


async def test_async_client_raises_typed_errors(api: ApiServer) -> None:
    async with AsyncTaumeshClient(api.base_url, api_key="") as anonymous:
        with pytest.raises(AuthenticationError) as missing:
            await anonymous.runs.list()
    assert missing.value.status_code == 401
    async with AsyncTaumeshClient(api.base_url, api.token) as client:
        with pytest.raises(NotFoundError):
            await client.runs.results("no-such-run")
        with pytest.raises(NotFoundError):
            _ = [event async for event in client.stream_events("no-such-run")]
        with pytest.raises(InvalidRequestError) as invalid:
            await client.validate_tasks(**ORACLE, temperature=2.5)
    assert invalid.value.details["errors"][0]["loc"] == ["body", "temperature"]
