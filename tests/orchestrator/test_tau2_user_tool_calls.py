"""τ²'s results layout records the user's own tool calls (telecom's dual control) where they happened.

A telecom run with the oracle agent and the scripted user (which plays the task's user-side gold actions on its
phone) over the real gRPC services, written in both layouts: τ²'s ``messages`` hold the user's calls (role
``user``) and their results (``requestor: "user"``) in time order among the agent's, numbered consecutively,
while τ-bench's ``traj`` stays what the agent saw. Result files written before the user's calls were recorded
still load, resume and render.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from taumesh.domains.tau2 import Tau2Task
from taumesh.orchestrator.after.rescore import load_episodes
from taumesh.orchestrator.results.records import USER_TOOL_TURNS
from taumesh.orchestrator.results.results_file import ResultsFile, load_results
from taumesh.orchestrator.results.transcript import print_transcript
from tests.helpers.cli import ORACLE, explain_result, invoke, load_json, results_path
from tests.helpers.tau2 import tau2_domain
from tests.orchestrator.test_tau2_run_options import ParticipantMessage, Results, ToolMessage

TASKS = (
    "[service_issue]break_apn_settings[PERSONA:None]",
    "[service_issue]overdue_bill_suspension[PERSONA:Easy]",
)
"""Two small-split tasks with user-side gold actions: two before the user first speaks, and two handed over by
the agent between its own actions."""
TAUBENCH_KEYS = {"task_id", "reward", "info", "traj", "trial"}


def _task(task_id: str) -> Tau2Task:
    task = next(t for t in tau2_domain("telecom").tasks("small") if t.id == task_id)
    assert isinstance(task, Tau2Task)
    return task


def _run(log_dir: Path, *extra: str | Path) -> Any:
    ids = [
        arg
        for i, t in enumerate(tau2_domain("telecom").tasks("small"))
        if t.id in TASKS
        for arg in ("--task-ids", str(i))
    ]
    assert len(ids) == 2 * len(TASKS)
    result = invoke(
        "run", "--env", "tau2-telecom", "--task-split", "small", *ids, *ORACLE,
        "--output-format", "both", "--log-dir", log_dir, *extra,
    )  # fmt: skip
    assert result.exit_code == 0, explain_result(result)
    return result


@pytest.fixture(scope="module")
def telecom_run(tau2_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The log folder of one telecom run of :data:`TASKS`, in τ-bench's and τ²'s layouts."""
    log_dir = tmp_path_factory.mktemp("telecom")
    _run(log_dir)
    return log_dir


def _document(log_dir: Path) -> Results:
    (path,) = log_dir.glob("*.tau2.json")
    return Results.model_validate(load_json(path))


def _calls(messages: list[ParticipantMessage | ToolMessage]) -> list[tuple[str, str]]:
    """(requestor, tool name) of every tool call in ``messages``, in order."""
    return [
        (call.requestor, call.name)
        for m in messages
        if isinstance(m, ParticipantMessage)
        for call in m.tool_calls or []
    ]


def test_user_tool_calls_are_in_the_tau2_messages_in_time_order(telecom_run: Path) -> None:
    document = _document(telecom_run)
    assert sorted(s.task_id for s in document.simulations) == sorted(TASKS)
    for simulation in document.simulations:
        task = _task(simulation.task_id)
        assert simulation.reward_info is not None and simulation.reward_info.reward == 1.0
        messages = simulation.messages
        assert [m.turn_idx for m in messages] == list(range(len(messages))), "numbered as τ² numbers them"
        gold = [(action.requestor, action.name) for action in task.gold_actions]
        assert any(requestor == "user" for requestor, _ in gold)
        assert _calls(messages) == gold, "the user's calls among the agent's, in the order they were made"
        for n, message in enumerate(messages):  # τ²'s rule: n calls, then their n results with that requestor
            if isinstance(message, ParticipantMessage) and message.tool_calls:
                following = messages[n + 1 : n + 1 + len(message.tool_calls)]
                results = [r for r in following if isinstance(r, ToolMessage)]
                assert len(results) == len(following) == len(message.tool_calls)
                assert [r.id for r in results] == [c.id for c in message.tool_calls]
                assert {r.requestor for r in results} == {message.role}
                assert {c.requestor for c in message.tool_calls} == {message.role}
                assert not any(r.error for r in results)
        assert messages[-1].role == "user" and "###STOP###" in (messages[-1].content or "")


def test_taubench_traj_is_what_the_agent_saw(telecom_run: Path) -> None:
    entries = load_json(results_path(telecom_run))
    document = _document(telecom_run)
    by_task = {s.task_id: s for s in document.simulations}
    for entry in entries:
        assert set(entry) == TAUBENCH_KEYS, "τ-bench's entry, no new keys"
        traj = entry["traj"]
        assert traj[0]["role"] == "system"
        assert not any(m["role"] == "user" and m.get("tool_calls") for m in traj), "no user tool calls in traj"
        agent_call_ids = {c["id"] for m in traj if m["role"] == "assistant" for c in m.get("tool_calls") or []}
        assert {m["tool_call_id"] for m in traj if m["role"] == "tool"} == agent_call_ids
        # τ²'s messages less the user's tool use are the agent's view, message for message
        seen = [m for m in by_task[entry["task_id"]].messages if not _users_tool_use(m)]
        assert [(m.role, m.content or "") for m in seen] == [(m["role"], m["content"]) for m in traj[1:]]
        turns = entry["info"][USER_TOOL_TURNS]
        assert [c["function"]["name"] for t in turns for m in t["messages"] for c in m.get("tool_calls") or []] == [
            a.name for a in _task(entry["task_id"]).gold_actions if a.requestor == "user"
        ]


