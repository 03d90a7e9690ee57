"""An AgentService written by an outside team, in its own process, scored through ``taumesh run --agent-addr``."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import grpc
import pytest

from taumesh.agent.v1 import agent_pb2, agent_pb2_grpc
from taumesh.common.v1 import common_pb2
from taumesh.domains.tau2 import DatasetMissing, Tau2Task, require
from taumesh.orchestrator.results.records import results_task_id
from taumesh.rpc.server import CHANNEL_OPTIONS
from tests.helpers.cli import (
    EXTERNAL_AGENT,
    ORACLE,
    check_oracle_results,
    explain_result,
    invoke,
    load_json,
    oracle_invoke,
    results_path,
)
from tests.helpers.paths import PROJECT_ROOT, V1_DATA
from tests.helpers.processes import Server, free_port, start_server
from tests.helpers.tau2 import tau2_domain

ALLOWED_IMPORTS = {
    "__future__", "argparse", "concurrent", "dataclasses", "json", "pathlib", "signal", "sys", "threading", "typing",
    "grpc_health",
}  # fmt: skip


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


@contextmanager
def serving_external_agent(folder: Path, *data_args: str | Path) -> Iterator[Server]:
    """The example agent in its own process, on stubs freshly generated into ``folder``; stopped by SIGTERM."""
    stubs = generate_stubs(folder / "gen")
    server = start_server(
        [sys.executable, str(EXTERNAL_AGENT), *map(str, data_args), "--port", "0"],
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


@pytest.fixture(scope="module")
def external_agent(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The example agent over τ-bench v1's task files."""
    if not V1_DATA.is_dir():
        pytest.skip(f"reference data not found at {V1_DATA}")
    with serving_external_agent(tmp_path_factory.mktemp("external_agent"), "--tasks-dir", V1_DATA) as server:
        yield server


