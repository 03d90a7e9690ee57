"""Issue 48's recovery: an env replica killed mid-group loses no rollout and duplicates none.

A group (4 hospitality tasks × 8 trials, the oracle agent and the scripted user) plays against two env replicas,
each its own ``taumesh serve env`` process behind one target (gRPC's list form, as a DNS name with two pods). Once
the replica to kill has served the first episodes' calls, it gets SIGKILL: the episodes holding sessions there
must come back whole, each once, scored as an unkilled run scores them, with their recovery on record (a session
rebuilt on the other replica by replaying its tool calls, or the episode replayed whole).

Replies of the user wait a little (a user-sim in this process, on loopback) so that episodes are mid-conversation,
holding sessions, when the kill lands; the unkilled run needs no such wait.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_channelz.v1 import channelz_pb2, channelz_pb2_grpc

from taumesh.domains import load_domain
from taumesh.rollout import RolloutEpisode, agroup_rollouts, group_rollouts, stream_rollouts
from taumesh.rpc.server import start_server
from taumesh.services.user_sim import user_sim_service
from tests.helpers.cli import taumesh_executable
from tests.helpers.processes import SERVING, Server

pytestmark = pytest.mark.kill

ENV, SPLIT, TASKS, TRIALS, SEED = "hospitality", "base", 4, 8, 5
GROUP: dict[str, Any] = {
    "env": ENV,
    "task_split": SPLIT,
    "agent_strategy": "oracle",
    "user_strategy": "scripted",
    "trials": TRIALS,
    "seed": SEED,
    "max_concurrency": 8,
}
USER_REPLY_MS = 150
"""What each reply of the user waits: an episode of a few turns then lasts about half a second, so the 8 in flight
are mid-conversation, holding their sessions, when the kill lands."""
CALLS_BEFORE_KILL = 12
"""Calls the doomed replica serves before it is killed: the first episodes have opened their sessions there."""

Key = tuple[str, int]


def task_ids() -> list[str]:
    """``TASKS`` tasks spread over the split (every fifth), so several intents are played."""
    return [task.id for task in load_domain(ENV, Path()).tasks(SPLIT)[::5][:TASKS]]


def by_key(episodes: list[RolloutEpisode]) -> dict[Key, RolloutEpisode]:
    keyed = {(e.task_id, e.trial): e for e in episodes}
    assert len(keyed) == len(episodes), "an episode came back twice"
    return keyed


@pytest.fixture(scope="module")
def unkilled() -> dict[Key, RolloutEpisode]:
    """The group played with every service in this process, nothing killed: what the killed runs must equal."""
    return by_key(group_rollouts(**GROUP, task_ids=task_ids()))


@pytest.fixture(scope="module")
def env_replicas(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Server]]:
    """Three env processes, started together: each test kills one and keeps another as the survivor."""
    folder = tmp_path_factory.mktemp("env-replicas")
    argv = [taumesh_executable(), "serve", "env", "--host", "127.0.0.1", "--port", "0"]
    started = [Server.spawn(argv, folder / f"env-{i}.err") for i in range(3)]
    try:
        for server in started:
            server.wait_ready(SERVING)
        yield started
    finally:
        for server in started:
            server.kill()


@pytest.fixture
async def slow_user() -> AsyncIterator[str]:
    """A user-sim in this process whose replies wait ``USER_REPLY_MS``; its address."""
    running = await start_server([user_sim_service(reply_latency_ms=USER_REPLY_MS)])
    try:
        yield running.address
    finally:
        await running.stop(grace=1.0)


async def served_calls(channel: grpc.aio.Channel) -> int:
    """Calls the server at the other end of ``channel`` has started, by channelz (these queries included)."""
    answer = await channelz_pb2_grpc.ChannelzStub(channel).GetServers(channelz_pb2.GetServersRequest(), timeout=10)
    return sum(server.data.calls_started for server in answer.server)


async def kill_when_under_way(replica: Server) -> None:
    """SIGKILL ``replica`` once it has served ``CALLS_BEFORE_KILL`` calls, not counting these polls."""
    polls = 0
    async with grpc.aio.insecure_channel(replica.address) as channel:
        while True:
            polls += 1
            if await served_calls(channel) - polls >= CALLS_BEFORE_KILL:
                break
            await asyncio.sleep(0.01)
    replica.proc.kill()  # SIGKILL: its sessions are gone with it, nothing drained


def target(*replicas: Server) -> str:
    """The replicas as one gRPC target, as a DNS name resolving to several pods is."""
    return "ipv4:" + ",".join(replica.address for replica in replicas)


async def killing_one_of_two(
    replicas: list[Server], play: Callable[[str, asyncio.Task[None]], Awaitable[list[RolloutEpisode]]]
) -> list[RolloutEpisode]:
    """``play(env_target, killing)``'s episodes, ``replicas[0]`` killed while they play (``replicas[1]`` survives)."""
    doomed, survivor = replicas
    killing = asyncio.create_task(kill_when_under_way(doomed))
    try:
        episodes = await play(target(doomed, survivor), killing)
        assert killing.done(), "the group ended before the replica was killed: nothing was tested"
        killing.result()
    finally:
        killing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await killing
    assert doomed.proc.poll() is not None and survivor.proc.poll() is None
    return episodes


