"""Several replicas per service, as pods behind one DNS name, shown with local processes on loopback.

Each service is reached through one target in gRPC's list form (``ipv4:127.0.0.1:P1,127.0.0.1:P2``), which is
what a DNS name resolving to several pods gives the client. Replicas are killed and drained mid-run; no episode
may be lost, scored wrongly or filed as an error.
"""

from __future__ import annotations

import collections
import subprocess
import time
from pathlib import Path

import grpc
from grpc_channelz.v1 import channelz_pb2, channelz_pb2_grpc

from tests.conftest import V1_DATA
from tests.orchestrator.conftest import (
    ORACLE,
    Server,
    check_oracle_results,
    explain,
    finish,
    load_json,
    results_path,
    start_taumesh,
    taumesh_executable,
)
from tests.orchestrator.test_outage import SERVING

RETAIL_TEST = list(range(115))


def _serve(service: str, tmp_path: Path, label: str) -> Server:
    argv = [taumesh_executable(), "serve", service, "--host", "127.0.0.1", "--port", "0"]
    if service in ("env", "agent", "scorer"):
        argv += ["--data-dir", str(V1_DATA)]
    return Server.spawn(argv, tmp_path / f"{label}.err")


def _replicas(servers: list[Server], tmp_path: Path, **counts: int) -> dict[str, list[Server]]:
    """``counts`` processes per service (user_sim=3 …), started together, each ready once it says where it serves."""
    started = {
        service: [_serve(service.replace("_", "-"), tmp_path, f"{service}-{i}") for i in range(count)]
        for service, count in counts.items()
    }
    for group in started.values():
        for server in group:
            servers.append(server)
            server.wait_ready(SERVING)
    return started


def _target(group: list[Server]) -> str:
    """All replicas of a service as one gRPC target, as a DNS name with several addresses resolves."""
    return "ipv4:" + ",".join(server.address for server in group)


def _start_run(log_dir: Path, *addresses: str) -> subprocess.Popen[str]:
    return start_taumesh(
        "run", "--env", "retail", "--task-split", "test", *ORACLE, "--data-dir", V1_DATA,
        "--log-dir", log_dir, "--max-concurrency", "16", *addresses,
    )  # fmt: skip


_POLLS: collections.Counter[str] = collections.Counter()
"""Channelz calls this module made to each address: they count as calls the server served."""


def _served_calls(address: str) -> int:
    """Calls the process at ``address`` has served (channelz counts them per server), not counting these queries."""
    _POLLS[address] += 1
    with grpc.insecure_channel(address) as channel:
        servers = channelz_pb2_grpc.ChannelzStub(channel).GetServers(channelz_pb2.GetServersRequest(), timeout=10)
    return sum(server.data.calls_started for server in servers.server) - _POLLS[address]


def _when_under_way(run: subprocess.Popen[str], replica: Server, calls: int = 30) -> None:
    """Wait until ``replica`` has served ``calls`` calls: its first episodes are mid-conversation, holding sessions.

    Early in the run is the moment: later, most episodes in flight wait for the scorer, their sessions done with.
    """
    deadline = time.monotonic() + 120
    while run.poll() is None and time.monotonic() < deadline:
        if _served_calls(replica.address) >= calls:
            break
        time.sleep(0.02)
    assert run.poll() is None, "the run ended before anything was killed: nothing was tested"


def _nothing_lost(proc: subprocess.CompletedProcess[str], log_dir: Path) -> None:
    assert proc.returncode == 0, explain(proc)
    assert not list(log_dir.glob("*.errors.json")), explain(proc)
    check_oracle_results(load_json(results_path(log_dir)), "retail", "test", RETAIL_TEST)


def test_killed_user_sim_and_env_replicas_lose_no_episode(tmp_path: Path, servers: list[Server]) -> None:
    replicas = _replicas(servers, tmp_path, user_sim=3, env=2, agent=1, scorer=1)
    log_dir = tmp_path / "results"
    run = _start_run(
        log_dir,
        *("--user-addr", _target(replicas["user_sim"])),
        *("--env-addr", _target(replicas["env"])),
        *("--agent-addr", _target(replicas["agent"])),
        *("--scorer-addr", _target(replicas["scorer"])),
    )
    _when_under_way(run, replicas["env"][0])
    replicas["user_sim"][0].proc.kill()
    replicas["env"][0].proc.kill()  # not restarted: its sessions live on only as the episodes' tool-call logs
    proc = finish(run)
    _nothing_lost(proc, log_dir)  # no --retry-errors: nothing needed replaying whole
    assert "rebuilt on a new session by replaying" in proc.stderr, explain(proc)


def test_calls_spread_evenly_over_user_sim_replicas(tmp_path: Path, servers: list[Server]) -> None:
    replicas = _replicas(servers, tmp_path, user_sim=3)
    before = [_served_calls(server.address) for server in replicas["user_sim"]]
    log_dir = tmp_path / "results"
    proc = finish(_start_run(log_dir, "--user-addr", _target(replicas["user_sim"])))
    _nothing_lost(proc, log_dir)
    served = [_served_calls(server.address) - b for server, b in zip(replicas["user_sim"], before, strict=True)]
    mean = sum(served) / len(served)
    assert mean > 60, served  # 115 episodes of at least two user turns each
    assert all(abs(count - mean) <= 0.3 * mean for count in served), served


def test_a_draining_env_replica_hands_its_episodes_over(tmp_path: Path, servers: list[Server]) -> None:
    replicas = _replicas(servers, tmp_path, env=2)
    log_dir = tmp_path / "results"
    run = _start_run(log_dir, "--env-addr", _target(replicas["env"]))
    _when_under_way(run, replicas["env"][0])
    assert replicas["env"][0].terminate(timeout=30) == 0  # SIGTERM: graceful shutdown, as a pod being replaced
    proc = finish(run)
    _nothing_lost(proc, log_dir)
