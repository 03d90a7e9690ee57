"""The tau2-mock plugin through the domain contract: registry, splits, tool semantics, initial state."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from taumesh.domains import Registry, Session
from taumesh.domains.tau2 import Tau2Task, call_tool, open_session
from tests.helpers.tau2 import tau2_domain


def test_registry_finds_the_plugin_through_its_entry_point(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dist = tmp_path / "taumesh_tau2_test-0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: taumesh-tau2-test\nVersion: 0\n")
    (dist / "entry_points.txt").write_text("[taumesh.domains]\ntau2-mock = taumesh.domains.tau2_mock:plugin\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    registry = Registry.discover([])
    assert "tau2-mock" in registry.names()
    assert "tau2-mock" not in registry.broken


def test_splits_and_tasks(tau2_data: Path) -> None:
    domain = tau2_domain("mock")
    assert domain.has_split_file("base")
    assert not domain.has_split_file("test")
    tasks = domain.tasks("base")
    assert len(tasks) == 9
    task = domain.find_task("base", "update_task_1")
    assert isinstance(task, Tau2Task)
    assert [action.name for action in task.actions] == [gold.name for gold in task.gold_actions]


def test_tau2_error_texts(tau2_data: Path) -> None:
    session = Session(tau2_domain("mock"))
    unknown = session.call("delete_everything", {})
    assert (unknown.observation, unknown.error, unknown.known_tool) == (
        "Error: Tool 'delete_everything' not found.",
        True,
        False,
    )
    missing = session.call("create_task", {"user_id": "user_1"})
    assert missing.observation == "Error: MockTools.create_task() missing 1 required positional argument: 'title'"
    refused = session.call("update_task_status", {"task_id": "task_9", "status": "completed"})
    assert (refused.observation, refused.error) == ("Error: Task task_9 not found", True)
    invalid = session.call("create_task", {"user_id": "user_1", "title": 7})
    assert invalid.observation.startswith("Error: 1 validation error for Task\ntitle\n  Input should be a valid string")
    assert session.data_hash() == tau2_domain("mock").initial_hash


def test_a_tool_result_that_starts_with_error_is_no_error(tau2_data: Path) -> None:
    session = Session(tau2_domain("mock"))
    step = call_tool(session, "create_task", {"user_id": "user_1", "title": "Error: not really"})
    assert not step.error


def test_initialization_data_is_normalised_by_the_model(tau2_data: Path) -> None:
    domain = tau2_domain("mock")
    session = open_session(domain, domain.find_task("base", "update_task_with_initialization_data"))
    assert dict(session.data["tasks"]["task_2"]) == {
        "task_id": "task_2",
        "title": "Project Review",
        "description": "Review Q4 project status",
        "status": "pending",
    }
    assert list(session.data["users"]["user_1"]["tasks"]) == ["task_1", "task_2"]
    assert Session(domain).data_hash() == domain.initial_hash  # the base data stayed untouched


def test_retail_gold_errors_are_tau2s_texts_and_change_nothing(tau2_data: Path) -> None:
    domain = tau2_domain("retail")
    session = Session(domain)
    missing = call_tool(session, "get_product_details", {"product_id": "6086499569"})
    assert (missing.observation, missing.error) == ("Error: Product not found", True)
    wrong = call_tool(session, "calculate", {"expression": "2 + x"})
    assert wrong.observation == "Error: Invalid characters in expression"
    assert call_tool(session, "calculate", {"expression": "(10 - 2.5) / 3"}).observation == "2.5"
    assert session.data_hash() == domain.initial_hash


def test_airline_airports_come_from_tau2s_source(tau2_data: Path) -> None:
    session = Session(tau2_domain("airline"))
    airports = call_tool(session, "list_all_airports", {}).observation
    assert airports.startswith('[{"iata": "SFO", "city": "San Francisco"}, ')
    assert airports.count('"iata"') == 20
