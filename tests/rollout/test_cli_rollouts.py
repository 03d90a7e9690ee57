"""``taumesh rollout`` (episodes to a JSON Lines file) and ``taumesh serve rollout`` (the gRPC server, a process)."""

from __future__ import annotations

import re
import signal
from pathlib import Path

import grpc
import pytest

from taumesh.domains import load_domain
from taumesh.rollout import RolloutEpisode, seed_for
from taumesh.rollout.server import episode_from_message
from taumesh.rollout.v1 import rollout_pb2, rollout_pb2_grpc
from tests.helpers.cli import explain_result, finish, invoke, start_taumesh

ENV, SPLIT = "hospitality", "base"
ORACLE = ("--agent-strategy", "oracle", "--user-strategy", "scripted")


def task_ids(count: int) -> list[str]:
    return [task.id for task in load_domain(ENV, Path()).tasks(SPLIT)[::4][:count]]


def test_rollout_writes_one_json_line_per_episode(tmp_path: Path) -> None:
    out = tmp_path / "episodes.jsonl"
    ids = task_ids(2)
    result = invoke("rollout", "--env", ENV, "--task-ids", ",".join(ids), "--trials", "2", "--seed", "7", *ORACLE,
                    "--out", out)  # fmt: skip
    assert result.exit_code == 0, explain_result(result)
    episodes = [RolloutEpisode.model_validate_json(line) for line in out.read_text().splitlines()]
    assert sorted((e.task_id, e.trial) for e in episodes) == [(t, n) for t in sorted(ids) for n in range(2)]
    assert all(e.reward == 1.0 and e.reward_vector and e.seed == seed_for(7, e.task_id, e.trial) for e in episodes)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--task-ids", "no-such-task"), "no-such-task"),
        (("--task-ids", "x", "--trials", "0"), "--trials"),
        (("--task-ids", "x", "--user-strategy", "human"), "human"),
    ],
)
def test_bad_input_exits_2_before_any_episode(tmp_path: Path, args: tuple[str, ...], said: str) -> None:
    out = tmp_path / "episodes.jsonl"
    result = invoke("rollout", "--env", ENV, *ORACLE, *args, "--out", out)
    assert result.exit_code == 2, explain_result(result)
    assert said in result.stderr
    assert not out.exists()


def test_serve_rollout_serves_group_rollouts_over_grpc(tmp_path: Path) -> None:
    server = start_taumesh("serve", "rollout", "--port", "0", "--data-dir", tmp_path)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        address = re.search(r"on (\S+:\d+)$", line.strip())
        assert address, line
        with grpc.insecure_channel(address.group(1)) as channel:
            stub = rollout_pb2_grpc.RolloutServiceStub(channel)
            request = rollout_pb2.GroupRolloutsRequest(
                env=ENV, task_ids=task_ids(1), trials=2, seed=3, agent_strategy="oracle", user_strategy="scripted"
            )
            episodes = [episode_from_message(m) for m in stub.GroupRollouts(request, timeout=60)]
        assert episodes[0].trajectory == episodes[1].trajectory  # the oracle and the scripted user draw nothing
        assert sorted(e.trial for e in episodes) == [0, 1] and all(e.reward == 1.0 for e in episodes)
    finally:
        server.send_signal(signal.SIGTERM)
        done = finish(server, timeout=30)
    assert done.returncode == 0, done.stderr[-2000:]
