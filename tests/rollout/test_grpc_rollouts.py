"""Group rollouts over real gRPC: ``RolloutService`` on loopback, the four services embedded, oracle and scripted user.

The must-show of issue 48 item 2: 8 trials × 20 tasks stream back 160 episodes with reward vectors, and the same
seed replays the same trajectories. Bad requests end with INVALID_ARGUMENT or NOT_FOUND before any episode plays.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from taumesh.domains import load_domain
from taumesh.rollout import RolloutEpisode, seed_for
from taumesh.rollout.server import RolloutOperator, episode_from_message, rollout_service
from taumesh.rollout.server.servicer import SERVICE_NAME, operator_services
from taumesh.rollout.v1 import rollout_pb2, rollout_pb2_grpc
from taumesh.rpc.server import start_server
from tests.helpers.grpc_services import LoopThread

ENV, SPLIT, TRIALS, SEED = "hospitality", "base", 8, 7
ORACLE: dict[str, Any] = {"env": ENV, "task_split": SPLIT, "agent_strategy": "oracle", "user_strategy": "scripted"}
TIMEOUT = 120.0


def task_ids(count: int) -> list[str]:
    """``count`` tasks of the split, spread over it (every fourth)."""
    return [task.id for task in load_domain(ENV, Path()).tasks(SPLIT)[::4][:count]]


@pytest.fixture(scope="module")
def log_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the server keeps each call's results file."""
    return tmp_path_factory.mktemp("results")


@pytest.fixture(scope="module")
def address(tmp_path_factory: pytest.TempPathFactory, log_dir: Path) -> Iterator[str]:
    """A RolloutService on loopback over services embedded once for the module (the operator's data folder)."""
    loop = LoopThread()
    stack = contextlib.AsyncExitStack()

    async def start() -> str:
        # the built-in domains ship their data; each call's results file is kept in log_dir
        operator = RolloutOperator(data_dir=tmp_path_factory.mktemp("data"), log_dir=log_dir)
        ready, clients = await stack.enter_async_context(operator_services(operator))
        running = await start_server([rollout_service(ready, clients)])
        stack.push_async_callback(running.stop, 1.0)
        return running.address

    try:
        yield loop.run(start())
    finally:
        loop.run(stack.aclose())
        loop.close()


@pytest.fixture(scope="module")
def stub(address: str) -> Iterator[rollout_pb2_grpc.RolloutServiceStub]:
    with grpc.insecure_channel(address) as channel:
        yield rollout_pb2_grpc.RolloutServiceStub(channel)


def play(stub: rollout_pb2_grpc.RolloutServiceStub, **request: Any) -> list[RolloutEpisode]:
    stream = stub.GroupRollouts(rollout_pb2.GroupRolloutsRequest(**request), timeout=TIMEOUT)
    return [episode_from_message(message) for message in stream]


@pytest.fixture(scope="module")
def group(stub: rollout_pb2_grpc.RolloutServiceStub) -> list[RolloutEpisode]:
    return play(stub, **ORACLE, task_ids=task_ids(20), trials=TRIALS, seed=SEED, max_concurrency=16)


def test_a_group_of_8_trials_of_20_tasks_streams_160_episodes_with_reward_vectors(group: list[RolloutEpisode]) -> None:
    assert len(group) == 160
    assert {(e.task_id, e.trial) for e in group} == {(t, n) for t in task_ids(20) for n in range(TRIALS)}
    for episode in group:
        assert episode.error is None and episode.reward == 1.0  # the oracle solves every task
        assert episode.reward_vector and all(check.passed and check.credit == 1.0 for check in episode.reward_vector)
        assert episode.seed == seed_for(SEED, episode.task_id, episode.trial)
        assert episode.trajectory[0]["role"] and episode.info["episode_seeds"] == "sha256"


def test_the_same_seed_replays_the_same_trajectories(
    stub: rollout_pb2_grpc.RolloutServiceStub, group: list[RolloutEpisode]
) -> None:
    # an episode's seed depends on its task and trial alone, so a smaller second call replays part of the group
    again = play(stub, **ORACLE, task_ids=task_ids(20)[::5], trials=TRIALS, seed=SEED)
    first = {(e.task_id, e.trial): (e.seed, e.trajectory, e.reward) for e in group}
    assert len(again) == 4 * TRIALS
    for episode in again:
        assert first[episode.task_id, episode.trial] == (episode.seed, episode.trajectory, episode.reward)


