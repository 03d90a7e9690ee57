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
from typing import Any

import grpc
import pytest
import yaml
from click.testing import Result
from grpc_channelz.v1 import channelz_pb2, channelz_pb2_grpc

from taumesh.data import CACHE_DIR_ENV, DatasetMissing, require
from taumesh.domains.tau2._files import GUIDELINES
from taumesh.llm.access import ALLOWED_API_BASES_ENV
from taumesh.orchestrator.results.names import errors_path
from tests.helpers.cli import (
    ORACLE,
    check_oracle_results,
    explain,
    explain_result,
    finish,
    invoke,
    load_json,
    results_path,
    start_taumesh,
    taumesh_executable,
)
from tests.helpers.fake_model import FakeOpenAI, text
from tests.helpers.paths import PROJECT_ROOT, V1_DATA
from tests.helpers.processes import Server
from tests.orchestrator.test_outage import SERVING

pytestmark = pytest.mark.kill

RETAIL_TEST = list(range(50))
"""The first 50 retail test tasks: 16 at a time still in flight when a replica dies, at under half the CPU of 115."""


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


def _run_args(log_dir: Path, *addresses: str) -> list[str | Path]:
    return [
        "run", "--env", "retail", "--task-split", "test", *ORACLE, "--data-dir", V1_DATA,
        "--log-dir", log_dir, "--max-concurrency", "16", "--end-index", str(len(RETAIL_TEST)), *addresses,
    ]  # fmt: skip


def _start_run(log_dir: Path, *addresses: str) -> subprocess.Popen[str]:
    return start_taumesh(*_run_args(log_dir, *addresses))


_POLLS: collections.Counter[str] = collections.Counter()
"""Channelz calls this module made to each address: they count as calls the server served."""


def _served_calls(address: str, channel: grpc.Channel | None = None) -> int:
    """Calls the process at ``address`` has served (channelz counts them per server), not counting these queries;
    asked over ``channel`` when given (a poll reuses one), else over a channel of its own."""
    _POLLS[address] += 1
    if channel is None:
        with grpc.insecure_channel(address) as own:
            return _served_calls_over(own) - _POLLS[address]
    return _served_calls_over(channel) - _POLLS[address]


def _served_calls_over(channel: grpc.Channel) -> int:
    servers = channelz_pb2_grpc.ChannelzStub(channel).GetServers(channelz_pb2.GetServersRequest(), timeout=10)
    return sum(server.data.calls_started for server in servers.server)


def _when_under_way(run: subprocess.Popen[str], replica: Server, calls: int = 30) -> None:
    """Wait until ``replica`` has served ``calls`` calls: its first episodes are mid-conversation, holding sessions.

    Early in the run is the moment: later, most episodes in flight wait for the scorer, their sessions done with.
    The poll keeps one channel: a new channel per query cost more CPU than the query.
    """
    deadline = time.monotonic() + 120
    with grpc.insecure_channel(replica.address) as channel:
        while run.poll() is None and time.monotonic() < deadline:
            if _served_calls(replica.address, channel) >= calls:
                break
            time.sleep(0.02)
    assert run.poll() is None, "the run ended before anything was killed: nothing was tested"


def _nothing_lost(proc: subprocess.CompletedProcess[str] | Result, log_dir: Path) -> None:
    how = explain(proc) if isinstance(proc, subprocess.CompletedProcess) else explain_result(proc)
    code = proc.returncode if isinstance(proc, subprocess.CompletedProcess) else proc.exit_code
    assert code == 0, how
    assert not list(log_dir.glob("*.errors.json")), how
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
    proc = invoke(*_run_args(log_dir, "--user-addr", _target(replicas["user_sim"])))  # nothing killed: in-process
    _nothing_lost(proc, log_dir)
    served = [_served_calls(server.address) - b for server, b in zip(replicas["user_sim"], before, strict=True)]
    mean = sum(served) / len(served)
    assert mean > 2 * len(RETAIL_TEST) / 3 - 1, served  # 50 episodes of at least two user turns each
    # round_robin: no replica pinned (pick_first gives one all). Not tighter: under load the first calls go to the
    # replica whose connection is READY first while the others still connect (once [44, 28, 28])
    assert all(abs(count - mean) <= 0.5 * mean for count in served), served


def test_a_draining_env_replica_hands_its_episodes_over(tmp_path: Path, servers: list[Server]) -> None:
    replicas = _replicas(servers, tmp_path, env=2)
    log_dir = tmp_path / "results"
    run = _start_run(log_dir, "--env-addr", _target(replicas["env"]))
    _when_under_way(run, replicas["env"][0])
    assert replicas["env"][0].terminate(timeout=30) == 0  # SIGTERM: graceful shutdown, as a pod being replaced
    proc = finish(run)
    _nothing_lost(proc, log_dir)


