"""The viewer shows τ²'s telecom user's own tool calls in place, and compares each side with its own gold actions.

The run is a real telecom run (``telecom_run``: oracle agent, scripted user acting on its phone, the tasks of the
orchestrator's user-tool tests) in both layouts; ``taumesh view`` serves it and the episode endpoint is read over
HTTP.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taumesh.orchestrator.results.results_file import load_results
from tests.helpers.cli import results_path
from tests.helpers.viewer import TELECOM_TASKS as TASKS
from tests.helpers.viewer_thread import ThreadViewer
from tests.orchestrator.test_tau2_user_tool_calls import _task

HANDED_OVER = TASKS[1]
"""The task whose user acts twice, each time between two of the agent's actions."""


def _episodes(paths: list[Path]) -> dict[str, dict[str, Any]]:
    """Every episode (trial 0) of the one run ``taumesh view`` serves from ``paths``, by task id."""
    served = ThreadViewer(paths)
    try:
        (run,) = served.get("/api/runs")
        return {task: served.get(f"/api/runs/{run['run_id']}/episodes/{task}/0") for task in TASKS}
    finally:
        served.close()


def _calls(messages: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(requestor, tool name) of every call in ``messages``, in order (the agent's calls carry no requestor)."""
    return [
        (call.get("requestor", "assistant"), call["function"]["name"])
        for message in messages
        for call in message.get("tool_calls") or []
    ]


@pytest.fixture(scope="module")
def taubench_episodes(telecom_run: Path) -> dict[str, dict[str, Any]]:
    return _episodes([results_path(telecom_run)])


def test_the_episode_holds_the_users_tool_calls_in_place(
    taubench_episodes: dict[str, dict[str, Any]], telecom_run: Path
) -> None:
    results = {str(r.task_id): r for r in load_results(results_path(telecom_run))}
    for task_id, detail in taubench_episodes.items():
        messages = detail["episode"]["messages"]
        timeline = results[task_id].timeline()
        assert len(messages) == len(timeline) > len(results[task_id].traj)
        assert [(m["role"], m["content"]) for m in messages] == [(m["role"], m["content"]) for m in timeline]
        gold = [(action.requestor, action.name) for action in _task(task_id).gold_actions]
        assert _calls(messages) == gold, "the user's calls marked as the user's, among the agent's in time order"
        for n, message in enumerate(messages):  # each user call is answered right after it, as the user's
            if message["role"] == "user" and message.get("tool_calls"):
                (call,) = message["tool_calls"]
                answer = messages[n + 1]
                assert (answer["role"], answer["tool_call_id"], answer["requestor"]) == ("tool", call["id"], "user")
        assert [(a["requestor"], a["name"]) for a in detail["episode"]["gold_actions"]] == gold


def test_each_side_is_compared_with_its_own_gold_actions(taubench_episodes: dict[str, dict[str, Any]]) -> None:
    for task_id, detail in taubench_episodes.items():
        divergence = detail["divergence"]
        gold = _task(task_id).gold_actions
        assert (divergence["index"], divergence["message_index"]) == (None, None), "the oracle agent did its part"
        assert [a["name"] for a in divergence["gold_actions"]] == [a.name for a in gold if a.requestor == "assistant"]
        user = divergence["user"]
        assert (user["index"], user["message_index"]) == (None, None), "the scripted user did its part"
        assert [a["name"] for a in user["gold_actions"]] == [a.name for a in gold if a.requestor == "user"]
        assert [s["name"] for s in user["actions"]] == [a["name"] for a in user["gold_actions"]]
        for step in user["actions"]:
            message = detail["episode"]["messages"][step["message_index"]]
            assert message["role"] == "user" and message["tool_calls"][0]["function"]["name"] == step["name"]


def test_a_users_wrong_call_diverges_on_the_users_side(telecom_run: Path, tmp_path: Path) -> None:
    entries = json.loads(results_path(telecom_run).read_text(encoding="utf-8"))
    entry = next(e for e in entries if e["task_id"] == HANDED_OVER)
    second = entry["info"]["user_tool_turns"][1]["messages"][0]["tool_calls"][0]["function"]
    second["name"] = "toggle_airplane_mode"
    edited = tmp_path / results_path(telecom_run).name
    edited.write_text(json.dumps(entries), encoding="utf-8")

    detail = _episodes([edited])[HANDED_OVER]
    divergence = detail["divergence"]
    assert divergence["index"] is None, "the user's mistake is not the agent's"
    user = divergence["user"]
    assert user["index"] == 1
    diverged = detail["episode"]["messages"][user["message_index"]]
    assert (diverged["role"], diverged["tool_calls"][0]["function"]["name"]) == ("user", "toggle_airplane_mode")


def _sides(divergence: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Each side's first divergence, gold actions and calls (message places left out)."""
    user = divergence["user"]
    return [
        (side["index"], side["gold_actions"], [(step["name"], step["kwargs"]) for step in steps])
        for side, steps in ((divergence, divergence["agent_actions"]), (user, user["actions"]))
    ]


def test_the_tau2_document_shows_the_same_sides(
    telecom_run: Path, taubench_episodes: dict[str, dict[str, Any]]
) -> None:
    (document,) = telecom_run.glob("*.tau2.json")
    for task_id, detail in _episodes([document]).items():
        listed = taubench_episodes[task_id]
        assert _calls(detail["episode"]["messages"]) == _calls(listed["episode"]["messages"])
        assert _sides(detail["divergence"]) == _sides(listed["divergence"])


def test_an_older_file_without_gold_requestors_gets_the_same_sides(
    telecom_run: Path, tmp_path: Path, taubench_episodes: dict[str, dict[str, Any]]
) -> None:
    """Files written before gold actions carried their requestor: the viewer tells the user's by the tools it called."""
    entries = json.loads(results_path(telecom_run).read_text(encoding="utf-8"))
    recorded = 0
    for entry in entries:
        for actions in (entry["info"]["task"]["actions"], entry["info"]["reward_info"]["actions"]):
            for action in actions:
                recorded += action.pop("requestor", None) == "user"
    assert recorded, "new files mark the user's gold actions"
    older = tmp_path / results_path(telecom_run).name
    older.write_text(json.dumps(entries), encoding="utf-8")
    for task_id, detail in _episodes([older]).items():
        assert _sides(detail["divergence"]) == _sides(taubench_episodes[task_id]["divergence"])
