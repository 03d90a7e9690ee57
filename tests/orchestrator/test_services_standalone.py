"""The four services as four OS processes (``taumesh serve``), driven by ``taumesh run --*-addr``."""

from __future__ import annotations

import re
import signal
from pathlib import Path

import pytest

from tests.helpers.cli import (
    ORACLE,
    check_oracle_results,
    explain_result,
    invoke,
    load_json,
    results_path,
    taumesh_executable,
)
from tests.helpers.paths import V1_DATA
from tests.helpers.processes import Server

SERVICES = {
    "env": "taumesh.env.v1.EnvService",
    "user-sim": "taumesh.user_sim.v1.UserSimService",
    "agent": "taumesh.agent.v1.AgentService",
    "scorer": "taumesh.scorer.v1.ScorerService",
}

pytestmark = pytest.mark.slow  # four service processes and a run: over 3 s whatever the slice


def test_four_standalone_services_run_a_slice_then_stop_gracefully(
    v1_data_dir: Path, tmp_path: Path, servers: list[Server]
) -> None:
    for name in SERVICES:  # all four start at once, then each is waited for
        argv = [taumesh_executable(), "serve", name, "--port", "0", "--host", "127.0.0.1", "--data-dir", str(V1_DATA)]
        servers.append(Server.spawn(argv, tmp_path / f"{name}.log"))
    for server, full_name in zip(servers, SERVICES.values(), strict=True):
        server.wait_ready(rf"serving {re.escape(full_name)} on (?P<address>127\.0\.0\.1:\d+)")
    addresses = dict(zip(SERVICES, (s.address for s in servers), strict=True))
    assert len(set(addresses.values())) == 4

    # no data where the run looks: it cannot start a service of its own, every call goes to the four processes
    nowhere = tmp_path / "no-data"
    result = invoke(
        "run", "--env", "retail", "--task-split", "test", *ORACLE, "--data-dir", nowhere, "--log-dir", tmp_path / "run",
        "--end-index", "10", "--max-concurrency", "4",
        "--env-addr", addresses["env"], "--user-addr", addresses["user-sim"],
        "--agent-addr", addresses["agent"], "--scorer-addr", addresses["scorer"],
    )  # fmt: skip
    assert result.exit_code == 0, explain_result(result)
    assert not nowhere.exists()
    check_oracle_results(load_json(results_path(tmp_path / "run")), "retail", "test", list(range(10)))

    # the run closed its sessions and channels; every server is still up until told to stop
    assert all(s.proc.poll() is None for s in servers), [s.stderr() for s in servers]
    for server in servers:  # all at once: each gets the same few seconds
        server.proc.send_signal(signal.SIGTERM)
    for name, server in zip(SERVICES, servers, strict=True):
        code = server.proc.wait(timeout=10)
        assert code == 0, f"taumesh serve {name} exited {code} on SIGTERM\n{server.stderr()}"
        assert "Traceback" not in server.stderr(), server.stderr()
        assert "shutting down" in server.stderr()
