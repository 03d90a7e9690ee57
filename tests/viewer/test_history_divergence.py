"""The first divergence of an episode that continued a τ² task's message history is looked for after the history.

The run is real (τ²'s mock domain, oracle agent and scripted user, through ``taumesh run`` in both layouts), read as
the viewer reads it (:func:`load_run`); the history's ``create_task`` call was made before the episode began and is
not the agent's first action.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taumesh.orchestrator.results.records import HISTORY_MESSAGES
from taumesh.viewer.metrics import first_divergence
from taumesh.viewer.runs import Episode, load_run
from tests.helpers.viewer_thread import ThreadViewer
from tests.orchestrator.test_history_messages import HISTORY_TASKS, mock_run

pytestmark = pytest.mark.slow  # every test reads the module's real τ² run: seconds

HISTORY_CALL = "create_task"
"""The tool call of both history tasks' message history."""


@pytest.fixture(scope="module")
def history_run(tau2_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The results file (τ-bench layout) of a real τ² mock run; its τ² document is beside it."""
    return mock_run(tmp_path_factory.mktemp("mock"))


def _history_messages(results: Path) -> dict[str, int]:
    """Task id → ``info.history_messages`` of the history tasks' entries."""
    entries = json.loads(results.read_text(encoding="utf-8"))
    return {
        str(entry["task_id"]): entry["info"][HISTORY_MESSAGES] for entry in entries if HISTORY_MESSAGES in entry["info"]
    }


def _episodes(path: Path) -> dict[str, Episode]:
    return {episode.task_id: episode for episode in load_run(path).episodes}


def test_the_history_call_is_not_the_agents_first_action(history_run: Path) -> None:
    history = _history_messages(history_run)
    assert set(history) == set(HISTORY_TASKS)
    episodes = _episodes(history_run)
    for task_id, count in history.items():
        episode = episodes[task_id]
        agent_gold = [action["name"] for action in episode.gold_actions]
        divergence = first_divergence(episode.messages, episode.gold_actions, count)
        assert (divergence.index, divergence.message_index) == (None, None), "the oracle played the gold actions"
        assert [step.name for step in divergence.agent_actions] == agent_gold
        assert all(step.message_index > count for step in divergence.agent_actions), "after system prompt + history"
        # counted from the system prompt, the history's call would be taken for the agent's first action
        unskipped = first_divergence(episode.messages, episode.gold_actions)
        assert unskipped.agent_actions[0].name == HISTORY_CALL and unskipped.index == 0


def test_a_mistake_after_the_history_is_the_first_divergence(history_run: Path, tmp_path: Path) -> None:
    """The agent's first own call (after the history) given wrong arguments diverges at step 0, at that message."""
    task_id = HISTORY_TASKS[0]
    count = _history_messages(history_run)[task_id]
    entries: list[dict[str, Any]] = json.loads(history_run.read_text(encoding="utf-8"))
    (entry,) = [entry for entry in entries if entry["task_id"] == task_id]
    wrong = next(
        index
        for index, m in enumerate(entry["traj"])
        if index > count and m["role"] == "assistant" and m.get("tool_calls")
    )
    function = entry["traj"][wrong]["tool_calls"][0]["function"]
    function["arguments"] = json.dumps(json.loads(function["arguments"]) | {"title": "WRONG"})
    edited = tmp_path / history_run.name
    edited.write_text(json.dumps(entries), encoding="utf-8")
    episode = _episodes(edited)[task_id]
    divergence = first_divergence(episode.messages, episode.gold_actions, count)
    assert (divergence.index, divergence.message_index) == (0, wrong)
    kwargs = divergence.agent_actions[0].kwargs
    assert isinstance(kwargs, dict) and kwargs["title"] == "WRONG"


def test_a_tau2_document_has_no_system_prompt_before_the_history(history_run: Path) -> None:
    """τ²'s layout records the history in its task (``initial_state.message_history``); its messages start with it."""
    (document_path,) = history_run.parent.glob("*.tau2.json")
    document = json.loads(document_path.read_text(encoding="utf-8"))
    history = {
        str(task["id"]): len(task["initial_state"]["message_history"])
        for task in document["tasks"]
        if (task.get("initial_state") or {}).get("message_history")
    }
    assert history == _history_messages(history_run)
    episodes = _episodes(document_path)
    for task_id, count in history.items():
        episode = episodes[task_id]
        assert episode.messages[0]["role"] == "user", "no system prompt"
        divergence = first_divergence(episode.messages, episode.gold_actions, count)
        assert (divergence.index, divergence.message_index) == (None, None)
        assert all(step.message_index >= count for step in divergence.agent_actions)
        assert first_divergence(episode.messages, episode.gold_actions).agent_actions[0].name == HISTORY_CALL


@pytest.mark.parametrize("layout", ["taubench", "tau2"])
def test_the_viewer_shows_no_divergence_on_a_history_task(history_run: Path, layout: str) -> None:
    """The viewer's app (over HTTP, as ``taumesh view`` serves it) passes each episode's history length to the
    divergence, in either layout."""
    path = history_run if layout == "taubench" else next(history_run.parent.glob("*.tau2.json"))
    served = ThreadViewer([path])
    try:
        (run,) = served.get("/api/runs")
        for task_id in HISTORY_TASKS:
            divergence = served.get(f"/api/runs/{run['run_id']}/episodes/{task_id}/0")["divergence"]
            assert (divergence["index"], divergence["message_index"]) == (None, None)
            assert HISTORY_CALL not in [step["name"] for step in divergence["agent_actions"]][:1]
    finally:
        served.close()
