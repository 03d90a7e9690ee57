"""Results say where a τ² task's message history ends: ``info.history_messages``, only on the tasks that have one.

Through the real path: ``taumesh run`` of τ²'s mock domain (two of its tasks continue a message history) with the
oracle agent and the scripted user over the gRPC services, and a τ-bench v1 run whose entries carry no such key.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from taumesh.domains.tau2 import Tau2Task
from taumesh.orchestrator.results.records import HISTORY_MESSAGES, RunResult
from tests.helpers.cli import ORACLE, explain_result, invoke, load_json, oracle_invoke, results_path
from tests.helpers.tau2 import tau2_domain

HISTORY_TASKS = ("update_task_with_message_history", "update_task_with_history_and_env_assertions")


def mock_run(log_dir: Path) -> Path:
    """Every τ² mock task played once by the oracle agent and the scripted user, in both layouts; the results file."""
    result = invoke("run", "--env", "tau2-mock", *ORACLE, "--output-format", "both", "--log-dir", log_dir)
    assert result.exit_code == 0, explain_result(result)
    return results_path(log_dir)


def test_a_history_tasks_result_records_how_many_messages_it_continued_from(tau2_data: Path, tmp_path: Path) -> None:
    entries: list[dict[str, Any]] = load_json(mock_run(tmp_path))
    tasks = {task.id: task for task in tau2_domain("mock").tasks("base") if isinstance(task, Tau2Task)}
    assert {entry["task_id"] for entry in entries} == set(tasks) > set(HISTORY_TASKS)
    for entry in entries:
        history = tasks[entry["task_id"]].history()
        if entry["task_id"] not in HISTORY_TASKS:
            assert not history and HISTORY_MESSAGES not in entry["info"], entry["task_id"]
            continue
        assert entry["info"][HISTORY_MESSAGES] == len(history) == 4
        timeline = RunResult.model_validate(entry).timeline()
        assert timeline[0]["role"] == "system"
        assert timeline[1 : 1 + len(history)] == [message.openai() for message in history]
        assert timeline[1 + len(history)] == {"role": "user", "content": tasks[entry["task_id"]].instruction}


def test_a_v1_result_has_no_history_messages_key(tmp_path: Path) -> None:
    _, entries = oracle_invoke(tmp_path, "retail", "test", "--end-index", "3")
    assert len(entries) == 3
    assert all(HISTORY_MESSAGES not in entry["info"] for entry in entries)
