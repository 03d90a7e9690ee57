"""Group rollouts over REST: ``POST /api/v1/rollouts`` on a real API server (a thread, loopback), through the SDK."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from taumesh.client import InvalidRequestError, NotFoundError, RolloutEpisode, TaumeshClient
from taumesh.domains import load_domain
from taumesh.rollout import seed_for
from tests.helpers.api import FAKE_PROVIDER_KEY
from tests.helpers.api_thread import ThreadApi, start_thread_server

ENV, SPLIT = "hospitality", "base"
ORACLE: dict[str, Any] = {"task_split": SPLIT, "agent_strategy": "oracle", "user_strategy": "scripted"}


def task_ids(count: int) -> list[str]:
    return [task.id for task in load_domain(ENV, Path()).tasks(SPLIT)[::4][:count]]


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadApi]:
    root = tmp_path_factory.mktemp("api")
    server = start_thread_server(f"sqlite:///{root / 'api.db'}", root, root, OPENAI_API_KEY=FAKE_PROVIDER_KEY)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def client(api: ThreadApi) -> Iterator[TaumeshClient]:
    with TaumeshClient(api.base_url, api_key=api.token) as client:
        yield client


def test_a_group_streams_its_episodes_with_reward_vectors(client: TaumeshClient) -> None:
    episodes = list(client.group_rollouts(ENV, task_ids(2), trials=2, seed=7, **ORACLE))
    assert sorted((e.task_id, e.trial) for e in episodes) == [(t, n) for t in sorted(task_ids(2)) for n in range(2)]
    for episode in episodes:
        assert episode.reward == 1.0 and episode.error is None
        assert episode.reward_vector and all(check.passed for check in episode.reward_vector)
        assert episode.seed == seed_for(7, episode.task_id, episode.trial)
        assert episode.trajectory


def test_the_answer_is_ndjson_one_episode_a_line_and_needs_a_key(api: ThreadApi) -> None:
    body = {"env": ENV, "task_ids": task_ids(1), "trials": 1, "seed": 7, **ORACLE}
    answer = httpx.post(f"{api.base_url}/api/v1/rollouts", json=body, headers=api.headers, timeout=60)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("application/x-ndjson")
    (line,) = answer.text.splitlines()
    assert RolloutEpisode.model_validate_json(line).task_id == task_ids(1)[0]
    assert httpx.post(f"{api.base_url}/api/v1/rollouts", json=body, timeout=60).status_code == 401


@pytest.mark.parametrize(
    ("fields", "error", "said"),
    [
        ({"task_ids": ["no-such-task"]}, InvalidRequestError, "no-such-task"),
        ({"env": "no-such-domain"}, NotFoundError, "no-such-domain"),
        ({"trials": 0}, InvalidRequestError, "trials"),
        ({"user_strategy": "human"}, InvalidRequestError, "human"),
    ],
)
def test_a_bad_request_is_refused_before_any_episode(
    client: TaumeshClient, fields: dict[str, Any], error: type[Exception], said: str
) -> None:
    request: dict[str, Any] = {"env": ENV, "task_ids": task_ids(1), "trials": 1, **ORACLE, **fields}
    with pytest.raises(error) as raised:
        next(client.group_rollouts(**request))
    assert said in f"{raised.value} {raised.value.details}"  # type: ignore[attr-defined]


def test_the_openapi_document_describes_the_route_and_the_client_reads_its_episodes(api: ThreadApi) -> None:
    document = httpx.get(f"{api.base_url}/openapi.json").json()
    route = document["paths"]["/api/v1/rollouts"]["post"]
    assert "application/x-ndjson" in route["responses"]["200"]["content"]
    schemas = document["components"]["schemas"]
    assert set(RolloutEpisode.model_fields) == set(schemas["RolloutEpisode"]["properties"])
    assert set(schemas["RolloutsRequest"]["properties"]) >= {"env", "task_ids", "trials", "seed", "agent_strategy"}
    assert not {"data_dir", "api_base", "user_api_base"} & set(schemas["RolloutsRequest"]["properties"])