def recovered(episode: RolloutEpisode) -> bool:
    """Whether the episode was recovered: its env session rebuilt on another replica, or itself replayed whole."""
    return bool(episode.info.get("env_session_rebuilds", 0) or episode.info.get("attempts", 1) > 1)


def check_nothing_lost(killed: list[RolloutEpisode], unkilled: dict[Key, RolloutEpisode]) -> None:
    """Every (task, trial) once, none an error, each played and scored as the unkilled run's; some recovered."""
    keyed = by_key(killed)  # no duplicates
    assert set(keyed) == set(unkilled)  # none lost
    assert [key for key, episode in keyed.items() if episode.error is not None] == []
    for key, episode in keyed.items():
        again = unkilled[key]
        assert (episode.reward, episode.seed, episode.trajectory) == (again.reward, again.seed, again.trajectory), key
        assert episode.reward_vector == again.reward_vector, key
    # the episodes that held sessions on the dead replica: re-played on the survivor (none could end otherwise)
    assert any(recovered(e) for e in killed), "no episode held a session on the killed replica: nothing was tested"
    assert not any(recovered(e) for e in unkilled.values())


async def test_a_replica_killed_mid_group_loses_and_duplicates_no_rollout(
    unkilled: dict[Key, RolloutEpisode], env_replicas: list[Server], slow_user: str
) -> None:
    async def play(env_addr: str, killing: asyncio.Task[None]) -> list[RolloutEpisode]:
        return await agroup_rollouts(**GROUP, task_ids=task_ids(), env_addr=env_addr, user_addr=slow_user)

    episodes = await killing_one_of_two(env_replicas[:2], play)
    check_nothing_lost(episodes, unkilled)


async def test_a_stream_hands_each_rollout_over_once_across_a_killed_replica(
    unkilled: dict[Key, RolloutEpisode], env_replicas: list[Server], slow_user: str
) -> None:
    after_kill = 0

    async def play(env_addr: str, killing: asyncio.Task[None]) -> list[RolloutEpisode]:
        nonlocal after_kill
        handed: list[RolloutEpisode] = []
        async for episode in stream_rollouts(**GROUP, task_ids=task_ids(), env_addr=env_addr, user_addr=slow_user):
            handed.append(episode)  # as the caller sees them: a duplicate hand-over would show here
            after_kill += killing.done()
        return handed

    episodes = await killing_one_of_two([env_replicas[2], env_replicas[1]], play)
    assert after_kill > 0, "every episode was handed over before the kill"
    check_nothing_lost(episodes, unkilled)