def _users_tool_use(message: ParticipantMessage | ToolMessage) -> bool:
    """Whether ``message`` is the user's tool call or its result."""
    if isinstance(message, ToolMessage):
        return message.requestor == "user"
    return message.role == "user" and bool(message.tool_calls)


def test_results_round_trip_byte_for_byte(telecom_run: Path, tmp_path: Path) -> None:
    loaded = load_results(results_path(telecom_run))
    assert all(r.user_tool_turns() for r in loaded)
    copy = ResultsFile(tmp_path / "copy.json", existing=loaded)
    copy.flush()
    assert copy.path.read_bytes() == results_path(telecom_run).read_bytes()
    again = load_results(copy.path)
    assert again == loaded
    assert [r.timeline() for r in again] == [r.timeline() for r in loaded]
    assert all(len(r.timeline()) > len(r.traj) for r in again)


def assert_resume_rewrites_nothing(old: Path, tmp_path: Path) -> None:
    """``--resume`` of a copy of the complete results file ``old`` (as ``tmp_path/resumed.json``, its τ² document
    beside it) reruns and rewrites nothing."""
    logs = tmp_path / "logs"
    logs.mkdir()
    resumed = tmp_path / "resumed.json"
    shutil.copy(old, resumed)
    _run(logs, "--resume", resumed)
    assert resumed.read_bytes() == old.read_bytes(), "nothing rerun, nothing rewritten"


def test_a_file_written_before_user_tool_calls_were_recorded_loads_resumes_and_renders(
    telecom_run: Path, tmp_path: Path
) -> None:
    results = load_results(results_path(telecom_run))
    for result in results:
        del result.info[USER_TOOL_TURNS]  # what taumesh wrote before it recorded them
    old = tmp_path / "old.json"
    ResultsFile(old, existing=results).flush()
    before = old.read_bytes()
    assert USER_TOOL_TURNS.encode() not in before
    assert all(r.timeline() == r.traj for r in load_results(old))

    assert_resume_rewrites_nothing(old, tmp_path)
    document = _document(tmp_path)
    assert len(document.simulations) == len(TASKS)
    trajs = {str(r.task_id): r.traj for r in results}
    for simulation in document.simulations:  # rendered from traj alone, as before
        assert len(simulation.messages) == len(trajs[simulation.task_id]) - 1, "traj less its system prompt"
        assert not any(_users_tool_use(m) for m in simulation.messages)
        assert {requestor for requestor, _ in _calls(simulation.messages)} <= {"assistant"}
        assert [m.turn_idx for m in simulation.messages] == list(range(len(simulation.messages)))


def test_verbose_transcript_shows_the_users_tool_calls(telecom_run: Path) -> None:
    (result,) = [r for r in load_results(results_path(telecom_run)) if r.task_id == TASKS[0]]
    out = io.StringIO()
    print_transcript(result, Console(file=out, width=200))
    lines = out.getvalue().splitlines()
    first_call = next(n for n, line in enumerate(lines) if line.startswith("user calls reset_apn_settings({})"))
    assert lines[first_call + 1].startswith("tool reset_apn_settings → APN settings will reset at reboot.")
    opening = next(n for n, line in enumerate(lines) if line.startswith("user: ") and "Instructions" in line)
    assert first_call < opening, "the user acted before it first spoke"


def test_the_tau2_document_rescores_with_the_users_tool_calls(telecom_run: Path, tmp_path: Path) -> None:
    """``taumesh rescore`` replays both sides' calls and sends the scorer the whole timeline, as the run did."""
    (document,) = telecom_run.glob("*.tau2.json")
    rescored = invoke("rescore", document, "--env", "tau2-telecom", "--task-split-name", "small")
    assert rescored.exit_code == 0, explain_result(rescored)
    assert f"rescored {len(TASKS)} trajectories: {len(TASKS)} agree, 0 differ" in rescored.stdout


def test_the_taubench_layout_file_rescores_with_the_users_tool_calls(telecom_run: Path) -> None:
    """τ-bench's layout of a τ² run rescores from its timeline: both sides' calls, the conversation the run sent."""
    rescored = invoke("rescore", results_path(telecom_run), "--env", "tau2-telecom", "--task-split-name", "small")
    assert rescored.exit_code == 0, explain_result(rescored)
    assert f"rescored {len(TASKS)} trajectories: {len(TASKS)} agree, 0 differ" in rescored.stdout


def test_a_taubench_layout_replay_of_a_tau2_run_is_its_timeline(telecom_run: Path) -> None:
    episodes = {str(e.task_id): e for e in load_episodes(results_path(telecom_run), "timeline")}
    for result in load_results(results_path(telecom_run)):
        replay = episodes[str(result.task_id)].replay
        assert replay is not None
        gold = [(action.requestor, action.name) for action in _task(str(result.task_id)).gold_actions]
        assert [(call.requestor, call.name) for call in replay.tool_calls] == gold, "the user's calls as the user's"
        assert replay.termination == result.info["termination"]
        timeline = result.timeline()
        assert [(m.role, m.content) for m in replay.conversation] == [(m["role"], m["content"]) for m in timeline[1:]]
        users = [call for m in replay.conversation if m.role == "user" for call in m.tool_calls]
        assert users and {call.requestor for call in users} == {"user"}
    # the same file read as τ-bench v1 reads its own: the agent's view alone, as before
    for episode in load_episodes(results_path(telecom_run)):
        assert episode.replay is not None and not episode.replay.conversation
        agents = [a.name for a in _task(str(episode.task_id)).gold_actions if a.requestor == "assistant"]
        assert [(c.requestor, c.name) for c in episode.replay.tool_calls] == [("assistant", name) for name in agents]