def _as_the_manifest_starts(name: str) -> tuple[list[str], dict[str, str], str]:
    """The server container of ``k8s/base/NAME.yaml``: its args, its literal environment and where ``data`` mounts."""
    documents = yaml.safe_load_all((PROJECT_ROOT / "k8s" / "base" / f"{name}.yaml").read_text(encoding="utf-8"))
    deployment = next(d for d in documents if d["kind"] == "Deployment")
    container = next(c for c in deployment["spec"]["template"]["spec"]["containers"] if c["name"] == "server")
    env = {e["name"]: str(e["value"]) for e in container["env"] if "value" in e and "$(" not in str(e["value"])}
    mounts = {m["name"]: m["mountPath"] for m in container.get("volumeMounts", [])}
    return container["args"], env, mounts.get("data", "")


def _tau2_user(request: dict[str, Any], ordinal: int) -> Any:
    """The model behind the user: it asks once, then ends the conversation."""
    said = sum(1 for m in request["messages"] if m["role"] == "assistant")
    return text("Hi, I would like some help with my order." if said == 0 else "###STOP###")


def _start_user_sim(tmp_path: Path, label: str, with_data: bool, fake: FakeOpenAI) -> Server:
    """A user-sim started as k8s starts it: ``taumesh serve`` with the manifest's environment, the image's data
    cache (``TAUMESH_CACHE_DIR=/data``, the ``data`` mount) a local folder holding the fetched τ² data or empty."""
    args, env, data_mount = _as_the_manifest_starts("user-sim")
    dockerfile = (PROJECT_ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert data_mount and f"{CACHE_DIR_ENV}={data_mount} " in dockerfile, "the pod reads its data at the image's cache"
    cache = tmp_path / f"{label}-data"
    cache.mkdir()
    if with_data:
        (cache / "tau2").symlink_to(require("tau2"), target_is_directory=True)  # as the init step fills the volume
    env.update({"TAUMESH_HOST": "127.0.0.1", "TAUMESH_PORT": "0", CACHE_DIR_ENV: str(cache)})
    env[ALLOWED_API_BASES_ENV] = fake.url  # the operator's allow-list of model endpoints
    server = Server.spawn([taumesh_executable(), *args], tmp_path / f"{label}.err", env=env)
    return server.wait_ready(SERVING)


def _tau2_llm_user_run(tmp_path: Path, user_sim: Server, fake: FakeOpenAI) -> tuple[Result, Path]:
    """One τ² episode against ``user_sim``; the run itself in this process (the user-sim is the process shown)."""
    log_dir = tmp_path / "results"
    result = invoke(
        "run", "--domain", "retail", "--num-tasks", "1", "--agent-strategy", "oracle", "--quiet",
        "--user-strategy", "llm", "--user-model", "gpt-4o-mini", "--user-model-provider", "openai",
        "--user-api-base", fake.url, "--user-addr", user_sim.address, "--log-dir", log_dir,
    )  # fmt: skip
    return result, log_dir


def test_a_tau2_episode_with_a_model_played_user_on_a_user_sim_started_as_deployed(
    tmp_path: Path, servers: list[Server], fake: FakeOpenAI
) -> None:
    try:
        guidelines = (require("tau2") / "data" / "user_simulator" / GUIDELINES).read_text(encoding="utf-8")
    except (DatasetMissing, OSError):
        pytest.skip("τ²'s data is not fetched (taumesh data fetch tau2)")
    fake.reset(_tau2_user)
    bare = _start_user_sim(tmp_path, "user-sim-without-data", with_data=False, fake=fake)
    servers.append(bare)
    proc, log_dir = _tau2_llm_user_run(tmp_path / "without", bare, fake)
    # without the data the user cannot be played: an error, no score
    assert proc.exit_code != 0, explain_result(proc)
    (failed,) = load_json(errors_path(results_path(log_dir)))
    assert "user guidelines" in failed["info"]["error"]["cause"], failed["info"]["error"]
    assert fake.served == []

    deployed = _start_user_sim(tmp_path, "user-sim", with_data=True, fake=fake)
    servers.append(deployed)
    proc, log_dir = _tau2_llm_user_run(tmp_path / "with", deployed, fake)
    assert proc.exit_code == 0, explain_result(proc)
    (episode,) = load_json(results_path(log_dir))
    assert episode["info"]["termination"] == "user_stop" and not list(log_dir.glob("*.errors.json"))
    assert fake.served, "the user's model was asked"
    system = fake.served[0].request["messages"][0]
    assert system["role"] == "system" and guidelines.strip()[:200] in system["content"]
