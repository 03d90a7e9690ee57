"""``taumesh.rollout`` through the real path: embedded gRPC services, the oracle agent, the scripted user.

One group of 8 trials × 20 hospitality tasks is played once for the module and read by most tests; the
reproduction checks play smaller groups.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import load_domain
from taumesh.orchestrator.domain_info import ConfigError
from taumesh.orchestrator.results.records import EpisodeError, RunResult
from taumesh.rollout import RolloutEpisode, agroup_rollouts, group_rollouts, seed_for, stream_rollouts

ENV, SPLIT, TRIALS = "hospitality", "base", 8
ORACLE: dict[str, Any] = {"env": ENV, "task_split": SPLIT, "agent_strategy": "oracle", "user_strategy": "scripted"}


def task_ids(count: int) -> list[str]:
    """``count`` tasks of the split, spread over it (every fourth), so several intents are played."""
    tasks = load_domain(ENV, Path()).tasks(SPLIT)
    return [task.id for task in tasks[::4][:count]]


@pytest.fixture(scope="module")
def group() -> list[RolloutEpisode]:
    return group_rollouts(**ORACLE, task_ids=task_ids(20), trials=TRIALS, seed=11, max_concurrency=16)


def test_a_group_of_8_trials_of_20_tasks_returns_160_scored_episodes(group: list[RolloutEpisode]) -> None:
    assert len(group) == 160
    assert {(e.task_id, e.trial) for e in group} == {(t, n) for t in task_ids(20) for n in range(TRIALS)}
    assert [e.task_id for e in group[:TRIALS]] == [task_ids(1)[0]] * TRIALS  # grouped by task, trial by trial
    assert all(e.error is None and e.reward == 1.0 for e in group)  # the oracle solves every task


def test_each_episode_carries_its_trajectory_and_reward_vector(group: list[RolloutEpisode]) -> None:
    for episode in group:
        assert episode.trajectory[0]["role"] in ("system", "user", "assistant")
        assert episode.reward_vector, episode.task_id
        assert {check.basis for check in episode.reward_vector} <= set(episode.reward_basis)
        assert all(check.passed and check.credit == 1.0 for check in episode.reward_vector)
    assert any(check.basis == "DB" for check in group[0].reward_vector)


def test_each_episode_is_seeded_by_sha256_of_run_task_and_trial(group: list[RolloutEpisode]) -> None:
    for episode in group:
        assert episode.seed == seed_for(11, episode.task_id, episode.trial)
        assert episode.info["episode_seeds"] == "sha256"
    assert len({e.seed for e in group}) == 160  # distinct within each group and across tasks


def test_seed_for_is_the_declared_hash() -> None:
    digest = hashlib.sha256(b"0:task_001:7").digest()
    assert seed_for(0, "task_001", 7) == int.from_bytes(digest[:8], "big") % 2**31 == 1366386095
    assert seed_for(11, "t", 0) != seed_for(11, "t", 1) != seed_for(12, "t", 1)
    assert 0 <= seed_for(2**40, "x" * 500, 10**6) < 2**31


async def test_the_same_seed_replays_the_same_group_and_another_changes_the_seeds(tmp_path: Path) -> None:
    small = {**ORACLE, "task_ids": task_ids(5), "trials": 2}
    first = await agroup_rollouts(**small, seed=3)
    again = await agroup_rollouts(**small, seed=3)
    other = await agroup_rollouts(**small, seed=4, log_dir=tmp_path)
    assert len(first) == 10
    assert [(e.task_id, e.trial, e.seed, e.trajectory, e.reward) for e in first] == [
        (e.task_id, e.trial, e.seed, e.trajectory, e.reward) for e in again
    ]
    assert all(a.seed != b.seed for a, b in zip(first, other, strict=True))
    assert [e.trajectory for e in first] == [e.trajectory for e in other]  # oracle and scripted user draw nothing
    assert len(list(tmp_path.glob("*.json"))) == 1  # log_dir keeps the run's results file


async def test_streaming_yields_every_episode_as_it_ends(group: list[RolloutEpisode]) -> None:
    streamed = [e async for e in stream_rollouts(**ORACLE, task_ids=task_ids(20), trials=TRIALS, seed=11)]
    assert len(streamed) == 160
    assert sorted((e.task_id, e.trial, e.seed) for e in streamed) == sorted((e.task_id, e.trial, e.seed) for e in group)


async def test_a_stream_left_early_stops_the_run_with_back_pressure(tmp_path: Path) -> None:
    taken = 0
    stream = stream_rollouts(
        **ORACLE, task_ids=task_ids(20), trials=TRIALS, seed=11, max_concurrency=2, buffer=2, log_dir=tmp_path
    )
    async with contextlib.aclosing(stream):
        async for _ in stream:
            taken += 1
            if taken == 3:
                break
    (results,) = tmp_path.glob("*.json")
    played = json.loads(results.read_text())
    assert 3 <= len(played) <= 3 + 2 + 2  # taken + waiting in the buffer + holding a slot: the run stopped there


def test_worker_runs_are_refused() -> None:
    with pytest.raises(ValueError, match="workers"):
        group_rollouts(**ORACLE, task_ids=task_ids(1), workers=2)


async def test_blocking_form_inside_an_event_loop_names_the_awaitable() -> None:
    with pytest.raises(RuntimeError, match="agroup_rollouts"):
        group_rollouts(**ORACLE, task_ids=task_ids(1))


async def test_a_task_the_split_lacks_fails_the_stream_before_any_episode() -> None:
    with pytest.raises(ConfigError, match="no-such-task"):
        async for _ in stream_rollouts(**ORACLE, task_ids=["no-such-task"]):
            pytest.fail("no episode can be played")


async def test_what_would_fail_every_episode_is_refused_before_any_plays() -> None:
    """The run's pre-flight, as ``taumesh run``'s: a model-calling agent without a model.

    The user is scripted, so the agent's missing model is the only problem (the default model-played user would
    add a credentials check that imports litellm: 3 s of CPU for nothing this test shows)."""
    with pytest.raises(ConfigError, match="tool-calling needs --model"):
        await agroup_rollouts(
            env=ENV, task_split="base", trials=1, agent_strategy="tool-calling", model="", user_strategy="scripted"
        )


def test_an_infrastructure_error_is_reported_never_a_zero_reward() -> None:
    failed = RunResult.from_error("t", 2, EpisodeError(cause="UNAVAILABLE: env down", attempts=3))
    failed.info["seed"] = 5
    episode = RolloutEpisode.from_result(failed)
    assert episode.error is not None and episode.error.kind == "infrastructure" and episode.error.attempts == 3
    assert episode.reward is None and episode.reward_vector == [] and episode.is_error
