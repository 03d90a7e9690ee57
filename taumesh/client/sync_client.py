"""``TaumeshClient``: the REST API from synchronous code, on httpx."""

from __future__ import annotations

import builtins
import time
from collections.abc import Iterator
from types import TracebackType
from typing import Any, Self, Unpack

import httpx
from httpx_sse import connect_sse
from tenacity import Retrying

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
    RolloutEpisode,
    RolloutOptions,
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


class TaumeshClient:
    """A taumesh API: ``health_check``, ``validate_tasks``, ``list_tasks``, ``runs``, ``stream_events``, rollouts.

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
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.settings = ClientSettings.resolve(base_url, api_key, auth_header, max_retries, max_retry_wait)
        self._http = httpx.Client(
            base_url=self.settings.base_url, headers=self.settings.headers(), timeout=timeout, transport=transport
        )
        self.runs = Runs(self)

    def close(self) -> None:
        """Close the connection pool."""
        self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """One API call, retried on 429; the typed error of any other error answer."""
        for attempt in Retrying(**self.settings.retry_policy()):
            with attempt:
                response = self._http.request(method, path, **kwargs)
                raise_for_error(response)
        return response

    def health_check(self) -> HealthResponse:
        """Status, version, domains and which providers have credentials (no key needed)."""
        return decode(self.request("GET", "/health"), HealthResponse)

    def validate_tasks(self, **options: Unpack[RunOptions]) -> ValidateTasksResponse:
        """Run a benchmark and wait for its end (``runs.create`` queues one instead)."""
        return decode(
            self.request("POST", "/api/v1/validate-tasks", json={**options, "wait": True}), ValidateTasksResponse
        )

    def list_tasks(
        self, env: str = "retail", task_split: str | None = None, page: int = 1, page_size: int = 50
    ) -> ListTasksResponse:
        """One page of a split's tasks (the domain's first split when ``task_split`` is None)."""
        body = {"env": env, "task_split": task_split, "page": page, "page_size": page_size}
        return decode(self.request("POST", "/api/v1/list-tasks", json=body), ListTasksResponse)

    def iter_tasks(
        self, env: str = "retail", task_split: str | None = None, page_size: int = 100
    ) -> Iterator[TaskInfo]:
        """Every task of a split, fetching page after page."""
        page: int | None = 1
        while page is not None:
            answer = self.list_tasks(env, task_split, page, page_size)
            yield from answer.tasks
            page = answer.next_page

    def stream_events(self, run_id: str, last_event_id: int | None = None) -> Iterator[RunEvent]:
        """The run's events as they happen, from its start (or after ``last_event_id``) to its end.

        A stream that breaks is resumed from the last event received (``Last-Event-ID``), ``max_retries`` times in a
        row at most; a 429 on connecting waits its ``Retry-After`` the same way.
        """
        path = f"/api/v1/runs/{run_id}/events"
        failures = 0
        while True:
            headers = {"Last-Event-ID": str(last_event_id)} if last_event_id else {}
            try:
                with connect_sse(self._http, "GET", path, headers=headers) as source:
                    if source.response.is_error:
                        source.response.read()
                        raise_for_error(source.response)
                    for sse in source.iter_sse():
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
            time.sleep(wait if wait is not None else reconnect_wait(failures))

    def group_rollouts(
        self, env: str, task_ids: builtins.list[str], trials: int = 1, **options: Unpack[RolloutOptions]
    ) -> Iterator[RolloutEpisode]:
        """Play ``trials`` rollouts of each task and yield each episode as it ends (``POST /api/v1/rollouts``).

        The server checks the whole request first (a refused one raises before any episode plays) and plays no
        faster than this iterator is read; closing it early cancels the rest of the group. Not retried: a group
        started twice would play twice.
        """
        body = {**options, "env": env, "task_ids": task_ids, "trials": trials}
        timeout = httpx.Timeout(self._http.timeout.connect, read=None)  # an episode may take minutes to end
        with self._http.stream("POST", "/api/v1/rollouts", json=body, timeout=timeout) as response:
            if response.is_error:
                response.read()
                raise_for_error(response)
            for line in response.iter_lines():
                if line.strip():
                    yield RolloutEpisode.model_validate_json(line)

    def wait_for_run(self, run_id: str) -> Run:
        """Follow the run's events to its end, then its final state."""
        for _event in self.stream_events(run_id):
            pass
        return self.runs.get(run_id)


class Runs:
    """``/api/v1/runs``: queue, list, get, cancel, and read results and trajectories."""

    def __init__(self, client: TaumeshClient) -> None:
        self._client = client

    def check(self, **options: Unpack[RunOptions]) -> RunChecked:
        """Check a run request as ``create`` would, running nothing (422 or 404 naming what is wrong)."""
        response = self._client.request("POST", "/api/v1/validate-tasks/check", json=options)
        return decode(response, RunChecked)

    def create(self, **options: Unpack[RunOptions]) -> RunAccepted:
        """Queue a run (``wait: false``): 202 with its id and links."""
        response = self._client.request("POST", "/api/v1/validate-tasks", json={**options, "wait": False})
        return decode(response, RunAccepted)

    def list(self, limit: int = 50, offset: int = 0, status: RunStatus | None = None) -> RunList:
        """A page of runs, newest first, optionally of one status."""
        params: dict[str, str | int] = {"limit": limit, "offset": offset}
        if status is not None:
            params["status"] = status
        return decode(self._client.request("GET", "/api/v1/runs", params=params), RunList)

    def get(self, run_id: str) -> Run:
        """A run's state."""
        return decode(self._client.request("GET", f"/api/v1/runs/{run_id}"), Run)

    def cancel(self, run_id: str) -> Run:
        """Cancel an unfinished run (a finished one is unchanged)."""
        return decode(self._client.request("POST", f"/api/v1/runs/{run_id}/cancel"), Run)

    def results(self, run_id: str, limit: int = 1000, offset: int = 0) -> builtins.list[TaskResult]:
        """The episode results stored so far."""
        response = self._client.request(
            "GET", f"/api/v1/runs/{run_id}/results", params={"limit": limit, "offset": offset}
        )
        return decode(response, builtins.list[TaskResult])

    def trajectories(self, run_id: str, limit: int = 100, offset: int = 0) -> builtins.list[Trajectory]:
        """Each episode's messages in OpenAI chat form."""
        response = self._client.request(
            "GET", f"/api/v1/runs/{run_id}/trajectories", params={"limit": limit, "offset": offset}
        )
        return decode(response, builtins.list[Trajectory])

    def wait(self, run_id: str) -> Run:
        """Follow the run to its end (``TaumeshClient.wait_for_run``)."""
        return self._client.wait_for_run(run_id)
