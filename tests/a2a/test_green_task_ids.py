"""``taumesh serve a2a``: an assessment request's ``task_ids`` take τ²'s task ids beside indexes.

The green agent is a process; the purple agent is the gold A2A agent given τ² mock's tasks (written here from the
fetched data, as the agent's task file). An id the split lacks fails the task before any episode, with the
orchestrator's message naming some ids the split has.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from a2a.types.a2a_pb2 import TaskState

from tests.a2a.conftest import Agents
from tests.a2a.test_green_agent import ask, start_green
from tests.helpers.tau2 import tau2_domain

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def mock_purple(tau2_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The gold A2A agent over τ² mock's base tasks."""
    folder = tmp_path_factory.mktemp("mock-purple")
    tasks = [
        {
            "instruction": task.instruction,
            "actions": [{"name": action.name, "kwargs": action.kwargs} for action in task.actions],
            "outputs": list(task.outputs),
        }
        for task in tau2_domain("mock").tasks("base")
    ]
    (folder / "tasks.json").write_text(json.dumps(tasks), encoding="utf-8")
    agents = Agents(folder / "tasks.json", folder)
    try:
        yield agents.start("text", grpc=False, garbage_once=False)
    finally:
        agents.stop()


async def test_tau2_ids_choose_the_tasks_and_an_unknown_id_fails_unplayed(
    mock_purple: str, v1_data_dir: Path, tmp_path: Path
) -> None:
    green, proc = start_green(tmp_path, v1_data_dir, mock_purple)
    try:
        config = {"domain": "tau2-mock", "user_strategy": "scripted", "task_ids": ["update_task_1", 0]}
        progress, data, parts, state = await ask(green, {"participants": {"agent": mock_purple}, "config": config})
        assert state == TaskState.TASK_STATE_COMPLETED, progress
        [result] = data
        assert isinstance(result, dict) and result["solved"] == 2 and result["errors"] == 0, result
        results_file = next(p for p in parts if p.HasField("raw"))  # type: ignore[attr-defined]
        played = json.loads(results_file.raw)
        assert sorted(entry["task_id"] for entry in played) == ["create_task_1", "update_task_1"]

        config["task_ids"] = ["update_task_1", "create_task_9"]
        progress, data, _, state = await ask(green, {"participants": {"agent": mock_purple}, "config": config})
        assert state == TaskState.TASK_STATE_FAILED and not data, progress
        said = " ".join(progress[-1].split())
        assert "the run cannot start: task ids ['create_task_9'] name no task of tau2-mock base" in said
        assert "create_task_1, create_task_1_with_env_assertions" in said
        assert not any(line.startswith("progress:") for line in progress), progress
    finally:
        proc.terminate()
        proc.wait(timeout=10)
