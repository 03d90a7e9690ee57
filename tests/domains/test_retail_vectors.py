"""Retail tools against τ-bench v1's conformance vectors: every observation and every data hash."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import Domain, Session, load_domain
from taumesh.domains._hashing import DataHasher
from taumesh.domains.v1.retail.tools import RETAIL_TOOLS
from tests.helpers.paths import V1_VECTORS, read_jsonl

INITIAL_HASH = "5a4b2cb59f4d12dea7e4adff24a7f8fada510ead49372ea4a729a82bbb5f49b5"
WRITE_TOOLS = {tool.name for tool in RETAIL_TOOLS if tool.writes}


def _rows(filename: str) -> list[dict[str, Any]]:
    path = V1_VECTORS / filename
    if not path.is_file():
        return []
    return [row for row in read_jsonl(path) if row.get("env", "retail") == "retail"]


TASKS = [row for split in ("test", "train", "dev") for row in _rows(f"retail_{split}.jsonl")]
ERROR_CASES = _rows("error_cases.jsonl")
SEQUENCE_CASES = _rows("sequence_cases.jsonl")


@pytest.fixture(scope="module")
def domain(v1_data_dir: Path) -> Domain:
    loaded = load_domain("retail", v1_data_dir)
    assert loaded.initial_hash == INITIAL_HASH
    return loaded


def test_tool_names_match_schemas(domain: Domain) -> None:
    assert [schema["function"]["name"] for schema in domain.tool_schemas]
    assert {
        "cancel_pending_order",
        "exchange_delivered_order_items",
        "modify_pending_order_address",
        "modify_pending_order_items",
        "modify_pending_order_payment",
        "modify_user_address",
        "return_delivered_order_items",
    } == WRITE_TOOLS


@pytest.mark.parametrize("task", TASKS, ids=[f"{t['split']}-{t['task_id']}" for t in TASKS])
def test_gold_actions(domain: Domain, task: dict[str, Any]) -> None:
    session = Session(domain)
    assert task["initial_hash"] == INITIAL_HASH
    assert len(task["actions"]) == len(task["action_outputs"]) == len(task["steps"])
    for index, (action, expected, step) in enumerate(
        zip(task["actions"], task["action_outputs"], task["steps"], strict=True)
    ):
        where = f"{task['split']} task {task['task_id']} step {index} {action['name']}"
        result = session.call(action["name"], json.loads(json.dumps(action["kwargs"])))
        assert result.observation == expected, where
        assert result.done == step["done"], where
        assert session.data_hash() == step["hash_after"], where
    assert session.data_hash() == task["final_hash"]


@pytest.mark.parametrize("case", ERROR_CASES, ids=[f"{i}-{c['tool']}-{c['note']}" for i, c in enumerate(ERROR_CASES)])
def test_error_case(domain: Domain, case: dict[str, Any]) -> None:
    session = Session(domain)
    result = session.call(case["tool"], json.loads(json.dumps(case["kwargs"])))
    assert result.observation == case["observation"]
    if case.get("done") is not None:
        assert result.done == case["done"]
    after = session.data_hash()
    if case.get("hash_after") is not None:
        assert after == case["hash_after"]
    if case.get("data_changed") is not None:
        assert (after != INITIAL_HASH) == case["data_changed"]


@pytest.mark.parametrize("case", SEQUENCE_CASES, ids=[c["note"][:60] for c in SEQUENCE_CASES])
def test_sequence_case(domain: Domain, case: dict[str, Any]) -> None:
    session = Session(domain)
    for index, (call, expected) in enumerate(zip(case["sequence"], case["results"], strict=True)):
        result = session.call(call["tool"], json.loads(json.dumps(call["kwargs"])))
        assert result.observation == expected["observation"], f"step {index} {call['tool']}"
    assert session.data_hash() == case["hash_after"]


def test_read_tools_copy_nothing(domain: Domain) -> None:
    session = Session(domain)
    calls = [
        ("find_user_id_by_email", {"email": "sofia.rossi2645@example.com"}),
        ("find_user_id_by_name_zip", {"first_name": "Sofia", "last_name": "Rossi", "zip": "78784"}),
        ("get_user_details", {"user_id": "sofia_rossi_8776"}),
        ("get_order_details", {"order_id": "#W5918442"}),
        ("get_product_details", {"product_id": "6858788497"}),
        ("list_all_product_types", {}),
    ]
    for name, kwargs in calls:
        assert not session.call(name, kwargs).error, name
    assert session.copied_records() == 0


def test_vectors_present() -> None:
    assert len(TASKS) == 635
    assert len(ERROR_CASES) == 77
    assert len(SEQUENCE_CASES) >= 1


def test_base_data_untouched(domain: Domain, v1_data_dir: Path) -> None:
    """Runs last in this module: nothing above may have mutated the shared base data."""
    root = v1_data_dir / "retail"
    fresh = {table: json.loads((root / f"{table}.json").read_text()) for table in domain.spec.tables}
    assert domain.base_data == fresh
    assert DataHasher(domain.base_data).hash(domain.base_data) == INITIAL_HASH
    assert Session(domain).data_hash() == INITIAL_HASH
