"""Healthcare release 1 (``healthcare:v1``): the audit finds and lists its flaws (issue 38's review).

Release 2 (``healthcare``, issue 41) fixes them: tests/domains/healthcare/test_v2.py shows its audit flags nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from taumesh.audit import AuditReport
from tests.audit.conftest import audited, flagged


@pytest.fixture(scope="module")
def healthcare() -> AuditReport:
    return audited("healthcare:v1", "base", Path())  # the domain carries its own data


def test_verify_then_refuse_passes_the_tasks_whose_gold_the_policy_does_not_make_unique(
    healthcare: AuditReport,
) -> None:
    floor = healthcare.floors["identity_then_refuse"]
    assert (len(floor.passed), floor.of) == (21, 165)  # 12.7 %, as the review found
    assert floor.note is None
    assert healthcare.floors["null"].passed == []  # without verifying, a refusal passes nothing


def test_guessable_outputs_are_listed(healthcare: AuditReport) -> None:
    guessable = flagged(healthcare, "guessable_output")
    assert {"cost_estimate-01", "cost_estimate-03", "cancel_appointment-10"} <= guessable
    repeated = [
        flag.detail
        for task in healthcare.tasks
        for flag in task.flags
        if "the user's own instruction holds it" in flag.detail
    ]
    assert repeated  # outputs the caller's own date of birth or phone digits already contain


def test_intent_is_reported(healthcare: AuditReport) -> None:
    assert all(task.intent for task in healthcare.tasks)
    assert next(task for task in healthcare.tasks if task.task_id == "refill-02").intent == "refill"


def test_declared_sets_stored_sorted_are_not_order_sensitive(healthcare: AuditReport) -> None:
    """``record_types`` is declared a set and the tool stores it sorted: reversing it in the gold changes nothing."""
    from taumesh.domains import Catalog

    domain = Catalog(Path()).get("healthcare:v1")
    reordered = [
        task.id
        for task in domain.tasks("base")
        for action in task.actions
        if action.name == "create_records_request" and len(action.kwargs["record_types"]) > 1
    ]
    assert reordered  # the audit tried the reversal on these
    assert flagged(healthcare, "order_sensitive") == set()
