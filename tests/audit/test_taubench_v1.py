"""τ-bench v1: the audit's null floor is the set of tasks τ-bench's own reward passes for an agent that only refuses.

The expected set is derived from τ-bench's records, not taumesh's code: each vector line holds the data hash τ-bench's
``calculate_reward`` replayed the gold to (``gt_data_hash``) and the fresh data's (``initial_hash``). An agent that
only refuses leaves the data fresh, so its ``r_actions`` is 1 iff the two are equal, and its ``r_outputs`` is 1 iff
every required output is a substring of its one message (lowercased, commas removed). Reward at ``###STOP###`` is their
product.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from taumesh.audit import REFUSAL, AuditReport
from tests.audit.conftest import audited, flagged
from tests.helpers.paths import V1_VECTORS, read_jsonl

INITIAL_HASHES = {
    "retail": "5a4b2cb59f4d12dea7e4adff24a7f8fada510ead49372ea4a729a82bbb5f49b5",
    "airline": "4587e6b48ad2b2c4f3e1fecb40aabec7bb2286513273b8f8cec3f5865222f290",
}
"""τ-bench's hash of the fresh data (its README), to know the vectors' initial hash is the untouched data's."""


def refusal_passes(env: str) -> set[int]:
    """The tasks τ-bench's reward passes for one refusal then ``###STOP###``, from τ-bench's own gold replays."""
    passed = set()
    for record in read_jsonl(V1_VECTORS / f"{env}_test.jsonl"):
        assert record["initial_hash"] == INITIAL_HASHES[env]
        unchanged = record["gt_data_hash"] == record["initial_hash"]
        said = all(output.lower() in REFUSAL.lower().replace(",", "") for output in record["expected_outputs"])
        if unchanged and said:
            passed.add(record["task_id"])
    return passed


def erroring_gold(env: str) -> set[int]:
    """Tasks whose gold replay τ-bench answered with an ``Error`` observation at some step."""
    return {
        record["task_id"]
        for record in read_jsonl(V1_VECTORS / f"{env}_test.jsonl")
        if any(observation.startswith("Error") for observation in record["action_outputs"])
    }


@pytest.fixture(scope="module")
def reports(v1_data_dir: Path) -> dict[str, AuditReport]:
    return {env: audited(env, "test", v1_data_dir) for env in ("airline", "retail")}


@pytest.mark.parametrize("env", ["airline", "retail"])
def test_null_floor_is_what_taubench_passes_for_a_refusal(reports: dict[str, AuditReport], env: str) -> None:
    report = reports[env]
    expected = refusal_passes(env)
    null = report.floors["null"]
    assert set(null.passed) == expected
    assert null.of == len(report.tasks) == {"airline": 50, "retail": 115}[env]
    assert flagged(report, "null_passable") == expected
    assert all(isinstance(task.task_id, int) for task in report.tasks)  # v1 spells ids as positions


def test_airline_null_floor_is_the_abc_checklists_38_percent(reports: dict[str, AuditReport]) -> None:
    null = reports["airline"].floors["null"]
    assert len(null.passed) / null.of == pytest.approx(0.38)


@pytest.mark.parametrize("env", ["airline", "retail"])
def test_gold_replay_errors_are_the_steps_taubench_answered_with_an_error(
    reports: dict[str, AuditReport], env: str
) -> None:
    assert flagged(reports[env], "gold_replay_error") == erroring_gold(env)


def test_declared_reorderings_that_change_the_outcome_are_flagged(reports: dict[str, AuditReport]) -> None:
    task0 = next(task for task in reports["airline"].tasks if task.task_id == 0)
    (flag,) = [flag for flag in task0.flags if flag.kind == "order_sensitive"]
    assert "payment_methods of gold action 0 (book_reservation)" in flag.detail


def test_floors_order_and_report_shape(reports: dict[str, AuditReport]) -> None:
    report = reports["retail"]
    dumped = report.model_dump(mode="json")
    assert list(dumped) == ["domain", "split", "data_release", "audit_version", "tasks", "floors"]
    assert list(dumped["floors"]) == [
        "null",
        "read_only",
        "identity_then_refuse",
        "outputs_spam",
        "gold_without_outputs",
    ]
    floors = report.floors
    # identity calls and reads change no v1 data: those floors pass what the null floor passes
    assert set(floors["read_only"].passed) == set(floors["null"].passed)
    assert set(floors["null"].passed) <= set(floors["outputs_spam"].passed)
