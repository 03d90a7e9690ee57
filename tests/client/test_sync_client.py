"""TaumeshClient against a real uvicorn on loopback: every method, typed answers, typed errors, SSE."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from taumesh.client import (
    AuthenticationError,
    EpisodeDone,
    InvalidRequestError,
    NotFoundError,
    RunEnded,
    TaumeshClient,
)
from tests.helpers.api import FAKE_PROVIDER_KEY, ApiServer

ORACLE: dict[str, Any] = {"env": "retail", "agent_strategy": "oracle", "user_strategy": "scripted"}


@pytest.fixture
def client(api: ApiServer) -> Iterator[TaumeshClient]:
    with TaumeshClient(api.base_url, api.token) as http:
        yield http


def test_health_check_needs_no_key_and_shows_none(api: ApiServer) -> None:
    with TaumeshClient(api.base_url, api_key="") as anonymous:
        health = anonymous.health_check()
    assert health.status == "healthy" and {"retail", "airline"} <= set(health.supported_environments)
    assert any(p.provider == "openai" and p.configured for p in health.providers)
    assert FAKE_PROVIDER_KEY not in health.model_dump_json()


def test_url_and_key_come_from_the_environment(api: ApiServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAUMESH_API_URL", api.base_url + "/")
    monkeypatch.setenv("TAUMESH_API_KEY", api.token)
    with TaumeshClient() as client:
        assert client.settings.base_url == api.base_url
        assert client.runs.list(limit=1).limit == 1


def test_validate_tasks_answers_the_finished_run(client: TaumeshClient) -> None:
    answer = client.validate_tasks(**ORACLE, task_ids=[0, 1], num_trials=2)
    assert answer.status == "completed" and answer.error is None
    assert sorted((r.task_id, r.trial) for r in answer.results) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert all(r.success and r.reward == 1.0 for r in answer.results)
    assert answer.metrics is not None and answer.metrics.pass_hat_k == {"1": 1.0, "2": 1.0}
    assert answer.config_used["task_ids"] == [0, 1] and answer.execution_time_seconds > 0


def test_x_api_key_header_authenticates(api: ApiServer) -> None:
    with TaumeshClient(api.base_url, api.token, auth_header="x-api-key") as client:
        assert "X-API-Key" in client.settings.headers()
        assert client.runs.list(limit=5).total >= 0


def test_queued_run_streams_typed_events_then_serves_results(client: TaumeshClient) -> None:
    accepted = client.runs.create(**ORACLE, start_index=10, end_index=14)
    assert accepted.status == "queued" and accepted.links["events"].endswith(f"/{accepted.run_id}/events")

    events = list(client.stream_events(accepted.run_id))
    progress = [e for e in events if isinstance(e, EpisodeDone)]
    assert [e.done for e in progress] == [1, 2, 3, 4] and {e.total for e in progress} == {4}
    assert progress[-1].pass_rate == 1.0 and all(e.cost_usd == 0.0 for e in progress)
    end = events[-1]
    assert isinstance(end, RunEnded) and end.event == "run_completed"
    assert end.metrics is not None and end.metrics.successful_tasks == 4
    assert [e.id for e in events] == sorted(e.id for e in events)

    later = list(client.stream_events(accepted.run_id, last_event_id=events[1].id))
    assert [e.id for e in later] == [e.id for e in events[2:]]

    run = client.runs.get(accepted.run_id)
    assert run.finished and run.status == "completed" and run.done_episodes == run.total_episodes == 4
    assert sorted(int(r.task_id) for r in client.runs.results(accepted.run_id)) == [10, 11, 12, 13]
    assert [r.task_id for r in client.runs.results(accepted.run_id, limit=1, offset=1)] == [
        client.runs.results(accepted.run_id)[1].task_id
    ]
    trajectories = client.runs.trajectories(accepted.run_id, limit=2)
    assert len(trajectories) == 2 and trajectories[0].messages[0]["role"] == "system"
    listed = client.runs.list(status="completed", limit=200)
    assert accepted.run_id in [r.id for r in listed.runs] and all(r.status == "completed" for r in listed.runs)


def test_wait_for_run_follows_events_to_the_end(client: TaumeshClient) -> None:
    run_id = client.runs.create(**ORACLE, task_ids=[4, 5]).run_id
    run = client.runs.wait(run_id)
    assert run.status == "completed" and run.metrics is not None and run.metrics.total_tasks == 2


def test_cancel_ends_the_run_and_its_stream(client: TaumeshClient) -> None:
    run_id = client.runs.create(**ORACLE).run_id
    cancelled = client.runs.cancel(run_id)
    assert cancelled.status == "cancelled"
    end = list(client.stream_events(run_id))[-1]
    assert isinstance(end, RunEnded) and end.event == "run_cancelled" and end.status == "cancelled"


def test_list_tasks_pages_and_iter_tasks_walks_them(client: TaumeshClient) -> None:
    first = client.list_tasks("retail", page=1, page_size=50)
    assert first.total == 115 and first.task_split == "test" and first.next_page == 2
    assert first.tasks[0].user_id == "yusuf_rossi_9620" and first.tasks[0].action_count == 5
    last = client.list_tasks("retail", page=3, page_size=50)
    assert len(last.tasks) == 15 and last.next_page is None
    assert [t.task_id for t in client.iter_tasks("retail", page_size=40)] == list(range(115))


def test_errors_are_typed_with_the_api_body(api: ApiServer, client: TaumeshClient) -> None:
    with TaumeshClient(api.base_url, api_key="") as anonymous, pytest.raises(AuthenticationError) as missing:
        anonymous.runs.list()
    assert missing.value.status_code == 401 and missing.value.error_type == "authentication_error"
    assert missing.value.retry_after is None and missing.value.request_id
    with TaumeshClient(api.base_url, "tmk_000000000000.wrong") as wrong, pytest.raises(AuthenticationError):
        wrong.runs.get("anything")

    with pytest.raises(NotFoundError) as unknown:
        client.runs.get("no-such-run")
    assert unknown.value.status_code == 404 and unknown.value.details["resource"] == "run"
    with pytest.raises(NotFoundError):
        list(client.stream_events("no-such-run"))
    with pytest.raises(NotFoundError):
        client.list_tasks("atlantis")

    with pytest.raises(InvalidRequestError) as invalid:
        client.validate_tasks(**ORACLE, num_trials=11)
    assert invalid.value.status_code == 422 and invalid.value.error_type == "validation_error"
    assert invalid.value.details["errors"][0]["loc"] == ["body", "num_trials"]
    with pytest.raises(InvalidRequestError) as refused:
        client.runs.create(**ORACLE, agent_address="evil.example:443")
    assert refused.value.details["errors"][0]["loc"] == ["body", "agent_address"]
