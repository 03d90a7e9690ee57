"""Results files say whose each gold action is: the user's (τ² telecom's dual control) carry ``requestor: "user"``.

Through the real path: a telecom run with the oracle agent and the scripted user over the gRPC services, where the
scorer reports each gold action's requestor from the task; the assistant's actions carry no key, so a τ-bench v1
result's actions stay exactly τ-bench's ``{name, kwargs}``. A file written before the key existed still resumes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from taumesh.domains.tau2 import Tau2Task
from taumesh.orchestrator.results.results_file import ResultsFile, load_results
from tests.helpers.cli import load_json, oracle_invoke, results_path, tasks
from tests.helpers.paths import V1_DATA
from tests.orchestrator.test_tau2_user_tool_calls import TASKS, _task, assert_resume_rewrites_nothing, telecom_run

__all__ = ["telecom_run"]


def _expected_actions(task: Tau2Task) -> list[dict[str, Any]]:
    """The task's gold actions as the results file should record them."""
    return [
        {"name": gold.name, "kwargs": gold.arguments, **({"requestor": "user"} if gold.requestor == "user" else {})}
        for gold in task.gold_actions
    ]


def test_telecom_results_mark_the_users_gold_actions(telecom_run: Path) -> None:
    results = load_json(results_path(telecom_run))
    assert sorted(result["task_id"] for result in results) == sorted(TASKS)
    sides: set[str] = set()
    for result in results:
        task = _task(result["task_id"])
        sides |= {gold.requestor for gold in task.gold_actions}
        expected = _expected_actions(task)
        assert result["info"]["reward_info"]["actions"] == expected, result["task_id"]
        assert result["info"]["task"]["actions"] == expected, result["task_id"]
    assert sides == {"assistant", "user"}, "the tasks hold both sides' gold actions"


def test_a_telecom_file_without_requestors_still_loads_and_resumes(telecom_run: Path, tmp_path: Path) -> None:
    results = load_results(results_path(telecom_run))
    for result in results:  # what taumesh wrote before gold actions carried their requestor
        for actions in (result.info["task"]["actions"], result.info["reward_info"]["actions"]):
            for action in actions:
                action.pop("requestor", None)
    old = tmp_path / "old.json"
    ResultsFile(old, existing=results).flush()
    infos = [entry["info"] for entry in load_json(old)]
    recorded = [a for info in infos for a in [*info["task"]["actions"], *info["reward_info"]["actions"]]]
    assert recorded and not any("requestor" in action for action in recorded)
    assert [r.task_id for r in load_results(old)] == [r.task_id for r in results]
    assert_resume_rewrites_nothing(old, tmp_path)


def test_v1_results_record_gold_actions_exactly_as_tau_bench(tmp_path: Path) -> None:
    _, results = oracle_invoke(tmp_path, "retail", "test", "--end-index", "4", "--max-concurrency", "2")
    task_list = tasks("retail", "test")
    assert len(results) == 4 and V1_DATA.is_dir()
    for result in results:
        actions = result["info"]["reward_info"]["actions"]
        assert actions, result["task_id"]
        assert all(list(action) == ["name", "kwargs"] for action in actions), result["task_id"]
        assert json.dumps(actions) == json.dumps(task_list[result["task_id"]]["actions"]), result["task_id"]
        assert result["info"]["task"]["actions"] == actions
