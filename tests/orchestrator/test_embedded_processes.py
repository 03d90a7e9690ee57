"""--embedded-processes (TAUMESH_EMBEDDED_PROCESSES): embedded services in child processes of their own, over real
loopback gRPC."""

from __future__ import annotations

import os
from pathlib import Path

import psutil
import pytest

from taumesh.data import taubench_v1_dir
from taumesh.domains import Catalog
from taumesh.models import AgentSettings, TaskRef, UserSettings
from taumesh.orchestrator.config import RunConfig, ServiceAddresses
from taumesh.orchestrator.episode.turn_loop import run_episode
from taumesh.orchestrator.run.stack import serving_targets
from taumesh.settings import RunSettings


def listener_of(address: str) -> int | None:
    """The PID listening on ``address``'s TCP port."""
    port = int(address.rsplit(":", 1)[1])
    for conn in psutil.net_connections(kind="tcp"):
        if conn.status == psutil.CONN_LISTEN and conn.laddr and conn.laddr.port == port:
            return conn.pid
    return None


async def test_the_named_services_serve_from_child_processes_and_play_an_episode(tau2_data: Path) -> None:
    addresses = ServiceAddresses(processes="agent, user")
    async with serving_targets(addresses, taubench_v1_dir()) as targets:
        agent_pid, user_pid, env_pid = (listener_of(a) for a in (targets.agent, targets.user, targets.env))
        assert env_pid == os.getpid()  # not named: in this process, as before
        assert agent_pid not in (None, os.getpid()) and user_pid not in (None, os.getpid(), agent_pid)
        children = {child.pid for child in psutil.Process().children()}
        assert {agent_pid, user_pid} <= children
        assert targets.embedded == frozenset({"env", "user", "agent", "scorer"})  # all plaintext on loopback

        config = RunConfig(
            env="tau2-retail",
            task_split="train",
            agent=AgentSettings(strategy="oracle"),
            user=UserSettings(strategy="scripted"),
            addresses=addresses,
            show_progress=False,
        )
        clients = targets.connect()
        try:
            task_id = Catalog(taubench_v1_dir()).get("tau2-retail").tasks("train")[0].id
            task = TaskRef(domain="tau2-retail", split="train", task_id=task_id)
            result = await run_episode(clients, config, task, 0)
        finally:
            await clients.close()
        assert result.reward == 1.0
    for pid in (agent_pid, user_pid):  # stopped and reaped on the way out
        assert pid is not None and not psutil.pid_exists(pid)


def test_unknown_names_are_refused_with_the_known_ones() -> None:
    assert ServiceAddresses(processes="all").processes == frozenset({"env", "user", "agent", "scorer"})
    assert ServiceAddresses().processes == frozenset()
    with pytest.raises(ValueError, match="agent, scorer"):
        ServiceAddresses(processes="agent,llm")


def test_the_preflight_dials_addresses_only() -> None:
    from taumesh.orchestrator.run.preflight import services_problem

    addresses = ServiceAddresses(processes="agent,user")
    assert addresses.remote() == {} and services_problem(addresses) is None
    assert ServiceAddresses(env="h:1", processes="all").remote() == {"env": "h:1"}


def test_the_environment_variable_and_the_flag_reach_the_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TAUMESH_EMBEDDED_PROCESSES", "agent user")
    from_env = RunSettings(log_dir=tmp_path).run_config().addresses.processes
    flagged = RunSettings(log_dir=tmp_path, embedded_processes="scorer").run_config().addresses.processes
    assert (from_env, flagged) == (frozenset({"agent", "user"}), frozenset({"scorer"}))