@pytest.fixture(scope="module")
def tau2_external_agent(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The example agent over the fetched τ² data (``taumesh data fetch tau2``)."""
    try:
        tau2_dir = require()
    except DatasetMissing as exc:
        pytest.skip(f"τ² data not fetched: {exc}")
    with serving_external_agent(tmp_path_factory.mktemp("tau2_external_agent"), "--tau2-dir", tau2_dir) as server:
        yield server


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


@pytest.mark.slow
def test_retail_test_through_an_external_agent(external_agent: Server, tmp_path: Path) -> None:
    _, results = oracle_invoke(
        tmp_path, "retail", "test", "--agent-addr", external_agent.address, "--max-concurrency", "8"
    )  # the run in this process: the agent's is the process shown
    check_oracle_results(results, "retail", "test", list(range(115)), call_id_prefix="ext_")


def test_airline_slice_through_an_external_agent(external_agent: Server, tmp_path: Path) -> None:
    ids = [0, 2, 13, 20, 35, 44, 49]  # a booking, tasks with outputs, transfers, a task that changes nothing
    args = [arg for i in ids for arg in ("--task-ids", str(i))]
    _, results = oracle_invoke(tmp_path, "airline", "test", "--agent-addr", external_agent.address, *args)
    check_oracle_results(results, "airline", "test", ids, call_id_prefix="ext_")


def test_an_unreachable_agent_is_one_error_before_the_run(
    external_agent: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An agent address nobody answers at is refused up front: no episode is tried, no file is written."""
    monkeypatch.setenv("TAUMESH_CONNECT_TIMEOUT", "0.5")
    nobody = free_port()
    result = invoke(
        "run", "--env", "retail", "--task-split", "test", *ORACLE, "--data-dir", V1_DATA, "--log-dir", tmp_path,
        "--agent-addr", f"127.0.0.1:{nobody}", "--task-ids", "0", "--task-ids", "1", "--max-concurrency", "2",
    )  # fmt: skip
    assert result.exit_code == 2, explain_result(result)
    assert f"no connection to --agent-addr 127.0.0.1:{nobody}" in result.stderr
    assert not list(tmp_path.glob("*.json")), "nothing ran, nothing was written"
    # the external agent on its own port was never involved and still serves
    assert external_agent.proc.poll() is None


HANDOVER = "handover"


def _expected_moves(task: Tau2Task) -> list[Any]:
    """What the example agent should do, read off the gold actions: each of its own actions as (name, arguments),
    one hand-over per run of user actions that follows one of its own, then its last words."""
    moves: list[Any] = []
    previous = "user"
    for gold in task.gold_actions:
        if gold.requestor == "assistant":
            moves.append((gold.name, gold.arguments))
        elif previous == "assistant":
            moves.append(HANDOVER)
        previous = gold.requestor
    return [*moves, " ".join(task.outputs) or "Is there anything else I can help you with?"]


def _walk(agent: agent_pb2_grpc.AgentServiceStub, task: Tau2Task, tools: list[common_pb2.ToolSchema]) -> list[Any]:
    """The agent's moves over one telecom task, the user answering every hand-over with "Done."."""
    episode = common_pb2.EpisodeContext(task=common_pb2.TaskRef(domain="tau2-telecom", split="base", task_id=task.id))
    conversation = [common_pb2.Message(role=common_pb2.ROLE_USER, content="My phone has no data.")]
    moves: list[Any] = []
    for _ in range(50):
        request = agent_pb2.NextMessageRequest(episode=episode, tools=tools, conversation=conversation)
        message = agent.NextMessage(request, timeout=30).message
        conversation.append(message)
        if not message.tool_calls:
            moves.append(HANDOVER if message.content.startswith("Please do the next steps") else message.content)
            if moves[-1] != HANDOVER:
                return moves
            conversation.append(common_pb2.Message(role=common_pb2.ROLE_USER, content="Done."))
            continue
        (call,) = message.tool_calls
        assert call.requestor == common_pb2.REQUESTOR_ASSISTANT
        moves.append((call.name, json.loads(call.arguments_json)))
        conversation.append(common_pb2.Message(role=common_pb2.ROLE_TOOL, content="ok", tool_call_id=call.id))
    raise AssertionError(f"the agent never finished {task.id}: {moves}")


def _schemas(openai_tools: list[dict[str, Any]]) -> list[common_pb2.ToolSchema]:
    return [
        common_pb2.ToolSchema(name=tool["function"]["name"], parameters_json=json.dumps(tool["function"]["parameters"]))
        for tool in openai_tools
    ]


def test_the_example_plays_only_the_agents_side_of_telecom(tau2_external_agent: Server) -> None:
    domain = tau2_domain("telecom")
    agent_tools, user_tools = _schemas(domain.tool_schemas), _schemas(domain.user_tool_schemas)
    with grpc.insecure_channel(tau2_external_agent.address, options=CHANNEL_OPTIONS) as channel:
        agent = agent_pb2_grpc.AgentServiceStub(channel)
        tasks = [task for task in domain.tasks("base") if isinstance(task, Tau2Task)]
        assert len(tasks) == 114
        for task in tasks:
            assert _walk(agent, task, agent_tools) == _expected_moves(task), task.id
        # offered only the phone's tools, it refuses to call its gold action instead of calling a user tool
        task = next(task for task in tasks if task.agent_actions())
        with pytest.raises(grpc.RpcError) as refused:
            _walk(agent, task, user_tools)
        assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION


@pytest.mark.slow
def test_telecom_base_through_an_external_agent(tau2_external_agent: Server, tmp_path: Path) -> None:
    """τ²'s own flags, the default split (base), every task 1.0: the agent plays its side, the scripted user its own."""
    proc = invoke(
        "run", "--domain", "telecom", *ORACLE, "--agent-addr", tau2_external_agent.address,
        "--max-concurrency", "8", "--log-dir", tmp_path,
    )  # fmt: skip
    assert proc.exit_code == 0, explain_result(proc)
    results: list[dict[str, Any]] = load_json(results_path(tmp_path))
    domain = tau2_domain("telecom")
    tasks = {results_task_id(task.id): task for task in domain.tasks("base") if isinstance(task, Tau2Task)}
    assert sorted(map(str, (r["task_id"] for r in results))) == sorted(map(str, tasks)), "every base task once"
    assert {r["task_id"]: r["reward"] for r in results} == dict.fromkeys(tasks, 1.0)
    agent_tools = {tool["function"]["name"] for tool in domain.tool_schemas}
    for result in results:
        task, info = tasks[result["task_id"]], result["info"]
        calls = [call for m in result["traj"] if m["role"] == "assistant" for call in m.get("tool_calls") or []]
        # the agent made exactly its own gold calls, with its own ids, and only with agent tools
        assert [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in calls] == [
            (action.name, action.kwargs) for action in task.agent_actions()
        ], task.id
        assert all(c["id"].startswith("ext_") and c["function"]["name"] in agent_tools for c in calls), task.id
        assert info["agent"]["name"] == "external-oracle"
        assert task.evaluation_criteria is not None
        assert info["reward_basis"] == task.evaluation_criteria.reward_basis
        checks = info["reward_checks"]
        assertions = [check for check in checks if check["basis"] == "ENV_ASSERTION"]
        assert len(assertions) == len(task.evaluation_criteria.env_assertions or []) > 0, task.id
        assert all(check["passed"] for check in assertions), task.id
        # every gold action was matched, the user's included: the scripted user played those on its phone
        passed = {check["subject"] for check in checks if check["basis"] == "ACTION" and check["passed"]}
        assert passed == {gold.action_id for gold in task.gold_actions}, task.id


def test_the_example_serves_the_standard_health_service(external_agent: Server) -> None:
    """Probes (compose, Kubernetes, ``taumesh health``) ask grpc.health.v1 of the example as of any service."""
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with grpc.insecure_channel(external_agent.address, options=CHANNEL_OPTIONS) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        for service in ("", "taumesh.agent.v1.AgentService"):
            answer = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=10)
            assert answer.status == health_pb2.HealthCheckResponse.SERVING, service
