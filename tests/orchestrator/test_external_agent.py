"""An AgentService written by an outside team, in its own process, scored through ``taumesh run --agent-addr``."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.results import errors_path
from tests.conftest import V1_DATA
from tests.orchestrator.conftest import (
    EXTERNAL_AGENT,
    ORACLE,
    PROJECT_ROOT,
    Server,
    check_oracle_results,
    free_port,
    invoke,
    load_json,
    oracle_run,
    results_path,
    start_server,
)

ALLOWED_IMPORTS = {"__future__", "argparse", "json", "signal", "sys", "threading", "concurrent", "pathlib", "typing"}


def generate_stubs(into: Path) -> Path:
    """The agent contract compiled by protoc from protos/ alone, as an outside team would (no taumesh code)."""
    protos = PROJECT_ROOT / "protos"
    sources = [protos / "taumesh/common/v1/common.proto", protos / "taumesh/agent/v1/agent.proto"]
    into.mkdir(parents=True)
    subprocess.run(
        [sys.executable, "-m", "grpc_tools.protoc", f"-I{protos}", f"--python_out={into}", f"--grpc_python_out={into}"]
        + [str(source) for source in sources],
        check=True,
    )
    return into


@pytest.fixture(scope="module")
def external_agent(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    if not V1_DATA.is_dir():
        pytest.skip(f"reference data not found at {V1_DATA}")
    folder = tmp_path_factory.mktemp("external_agent")
    stubs = generate_stubs(folder / "gen")
    server = start_server(
        [sys.executable, str(EXTERNAL_AGENT), "--tasks-dir", str(V1_DATA), "--port", "0"],
        r"agent listening on (?P<address>\S+:\d+) \(stubs from (?P<stubs>.+)\)",
        folder / "stderr.log",
        env={"PYTHONPATH": str(stubs)},
    )
    # the agent runs on the freshly generated stubs, not on the copy inside the taumesh package
    assert Path(server.lines[-1].split("(stubs from ", 1)[1].rstrip(")\n")).is_relative_to(stubs)
    try:
        yield server
    finally:
        try:
            code = server.terminate(timeout=10)
        finally:
            server.kill()
        assert code == 0, f"the external agent exited {code} on SIGTERM\n{server.stderr()}"


def test_the_example_uses_only_grpcio_and_the_generated_stubs() -> None:
    tree = ast.parse(EXTERNAL_AGENT.read_text(encoding="utf-8"))
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            modules.add(node.module or "")
    outside = {m for m in modules if m.split(".")[0] not in ALLOWED_IMPORTS | {"grpc", "taumesh"}}
    assert not outside, f"the external agent imports {outside}"
    assert {m for m in modules if m.startswith("taumesh.")} <= {"taumesh.agent.v1", "taumesh.common.v1"}


def test_retail_test_through_an_external_agent(external_agent: Server, tmp_path: Path) -> None:
    _, results = oracle_run(
        tmp_path, "retail", "test", "--agent-addr", external_agent.address, "--max-concurrency", "8"
    )
    check_oracle_results(results, "retail", "test", list(range(115)), call_id_prefix="ext_")


def test_airline_slice_through_an_external_agent(external_agent: Server, tmp_path: Path) -> None:
    ids = [0, 2, 13, 20, 35, 44, 49]  # a booking, tasks with outputs, transfers, a task that changes nothing
    args = [arg for i in ids for arg in ("--task-ids", str(i))]
    _, results = oracle_run(tmp_path, "airline", "test", "--agent-addr", external_agent.address, *args)
    check_oracle_results(results, "airline", "test", ids, call_id_prefix="ext_")


def test_unreachable_agent_records_infrastructure_errors_never_zero(external_agent: Server, tmp_path: Path) -> None:
    nobody = free_port()
    result = invoke(
        "run", "--env", "retail", "--task-split", "test", *ORACLE, "--data-dir", V1_DATA, "--log-dir", tmp_path,
        "--agent-addr", f"127.0.0.1:{nobody}", "--task-ids", "0", "--task-ids", "1", "--max-concurrency", "2",
    )  # fmt: skip
    assert result.exit_code == 1, "no episode was scored"
    assert load_json(results_path(tmp_path)) == [], "τ-bench's file holds scored episodes only"
    path = results_path(tmp_path)
    # an agent that cannot describe itself is named by its address
    assert path.name.startswith(f"127.0.0.1_{nobody}-external-0.0_range_0--1_user-")
    results = load_json(errors_path(path))
    assert sorted((r["task_id"], r["trial"]) for r in results) == [(0, 0), (1, 0)]
    for entry in results:
        assert entry["info"]["agent"] == {
            "address": f"127.0.0.1:{nobody}",
            "name": "",
            "version": "",
            "description": "",
        }
        assert entry["reward"] is None, "an agent nobody could reach did not fail the task"
        error = entry["info"]["error"]
        assert error["kind"] == "infrastructure"
        assert "UNAVAILABLE" in error["cause"]
        assert error["attempts"] == RunConfig().max_episode_attempts, "retried, then recorded"
        assert entry["traj"] == []
    assert "scored episodes: 0" in result.stdout
    assert "infrastructure errors: 2" in result.stdout
    assert "UNAVAILABLE" in result.stdout
    assert f"errors: {errors_path(path)}" in result.stdout
    # the external agent on its own port was never involved and still serves
    assert external_agent.proc.poll() is None
