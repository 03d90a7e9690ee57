"""``--agent-strategy dialogflow-cx`` (alias ``decibel``) against a fake CX Sessions service on loopback."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from google.cloud.dialogflowcx_v3beta1 import types as cx
from google.protobuf import json_format

from taumesh.domains import Catalog
from tests.dialogflow.fake_cx import FakeCx, exported_tools, serving
from tests.helpers.cli import check_oracle_results, explain_result, invoke, load_json, results_path
from tests.helpers.paths import V1_DATA

AGENT = ("--agent-id", "agent-1", "--project-id", "proj", "--location", "us-central1")
AGENT_PATH = "projects/proj/locations/us-central1/agents/agent-1"


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not V1_DATA.is_dir():
        pytest.skip(f"reference data not found at {V1_DATA}")
    path = tmp_path_factory.mktemp("cx") / "retail_tools.json"
    result = invoke(
        "tools", "export", "--format", "dialogflow-cx", "--env", "retail", "--data-dir", V1_DATA, "-o", path
    )
    assert result.exit_code == 0, explain_result(result)
    return path


@pytest.fixture
def cx_server(request: pytest.FixtureRequest, exported: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeCx]:
    fake = FakeCx(tools=exported_tools(exported), **getattr(request, "param", {}))
    with serving(fake) as address:
        monkeypatch.setenv("TAUMESH_DIALOGFLOW_CX_ENDPOINT", address)
        yield fake


def run_cx(log_dir: Path, *args: str) -> list[dict[str, object]]:
    result = invoke(
        "run", "--env", "retail", "--task-split", "test", "--user-strategy", "scripted", "--quiet",
        "--data-dir", V1_DATA, "--log-dir", log_dir, *args,
    )  # fmt: skip
    assert result.exit_code == 0, explain_result(result)
    results: list[dict[str, object]] = load_json(results_path(log_dir))
    return results


def test_the_export_is_every_domain_tool_as_a_cx_function_tool(exported: Path) -> None:
    schemas = Catalog(V1_DATA).get("retail").tool_schemas
    tools = exported_tools(exported)
    assert [t["displayName"] for t in tools] == [s["function"]["name"] for s in schemas]
    for tool, schema in zip(tools, schemas, strict=True):
        assert tool["functionSpec"]["inputSchema"] == schema["function"]["parameters"]
        assert tool["description"] == schema["function"]["description"]
        cx.Tool.from_json(json.dumps(tool))  # the CX package's own Tool type reads it back


def test_five_retail_tasks_pass_through_the_fork_spelling(cx_server: FakeCx, tmp_path: Path) -> None:
    ids = [0, 1, 2, 3, 4]
    task_args = [arg for i in ids for arg in ("--task_ids", str(i))]
    results = run_cx(tmp_path, "--agent_strategy", "decibel", "--agent_id", "agent-1", "--project_id", "proj",
                     "--location", "us-central1", *task_args)  # fmt: skip
    check_oracle_results(results, "retail", "test", ids, call_id_prefix="cx_")
    # one CX session per episode, named after the episode id
    sessions = {r.session for r in cx_server.requests}
    assert sessions == {f"{AGENT_PATH}/sessions/{r['info']['episode_id']}" for r in results}  # type: ignore[index]
    # each tool's observation went back as a tool_call_result naming the CX tool and action that asked for it
    task0 = next(r for r in results if r["task_id"] == 0)
    observations = [m["content"] for m in task0["traj"] if m["role"] == "tool"]  # type: ignore[attr-defined]
    session0 = f"{AGENT_PATH}/sessions/{task0['info']['episode_id']}"  # type: ignore[index]
    sent = [r for r in cx_server.requests if r.session == session0]
    assert sent[0].query_input.text.text.startswith("You are")  # the user's first words as text
    results_sent = [r.query_input.tool_call_result for r in sent[1:]]
    assert [json_format.MessageToDict(cx.ToolCallResult.pb(r).output_parameters) for r in results_sent] == [
        {"result": text} for text in observations
    ]
    assert all(r.tool.startswith(f"{AGENT_PATH}/tools/") and r.action for r in results_sent)


@pytest.mark.parametrize("cx_server", [{"error_at": 2}], indirect=True)
def test_a_cx_error_is_the_agents_failure_and_is_scored(cx_server: FakeCx, tmp_path: Path) -> None:
    results = run_cx(tmp_path, "--agent-strategy", "dialogflow-cx", *AGENT, "--task-ids", "0")
    [result] = results
    info = result["info"]
    assert result["reward"] == 0.0 and "error" not in info, info  # type: ignore[operator]
    assert info["termination"] == "agent_gave_up"  # type: ignore[index]
    assert "Dialogflow CX failed the turn" in info["agent_gave_up"]  # type: ignore[index]
    assert "Playbook execution failed" in info["agent_gave_up"]  # type: ignore[index]
    assert not list(tmp_path.glob("*errors*")) or not load_json(next(tmp_path.glob("*errors*")))


@pytest.mark.slow
@pytest.mark.parametrize("cx_server", [{"expire_first": True}], indirect=True)
def test_an_expired_session_is_infrastructure_and_the_episode_replays(cx_server: FakeCx, tmp_path: Path) -> None:
    results = run_cx(tmp_path, "--agent-strategy", "dialogflow-cx", *AGENT, "--task-ids", "0")
    check_oracle_results(results, "retail", "test", [0], call_id_prefix="cx_")
    # the first episode's session expired after one turn; the replay ran in a new session (a new episode id)
    assert len(cx_server.expired) == 1 and len(cx_server.sessions) == 2
    [result] = results
    assert f"{AGENT_PATH}/sessions/{result['info']['episode_id']}" not in cx_server.expired  # type: ignore[index]


def test_no_agent_named_is_a_clear_error(exported: Path, tmp_path: Path) -> None:
    result = invoke(
        "run", "--env", "retail", "--task-split", "test", "--user-strategy", "scripted", "--quiet",
        "--data-dir", V1_DATA, "--log-dir", tmp_path, "--agent-strategy", "dialogflow-cx", "--task-ids", "0",
    )  # fmt: skip
    assert result.exit_code == 2, explain_result(result)
    assert "--agent-strategy dialogflow-cx needs --agent-id and --project-id" in result.stderr
    assert not list(tmp_path.glob("*.json")), "nothing ran"


async def test_an_opening_agent_message_does_not_hide_the_sessions_start(cx_server: FakeCx, tmp_path: Path) -> None:
    """τ²'s greeting comes first from the orchestrator, not from CX: the CX session still starts with the task."""
    from services.agent.strategies.base import AgentTurn
    from services.agent.strategies.dialogflow_cx import DialogflowCxAgentStrategy
    from taumesh.models import AgentSettings, ChatMessage, DialogflowCxAgent, EpisodeContext, TaskRef

    strategy = DialogflowCxAgentStrategy(Catalog(V1_DATA))
    turn = AgentTurn(
        episode=EpisodeContext(task=TaskRef(domain="retail", split="test", task_id="0"), episode_id="greeted"),
        policy="",
        tools=[],
        conversation=[
            ChatMessage(role="assistant", content="Hi! How can I help you today?"),
            ChatMessage(role="user", content="I want to exchange a keyboard."),
        ],
        settings=AgentSettings(
            dialogflow_cx=DialogflowCxAgent(project_id="proj", location="us-central1", agent_id="agent-1")
        ),
    )
    reply = await strategy.next_message(turn)
    assert reply.message.role == "assistant"
    [request] = cx_server.requests
    parameters = json_format.MessageToDict(cx.QueryParameters.pb(request.query_params).parameters)
    assert parameters["taumesh_task_id"] == "0" and parameters["taumesh_episode_id"] == "greeted"