@pytest.mark.parametrize(
    ("request_fields", "code", "said"),
    [
        ({"task_ids": ["no-such-task"]}, grpc.StatusCode.INVALID_ARGUMENT, "no-such-task"),
        ({"env": "no-such-domain"}, grpc.StatusCode.NOT_FOUND, "no-such-domain"),
        ({"task_split": "no-such-split"}, grpc.StatusCode.NOT_FOUND, "no-such-split"),
        ({"trials": 0}, grpc.StatusCode.INVALID_ARGUMENT, "trials"),
        ({"agent_strategy": "no-such-agent"}, grpc.StatusCode.INVALID_ARGUMENT, "no-such-agent"),
        ({"user_strategy": "human"}, grpc.StatusCode.INVALID_ARGUMENT, "human"),
        ({"max_concurrency": 10_000}, grpc.StatusCode.INVALID_ARGUMENT, "max_concurrency"),
    ],
)
def test_a_bad_request_is_refused_before_any_episode(
    stub: rollout_pb2_grpc.RolloutServiceStub, request_fields: dict[str, Any], code: grpc.StatusCode, said: str
) -> None:
    request = {**ORACLE, "task_ids": task_ids(1), "trials": 1, **request_fields}
    stream = stub.GroupRollouts(rollout_pb2.GroupRolloutsRequest(**request), timeout=TIMEOUT)
    with pytest.raises(grpc.RpcError) as raised:
        next(iter(stream))  # the first message would be an episode
    assert raised.value.code() == code
    assert said in str(raised.value.details())


def test_a_cancelled_call_stops_the_run(stub: rollout_pb2_grpc.RolloutServiceStub, log_dir: Path) -> None:
    before = set(log_dir.glob("*.json"))
    stream = stub.GroupRollouts(
        rollout_pb2.GroupRolloutsRequest(**ORACLE, task_ids=task_ids(20), trials=TRIALS, seed=1, max_concurrency=2),
        timeout=TIMEOUT,
    )
    first = episode_from_message(next(iter(stream)))
    stream.cancel()
    assert first.reward == 1.0
    with pytest.raises(grpc.RpcError) as raised:
        list(stream)
    assert raised.value.code() == grpc.StatusCode.CANCELLED
    deadline = time.monotonic() + 30
    played: list[Any] = []
    while not played and time.monotonic() < deadline:  # the cancelled run writes its last results as it stops
        time.sleep(0.1)
        written = set(log_dir.glob("*.json")) - before
        if written:
            (results,) = written
            with contextlib.suppress(ValueError):  # caught mid-write: read it again
                played = json.loads(results.read_text())
    # taken, in gRPC's buffers, in the stream's buffer (2), holding a slot (2): far from the 160 asked for
    assert 1 <= len(played) <= 40


def test_the_server_answers_health_checks(address: str) -> None:
    with grpc.insecure_channel(address) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        answer = health.Check(health_pb2.HealthCheckRequest(service=SERVICE_NAME), timeout=10)
    assert answer.status == health_pb2.HealthCheckResponse.SERVING


def test_an_episode_crosses_the_wire_whole(group: list[RolloutEpisode]) -> None:
    from taumesh.gateway.records import ModelCallTrace
    from taumesh.rollout.server import episode_message

    trace = ModelCallTrace(
        rollout_id="r-1",
        index=0,
        model="hosted_vllm/policy",
        request={"messages": [{"role": "user", "content": "hi"}]},
        response={"choices": []},
        prompt_token_ids=[1, 2],
        completion_token_ids=[3],
        completion_logprobs=[-0.5],
        loss_mask=[0, 0, 1],
        weight_version="w7",
        latency_s=0.25,
    )
    episode = group[0].model_copy(update={"rollout_id": "r-1", "traces": [trace]})
    assert episode_from_message(episode_message(episode)) == episode
    assert json.loads(episode_message(episode).trajectory_json) == episode.trajectory
