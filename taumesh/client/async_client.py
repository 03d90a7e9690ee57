"""``AsyncTaumeshClient``: the REST API from asyncio code, on httpx (the twin of ``TaumeshClient``)."""

from __future__ import annotations

import asyncio
import builtins
from collections.abc import AsyncIterator
from types import TracebackType
from typing import Any, Self, Unpack

import httpx
from httpx_sse import aconnect_sse
from tenacity import AsyncRetrying

from taumesh.client._core import (
    DEFAULT_TIMEOUT,
    AuthHeader,
    ClientSettings,
    decode,
    raise_for_error,
    reconnect_wait,
)
from taumesh.client.errors import ApiError, TaumeshError
from taumesh.client.events import RunEnded, RunEvent, parse_event
from taumesh.client.models import (
    HealthResponse,
    ListTasksResponse,
    Run,
    RunAccepted,
    RunChecked,
    RunList,
    RunOptions,
    RunStatus,
    TaskInfo,
    TaskResult,
    Trajectory,
    ValidateTasksResponse,
)


class AsyncTaumeshClient:
    """A taumesh API server from asyncio: the methods of ``TaumeshClient``, awaited.

    ``base_url`` and ``api_key`` default to ``TAUMESH_API_URL`` and ``TAUMESH_API_KEY``. The key goes as
    ``Authorization: Bearer`` or, with ``auth_header="x-api-key"``, as ``X-API-Key``. A request answered 429 is
    retried after the server's ``Retry-After``, ``max_retries`` times at most; every other error raises the
    :mod:`taumesh.client.errors` class of its ``error_type``.
    """

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        auth_header: AuthHeader = "bearer",
        timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
        max_retries: int = 3,
        max_retry_wait: float = 60.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.settings = ClientSettings.resolve(base_url, api_key, auth_header, max_retries, max_retry_wait)
        self._http = httpx.AsyncClient(
            base_url=self.settings.base_url, headers=self.settings.headers(), timeout=timeout, transport=transport
        )
        self.runs = AsyncRuns(self)

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """One API call, retried on 429; the typed error of any other error answer."""
        async for attempt in AsyncRetrying(**self.settings.retry_policy()):
            with attempt:
                response = await self._http.request(method, path, **kwargs)
                raise_for_error(response)
        return response

    async def health_check(self) -> HealthResponse:
        """Status, version, domains and which providers have credentials (no key needed)."""
        return decode(await self.request("GET", "/health"), HealthResponse)

    async def validate_tasks(self, **options: Unpack[RunOptions]) -> ValidateTasksResponse:
        """Run a benchmark and wait for its end (``runs.create`` queues one instead)."""
        return decode(
            await self.request("POST", "/api/v1/validate-tasks", json={**options, "wait": True}), ValidateTasksResponse
        )

    async def list_tasks(
        self, env: str = "retail", task_split: str | None = None, page: int = 1, page_size: int = 50
    ) -> ListTasksResponse:
        """One page of a split's tasks (the domain's first split when ``task_split`` is None)."""
        body = {"env": env, "task_split": task_split, "page": page, "page_size": page_size}
        return decode(await self.request("POST", "/api/v1/list-tasks", json=body), ListTasksResponse)

    async def iter_tasks(
        self, env: str = "retail", task_split: str | None = None, page_size: int = 100
    ) -> AsyncIterator[TaskInfo]:
        """Every task of a split, fetching page after page."""
        page: int | None = 1
        while page is not None:
            answer = await self.list_tasks(env, task_split, page, page_size)
            for task in answer.tasks:
                yield task
            page = answer.next_page

    async def stream_events(self, run_id: str, last_event_id: int | None = None) -> AsyncIterator[RunEvent]:
        """The run's events as they happen, from its start (or after ``last_event_id``) to its end.

        A stream that breaks is resumed from the last event received (``Last-Event-ID``), ``max_retries`` times in a
        row at most; a 429 on connecting waits its ``Retry-After`` the same way.
        """
        path = f"/api/v1/runs/{run_id}/events"
        failures = 0
        while True:
            headers = {"Last-Event-ID": str(last_event_id)} if last_event_id else {}
            try:
                async with aconnect_sse(self._http, "GET", path, headers=headers) as source:
                    if source.response.is_error:
                        await source.response.aread()
                        raise_for_error(source.response)
                    async for sse in source.aiter_sse():
                        event = parse_event(sse)
                        last_event_id, failures = event.id, 0
                        yield event
                        if isinstance(event, RunEnded):
                            return
                problem: Exception = TaumeshError(f"the event stream of run {run_id} ended before the run did")
            except (httpx.TransportError, ApiError) as exc:
                if isinstance(exc, ApiError) and not self.settings.should_retry(exc):
                    raise
                problem = exc
            failures += 1
            if failures > self.settings.max_retries:
                raise problem
            wait = getattr(problem, "retry_after", None)
            await asyncio.sleep(wait if wait is not None else reconnect_wait(failures))

    async def wait_for_run(self, run_id: str) -> Run:
        """Follow the run's events to its end, then its final state."""
        async for _event in self.stream_events(run_id):
            pass
        return await self.runs.get(run_id)


class AsyncRuns:
    """``/api/v1/runs``: queue, list, get, cancel, and read results and trajectories."""

    def __init__(self, client: AsyncTaumeshClient) -> None:
        self._client = client

    async def check(self, **options: Unpack[RunOptions]) -> RunChecked:
        """Check a run request as ``create`` would, running nothing (422 or 404 naming what is wrong)."""
        response = await self._client.request("POST", "/api/v1/validate-tasks/check", json=options)
        return decode(response, RunChecked)

    async def create(self, **options: Unpack[RunOptions]) -> RunAccepted:
        """Queue a run (``wait: false``): 202 with its id and links."""
        response = await self._client.request("POST", "/api/v1/validate-tasks", json={**options, "wait": False})
        return decode(response, RunAccepted)

    async def list(self, limit: int = 50, offset: int = 0, status: RunStatus | None = None) -> RunList:
        """A page of runs, newest first, optionally of one status."""
        params: dict[str, str | int] = {"limit": limit, "offset": offset}
        if status is not None:
            params["status"] = status
        return decode(await self._client.request("GET", "/api/v1/runs", params=params), RunList)

    async def get(self, run_id: str) -> Run:
        """A run's state."""
        return decode(await self._client.request("GET", f"/api/v1/runs/{run_id}"), Run)

    async def cancel(self, run_id: str) -> Run:
        """Cancel an unfinished run (a finished one is unchanged)."""
        return decode(await self._client.request("POST", f"/api/v1/runs/{run_id}/cancel"), Run)

    async def results(self, run_id: str, limit: int = 1000, offset: int = 0) -> builtins.list[TaskResult]:
        """The episode results stored so far."""
        response = await self._client.request(
            "GET", f"/api/v1/runs/{run_id}/results", params={"limit": limit, "offset": offset}
        )
        return decode(response, builtins.list[TaskResult])

    async def trajectories(self, run_id: str, limit: int = 100, offset: int = 0) -> builtins.list[Trajectory]:
        """Each episode's messages in OpenAI chat form."""
        response = await self._client.request(
            "GET", f"/api/v1/runs/{run_id}/trajectories", params={"limit": limit, "offset": offset}
        )
        return decode(response, builtins.list[Trajectory])

    async def wait(self, run_id: str) -> Run:
        """Follow the run to its end (``AsyncTaumeshClient.wait_for_run``)."""
        return await self._client.wait_for_run(run_id)
